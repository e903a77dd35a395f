"""Club ratings in the admin: read-only rows and a "Recompute from scratch" action."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from campaigns.models import Club
from common.django_bases import ModelAdmin
from ratings.models import PlayerRating
from ratings.services import ratings_recompute


@admin.register(PlayerRating)
class PlayerRatingAdmin(ModelAdmin):
    list_display = ["user", "club", "rating_shown", "deviation_shown", "games", "updated_at"]
    list_filter = [("club", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "user__first_name"]
    ordering = ["club", "-rating"]
    actions = ["recompute_from_scratch"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="rating", ordering="rating")
    def rating_shown(self, row: PlayerRating) -> str:
        return f"{row.rating:.0f}"

    @admin.display(description="± (two deviations)", ordering="deviation")
    def deviation_shown(self, row: PlayerRating) -> str:
        return f"{2 * row.deviation:.0f}"

    @admin.action(description="Recompute these clubs' ratings from scratch")
    def recompute_from_scratch(
        self, request: HttpRequest, queryset: QuerySet[PlayerRating]
    ) -> None:
        clubs = Club.objects.filter(pk__in=queryset.values("club_id")).order_by("pk")
        for club in clubs:
            games = ratings_recompute(club=club)
            self.message_user(request, f"{club}: {games} games rated again.", messages.SUCCESS)
