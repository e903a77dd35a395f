"""Rounds in the admin: a round's pairings inline (players of the round's campaign only),
its results sheet and printable sheet, locking. Writes go through the league services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path

from campaigns.admin import CampaignScoped, report, untracked
from campaigns.models import Membership
from common.django_bases import ModelAdmin, TabularInline
from common.users import signed_in
from league import selectors, services
from league.admin.history import (
    KeepsHistory,
    PairingFormSet,
    round_kept_because,
)
from league.desk import results as desk_results
from league.desk.results import forces_by_player
from league.errors import LeagueConflict
from league.forms import PLACE_FIELDS, RESULT_FIELDS, PairingForm
from league.models import Pairing, Round

#: A pairing as one row of the round's inline: its place, its result, its state.
PAIRING_ROW: tuple[str, ...] = (
    *PLACE_FIELDS,
    *RESULT_FIELDS,
    "battle",
    "state",
    "version",
)


class PairingInline(CampaignScoped, TabularInline):
    plain_selects = (*CampaignScoped.plain_selects, Round)
    model = Pairing
    form = PairingForm
    formset = PairingFormSet
    campaign_path = "round__campaign"
    extra = 0
    fields = PAIRING_ROW
    readonly_fields = ["state"]
    ordering = ["table", "pk"]

    def get_formset(self, request: HttpRequest, obj: Round | None = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None:
            scope_pairing_choices(formset.form.base_fields, obj)
        return formset

    @admin.display(description="state")
    def state(self, obj: Pairing) -> str:
        return pairing_state(obj)


def pairing_state(pairing: Pairing) -> str:
    """Say where a pairing's result stands, in the words the organiser acts on."""
    if pairing.is_bye:
        return "bye"
    if pairing.confirmed_by_organiser:
        return "confirmed"
    if pairing.disputed:
        return f"disputed: {pairing.disputed_claim.get('side', '?')} says otherwise"
    if pairing.reported_by_home and pairing.reported_by_away:
        return "agreed by both players"
    if pairing.reported_by_home or pairing.reported_by_away:
        return "reported by " + ("home" if pairing.reported_by_home else "away")
    return "not played yet"


def scope_pairing_choices(fields: dict[str, Any], round_: Round) -> None:
    """Offer only the round's campaign's players ("alice — Gridley's Own") and battles: a
    player of another campaign is then an invalid choice, a form error, never a 500."""
    players = selectors.league_players(round_.campaign)
    forces = forces_by_player(round_)
    for name in ("home", "away"):
        if name in fields:
            fields[name].queryset = players
            fields[name].label_from_instance = lambda m: player_with_forces(m, forces)
    if "battle" in fields:
        fields["battle"].queryset = fields["battle"].queryset.filter(campaign_id=round_.campaign_id)


def player_with_forces(member: Membership, forces: dict[int, str]) -> str:
    return f"{member.player_name} — {forces.get(member.user_id) or 'no force yet'}"


