"""The campaign page as the league sees it: the league settings and the points adjustments
inline, the standings and the current round on the page, the organiser's desk (dashboard,
season settings) and the league's actions. Registered in place of `campaigns`' own admin."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from campaigns.admin import CampaignAdmin, CampaignScoped, report, untracked
from campaigns.models import Campaign, Membership, Role
from common.django_bases import StackedInline, TabularInline
from common.users import User, signed_in
from league import selectors, services
from league.core import TIE_BREAKERS, LeagueError
from league.dashboard import pairing_state as dash_state
from league.desk import dashboard as desk_dashboard
from league.desk import season as desk_season
from league.desk.words import winner_name
from league.errors import LeagueConflict
from league.forms import LeagueForm, tie_breaker_slot
from league.models import League, LeagueAdjustment

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec  # the stubs' name for fieldsets


class LeagueInline(CampaignScoped, StackedInline):
    model = League
    form = LeagueForm
    can_delete = False
    max_num = 1
    verbose_name = verbose_name_plural = "League settings"

    def get_fieldsets(self, request: HttpRequest, obj: Campaign | None = None) -> _FieldsetSpec:
        return [
            (
                "Scoring",
                {
                    "fields": [
                        ("win_points", "draw_points", "loss_points"),
                        ("bye_points", "major_victory_bonus", "late_joiner_points"),
                        "max_games_per_pair",
                    ]
                },
            ),
            (
                "Tie-breakers, in order",
                {"fields": [tuple(tie_breaker_slot(i) for i in range(len(TIE_BREAKERS)))]},
            ),
            ("Season", {"fields": [("season_start", "season_end")]}),
        ]


class AdjustmentInline(CampaignScoped, TabularInline):
    model = LeagueAdjustment
    fk_name = "campaign"
    extra = 0
    fields = ["player", "points", "reason", "created_by", "created_at"]
    readonly_fields = ["created_by", "created_at"]
    verbose_name_plural = "Points adjustments (each with its reason)"

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "player" and request.resolver_match:
            # The campaign's league players, as the league's services and the API count them,
            # among the memberships this user may see (CampaignScoped).
            campaign = Campaign(pk=request.resolver_match.kwargs.get("object_id"))
            players = selectors.league_players(campaign).values("pk")
            field.queryset = field.queryset.filter(pk__in=players)
        return field


admin.site.unregister(Campaign)


@admin.register(Campaign)
class LeagueCampaignAdmin(CampaignAdmin):
    inlines = [LeagueInline, *CampaignAdmin.inlines, AdjustmentInline]
    actions = [
        "generate_round_robin",
        "generate_swiss_round",
        "lock_current_round",
        "export_standings",
    ]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        savers = {League: _save_league, LeagueAdjustment: _save_adjustments}
        if formset.model not in savers:
            super().save_formset(request, form, formset, change)
            return
        untracked(formset)
        savers[formset.model](request, form.instance, formset)

    def save_membership(self, request: HttpRequest, campaign: Campaign, form: Any) -> Membership:
        """A player added once rounds exist joins the league late; a withdrawal forfeits."""
        data = form.cleaned_data
        from_round = selectors.late_join_round(campaign)
        joins_late = data["role"] == Role.PLAYER and from_round is not None
        if form.instance.pk is None and joins_late and from_round is not None:
            member = _join_late(request, campaign, data["user"], from_round)
        else:
            member = super().save_membership(request, campaign, form)
        withdrawn = data.get("withdrawn_from_round")
        if "withdrawn_from_round" in form.changed_data and withdrawn:
            forfeits = services.membership_withdraw(
                membership=member, from_round=withdrawn, user=signed_in(request.user)
            )
            messages.info(
                request,
                f"{member.player_name} withdrawn: {len(forfeits)} game(s) forfeited to their "
                "opponents",
            )
        return member

    # --- the standings and the current round on the page ---------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, object] | None = None,
    ) -> HttpResponse:
        campaign = Campaign.objects.filter(pk=object_id).first()
        context = dict(extra_context or {})
        if campaign is not None and self.has_view_permission(request, campaign):
            context.update(league_context(campaign))
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("dashboard/", view(self.dashboard_view), name="campaigns_dashboard"),
            path("<int:campaign_id>/act/", view(self.act_view), name="campaigns_campaign_act"),
            path(
                "<int:campaign_id>/season/",
                view(self.season_view),
                name="campaigns_campaign_season",
            ),
            path(
                "<int:campaign_id>/season/preview/",
                view(self.season_preview_view),
                name="campaigns_campaign_season_preview",
            ),
            path(
                "<int:campaign_id>/standings/",
                view(self.standings_view),
                name="campaigns_campaign_standings",
            ),
            path(
                "<int:campaign_id>/standings.csv",
                view(self.standings_csv_view),
                name="campaigns_campaign_standings_csv",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request: HttpRequest, campaign_id: int) -> Campaign:
        campaign: Campaign = get_object_or_404(self.get_queryset(request), pk=campaign_id)
        if not self.has_view_permission(request, campaign):
            raise PermissionDenied
        return campaign

    def standings_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._viewable(request, campaign_id)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{campaign}: standings",
            "campaign": campaign,
            **league_context(campaign),
        }
        return TemplateResponse(request, "admin/campaigns/campaign/standings.html", context)

    def standings_csv_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return standings_response(self._viewable(request, campaign_id))

    # --- the organiser's desk: dashboard and season settings -------------------------------------

    def dashboard_view(self, request: HttpRequest) -> HttpResponse:
        return desk_dashboard.dashboard_view(request, self._desk_context(request))

    def act_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return desk_dashboard.act_view(request, self._run(request, campaign_id))

    def season_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        return desk_season.season_view(request, campaign, self._desk_context(request))

    def season_preview_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return desk_season.preview_view(request, self._run(request, campaign_id))

    # --- actions ---------------------------------------------------------------------------------

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Campaign],
        act: Callable[[Campaign], object],
        done: str,
    ) -> None:
        for campaign in queryset:
            if not self.has_change_permission(request, campaign):
                messages.error(request, f"{campaign}: you do not run this campaign")
                continue
            try:
                result = act(campaign)
            except (ValidationError, LeagueConflict, LeagueError) as exc:
                report(request, exc)
                continue
            messages.success(request, f"{campaign}: {done.format(result=result)}")

    @admin.action(description="Generate a round-robin schedule", permissions=["change"])
    def generate_round_robin(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._each(
            request,
            queryset,
            lambda c: len(services.round_robin_generate(campaign=c)),
            "{result} rounds scheduled",
        )

    @admin.action(description="Generate the next Swiss round", permissions=["change"])
    def generate_swiss_round(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._each(
            request,
            queryset,
            lambda c: services.swiss_round_generate(campaign=c).number,
            "round {result} paired",
        )

    @admin.action(description="Lock the current round", permissions=["change"])
    def lock_current_round(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        def lock(campaign: Campaign) -> int:
            round_ = selectors.current_round(campaign)
            if round_ is None:
                raise ValidationError("the league has no rounds yet")
            return services.round_lock(round_=round_).number

        self._each(request, queryset, lock, "round {result} locked")

    @admin.action(description="Export standings as CSV", permissions=["view"])
    def export_standings(
        self, request: HttpRequest, queryset: QuerySet[Campaign]
    ) -> HttpResponse | None:
        campaigns = list(queryset)
        if len(campaigns) != 1:
            messages.error(request, "Select exactly one campaign to export its standings.")
            return None
        return standings_response(campaigns[0])


def league_context(campaign: Campaign) -> dict[str, object]:
    """Return what the standings section shows: the table and the current round's games."""
    standings = selectors.league_standings(campaign)
    round_ = selectors.current_round(campaign)
    pairings = list(selectors.round_pairings(round_)) if round_ else []
    rows = [(row, standings.names[row.player]) for row in standings.rows]
    return {
        "standings_rows": rows,
        "current_round": round_,
        "round_pairings": [(p, winner_name(p), STATE_WORDS[dash_state(p)]) for p in pairings],
        "separation_labels": {"points": "points", **TIE_BREAKERS},
        "standings_csv_url": reverse("admin:campaigns_campaign_standings_csv", args=[campaign.pk]),
    }


