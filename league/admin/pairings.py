"""Pairings and hand adjustments in the admin: a pairing's result is confirmed, linked to a
battle or auto-resolved through the result services; nothing played is ever deleted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from campaigns.admin import CampaignScoped, report
from campaigns.models import Campaign
from common.django_bases import ModelAdmin, TabularInline
from common.users import signed_in
from league import services
from league.admin.history import (
    KeepsHistory,
    pairing_kept_because,
)
from league.admin.rounds import PAIRING_ROW, pairing_state, save_pairing, scope_pairing_choices
from league.desk.words import claim_sentence, reports, winner_name
from league.errors import LeagueConflict
from league.forms import PairingForm
from league.models import LeagueAdjustment, Pairing, ResultEntry

#: What each result on record shows, all of it read-only.
RESULT_ON_RECORD = ("version", "created_at", "by", "result_in_words")


class ResultEntryInline(TabularInline):
    """Every result this pairing held, oldest first: how a correction came about, read-only."""

    model = ResultEntry
    extra = 0
    can_delete = False
    fields = RESULT_ON_RECORD
    readonly_fields = RESULT_ON_RECORD
    verbose_name = "result on record"
    verbose_name_plural = "results on record"

    def has_add_permission(self, request: HttpRequest, obj: Pairing | None = None) -> bool:
        return False  # written by the result services alone

    def has_change_permission(self, request: HttpRequest, obj: Pairing | None = None) -> bool:
        return False

    @admin.display(description="result")
    def result_in_words(self, entry: ResultEntry) -> str:
        standing = "confirmed" if entry.result.get("confirmed_by_organiser") else "reported"
        if entry.result.get("disputed"):
            standing = "disputed"
        return f"{claim_sentence(entry.pairing, entry.result)} ({standing})"


@admin.register(Pairing)
class PairingAdmin(KeepsHistory, CampaignScoped, ModelAdmin):
    campaign_path = "round__campaign"
    form = PairingForm
    inlines = [ResultEntryInline]
    list_display = ["__str__", "campaign", "home_player", "away_player", "score", "result_state"]
    list_filter = [
        "disputed",
        "confirmed_by_organiser",
        "winner",
        "round__status",
        "round__kind",
        ("round__campaign", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["round__campaign", "home__user", "away__user"]
    search_fields = ["home__user__username", "away__user__username", "round__campaign__name"]
    readonly_fields = [
        "round",
        "reported_by_home",
        "reported_by_away",
        "confirmed_by",
        "the_reports",
        "result_state",
    ]
    actions = ["confirm_reported", "auto_resolve"]

    def get_form(
        self, request: HttpRequest, obj: Pairing | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Pairing]]:
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None:
            scope_pairing_choices(form.base_fields, obj.round)
        return form

    @admin.display(description="the players' reports")
    def the_reports(self, obj: Pairing) -> str:
        """The two differing reports in words ("alice says alice won 3–1"), never JSON."""
        said = [f"{name} says {sentence}." for _, name, sentence, _ in reports(obj)]
        return " ".join(said) or "—"

    def get_fields(self, request: HttpRequest, obj: Pairing | None = None) -> tuple[str, ...]:
        return (
            "round",
            *PAIRING_ROW[:-2],
            "result_state",
            "reported_by_home",
            "reported_by_away",
            "confirmed_by",
            "the_reports",
            "version",
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # pairings are added inside their round

    def kept_because(self, obj: Pairing) -> str:
        return pairing_kept_because(obj)

    def delete_model(self, request: HttpRequest, obj: Pairing) -> None:
        services.pairing_delete(pairing=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        for pairing in queryset:
            services.pairing_delete(pairing=pairing)

    @admin.display(description="campaign")
    def campaign(self, obj: Pairing) -> Campaign:
        return obj.round.campaign

    @admin.display(description="home", ordering="home__user__username")
    def home_player(self, obj: Pairing) -> str:
        return obj.home.player_name

    @admin.display(description="away", ordering="away__user__username")
    def away_player(self, obj: Pairing) -> str:
        return obj.away.player_name if obj.away else "Bye"

    @admin.display(description="score")
    def score(self, obj: Pairing) -> str:
        return "Bye" if obj.is_bye else f"{obj.home_vp}–{obj.away_vp} ({winner_name(obj)})"

    @admin.display(description="state")
    def result_state(self, obj: Pairing) -> str:
        return format_html("{}", pairing_state(obj))

    def save_model(
        self, request: HttpRequest, obj: Pairing, form: PairingForm, change: bool
    ) -> None:
        save_pairing(request, obj.round, form)

    @admin.action(description="Confirm the reported results", permissions=["change"])
    def confirm_reported(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        for pairing in queryset.select_related("round"):
            try:
                services.pairing_confirm(pairing=pairing, user=signed_in(request.user))
            except (ValidationError, LeagueConflict) as exc:
                report(request, exc)
            else:
                messages.success(request, f"{pairing}: confirmed")

    @admin.action(description="Auto-resolve selected no-show games", permissions=["change"])
    def auto_resolve(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        for pairing in queryset.select_related("round"):
            try:
                services.pairing_auto_resolve(pairing=pairing, user=signed_in(request.user))
            except (ValidationError, LeagueConflict) as exc:
                report(request, exc)
            else:
                messages.success(request, f"{pairing}: auto-resolved by simulation")


@admin.register(LeagueAdjustment)
class LeagueAdjustmentAdmin(CampaignScoped, ModelAdmin):
    list_display = ["player_name", "campaign", "points", "reason", "created_by", "created_at"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["player__user", "campaign", "created_by"]
    search_fields = ["reason", "player__user__username", "campaign__name"]
    fields = ["campaign", "player", "points", "reason"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: LeagueAdjustment | None = None
    ) -> list[str]:
        return ["campaign"] if obj is not None else []  # a correction stays in its campaign

    @admin.display(description="player", ordering="player__user__username")
    def player_name(self, obj: LeagueAdjustment) -> str:
        return obj.player.player_name

    def save_model(
        self,
        request: HttpRequest,
        obj: LeagueAdjustment,
        form: forms.ModelForm[LeagueAdjustment],
        change: bool,
    ) -> None:
        if change:
            services.adjustment_update(
                adjustment=obj, points=obj.points, reason=obj.reason, player=obj.player
            )
            return
        obj.pk = services.adjustment_create(
            player=obj.player, points=obj.points, reason=obj.reason, user=signed_in(request.user)
        ).pk

    def delete_model(self, request: HttpRequest, obj: LeagueAdjustment) -> None:
        services.adjustment_delete(adjustment=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[LeagueAdjustment]) -> None:
        for adjustment in queryset:
            services.adjustment_delete(adjustment=adjustment)