@admin.register(Round)
class RoundAdmin(KeepsHistory, CampaignScoped, ModelAdmin):
    plain_selects = (*CampaignScoped.plain_selects, Round)
    list_display = ["__str__", "campaign", "kind", "status", "deadline", "games", "settled_games"]
    list_filter = [
        "status",
        "kind",
        ("campaign", admin.RelatedOnlyFieldListFilter),
        ("campaign__club", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["campaign"]
    search_fields = ["campaign__name", "number"]
    inlines = [PairingInline]
    actions = ["lock_rounds"]
    change_form_template = "admin/league/round/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        settled = (
            Q(pairings__confirmed_by_organiser=True)
            | Q(pairings__away__isnull=True)
            | Q(
                pairings__reported_by_home=True,
                pairings__reported_by_away=True,
                pairings__disputed=False,
            )
        )
        rounds: QuerySet[Round] = super().get_queryset(request)
        return rounds.annotate(
            game_count=Count("pairings", distinct=True),
            settled_count=Count("pairings", filter=settled, distinct=True),
        )

    def kept_because(self, obj: Round) -> str:
        return round_kept_because(obj)

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        services.round_delete(round_=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for round_ in queryset:
            services.round_delete(round_=round_)

    @admin.display(description="pairings", ordering="game_count")
    def games(self, obj: Round) -> int:
        return int(obj.game_count)  # type: ignore[attr-defined]  # annotated by get_queryset

    @admin.display(description="settled")
    def settled_games(self, obj: Round) -> int:
        return int(obj.settled_count)  # type: ignore[attr-defined]  # annotated by get_queryset

    def get_readonly_fields(self, request: HttpRequest, obj: Round | None = None) -> list[str]:
        fixed = ["campaign", "number", "kind"] if obj else []
        return [*fixed, "status", "locked_at"]

    def get_inlines(
        self, request: HttpRequest, obj: Round | None
    ) -> list[type[InlineModelAdmin[Any, Any]]]:
        # Its players are the campaign's: pair them once the round (and so its campaign) exists.
        return self.inlines if obj is not None else []

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        round_ = form.instance
        untracked(formset)
        for inline_form in formset.deleted_forms:
            if inline_form.instance.pk:
                _delete_pairing(request, round_, inline_form.instance)
        added = False
        for inline_form in formset.forms:
            if inline_form not in formset.deleted_forms and inline_form.has_changed():
                new = inline_form.instance.pk is None
                added |= save_pairing(request, round_, inline_form) and new
        if added:  # paired by hand: the players and the hooks hear of it as of any pairing
            services.round_announce(round_=round_)
        for warning in services.round_check(round_=round_):
            messages.warning(request, warning.message)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:round_id>/results/",
                view(self.results_view),
                name="league_round_results",
            ),
            path("<int:round_id>/sheet/", view(self.sheet_view), name="league_round_sheet"),
            *super().get_urls(),
        ]

    def _run(self, request: HttpRequest, round_id: int) -> Round:
        round_: Round = get_object_or_404(
            self.get_queryset(request).select_related("campaign"), pk=round_id
        )
        if not self.has_change_permission(request, round_):
            raise PermissionDenied
        return round_

    def results_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        context = {**self.admin_site.each_context(request), "opts": self.model._meta}
        return desk_results.results_view(request, self._run(request, round_id), context)

    def sheet_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        return desk_results.sheet_view(request, self._run(request, round_id))

    @admin.action(description="Lock selected rounds", permissions=["change"])
    def lock_rounds(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for round_ in queryset:
            try:
                services.round_lock(round_=round_)
            except (ValidationError, LeagueConflict) as exc:
                report(request, exc)
            else:
                messages.success(request, f"{round_.campaign}: round {round_.number} locked")


def _delete_pairing(request: HttpRequest, round_: Round, pairing: Pairing) -> None:
    try:
        services.pairing_delete(pairing=pairing)
    except ValidationError as exc:
        messages.error(request, f"table {pairing.table}: {'; '.join(exc.messages)}")


def save_pairing(request: HttpRequest, round_: Round, form: PairingForm) -> bool:
    """Save a pairing's place directly; a result or battle goes through the result services.
    Return whether it was saved (a refusal is shown as an error message)."""
    try:
        pairing = _save_place(round_, form)
        if "battle" in form.changed_data and form.cleaned_data.get("battle"):
            services.pairing_link_battle(
                pairing=pairing,
                battle=form.cleaned_data["battle"],
                user=signed_in(request.user),
                expected_version=form.seen_version(),
            )
        elif form.result_changed():
            services.pairing_confirm(
                pairing=pairing,
                user=signed_in(request.user),
                claim=services.claim_from(form.result_data()),
                expected_version=form.seen_version(),
            )
    except (ValidationError, LeagueConflict) as exc:
        messages.error(
            request,
            f"table {form.instance.table}: "
            + ("; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)),
        )
        return False
    return True


def _save_place(round_: Round, form: PairingForm) -> Pairing:
    moved = [n for n in PLACE_FIELDS if n in form.changed_data]
    if form.instance.pk is not None and not moved:
        return Pairing.objects.get(pk=form.instance.pk)
    data = form.cleaned_data
    return services.pairing_place(
        round_=round_,
        pairing=form.instance if form.instance.pk else None,
        table=data["table"],
        home=data["home"],
        away=data.get("away"),
    )