STATE_WORDS = {
    "bye": "bye",
    "confirmed": "confirmed",
    "agreed": "agreed by both players",
    "reported": "reported by one player",
    "disputed": "disputed",
    "missing": "not reported",
}


def standings_response(campaign: Campaign) -> HttpResponse:
    response = HttpResponse(selectors.league_standings(campaign).csv(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}-standings.csv"'
    return response


def _save_league(request: HttpRequest, campaign: Campaign, formset: Any) -> None:
    for form in formset.forms:
        if form.has_changed() and form.is_valid():
            services.league_update(campaign=campaign, **form.league_changes())


def _join_late(request: HttpRequest, campaign: Campaign, user: User, from_round: int) -> Membership:
    """Seat a player who joins once rounds exist (catch-up games arranged by hand)."""
    joined = services.league_join(
        campaign=campaign, user=user, from_round=from_round, by=signed_in(request.user)
    )
    messages.info(
        request,
        f"{joined.membership.player_name} joins the league from round {from_round}; "
        f"{len(joined.catch_up)} catch-up game(s) to arrange by hand.",
    )
    return joined.membership


def _save_adjustments(request: HttpRequest, campaign: Campaign, formset: Any) -> None:
    for form in formset.deleted_forms:
        if form.instance.pk:
            services.adjustment_delete(adjustment=form.instance)
    for form in formset.forms:
        if form in formset.deleted_forms or not form.has_changed():
            continue
        data = form.cleaned_data
        if form.instance.pk is None:
            services.adjustment_create(
                player=data["player"],
                points=data["points"],
                reason=data["reason"],
                user=signed_in(request.user),
            )
        else:
            services.adjustment_update(
                adjustment=form.instance,
                points=data["points"],
                reason=data["reason"],
                player=data["player"],
            )
