"""The season's settings in one place: scoring, tie-breakers, pairing method, the rounds and
their deadlines, late joiners and drop-outs, with the standings previewed as they would be
under the settings on the screen (nothing saved until *Save*).

The preview is a POST of the same form: htmx sends it on every change and swaps the table in;
without JavaScript the *Preview* button re-renders the page with the preview.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import BoundField
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.template.response import TemplateResponse

from campaigns.models import Campaign, Membership
from common.users import signed_in
from common.widgets import DateInput
from league import selectors, services
from league.core import TIE_BREAKERS, LeagueError, StandingRow
from league.forms import LeagueForm
from league.models import League, Round


class SeasonForm(LeagueForm):
    """The league settings plus the pairing method."""

    class Meta(LeagueForm.Meta):
        fields = (*LeagueForm.Meta.fields, "pairing_method", "show_rating", "seed_by_rating")
        widgets = {"season_start": DateInput(), "season_end": DateInput()}

    def league_changes(self) -> dict[str, object]:
        chosen = ("pairing_method", "show_rating", "seed_by_rating")
        return {**super().league_changes(), **{name: self.cleaned_data[name] for name in chosen}}


def _date_field(label: str) -> forms.DateField:
    return forms.DateField(required=False, label=label, widget=DateInput())


class ScheduleForm(forms.Form):
    """One deadline per round, one "withdrawn from round" per active player."""

    def __init__(self, *args: Any, rounds: list[Round], players: list[Membership], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.rounds, self.players = rounds, players
        for round_ in rounds:
            name = f"deadline_{round_.pk}"
            self.fields[name] = _date_field(f"Round {round_.number} deadline")
            self.initial[name] = round_.deadline
        for player in players:
            if player.withdrawn_from_round is None:
                self.fields[f"withdraw_{player.pk}"] = forms.IntegerField(
                    required=False,
                    min_value=1,
                    label=f"{player.player_name} withdraws from round",
                )

    def round_fields(self) -> list[tuple[Round, BoundField]]:
        return [(r, self[f"deadline_{r.pk}"]) for r in self.rounds]

    def player_fields(self) -> list[tuple[Membership, BoundField | None]]:
        return [
            (p, self[f"withdraw_{p.pk}"] if f"withdraw_{p.pk}" in self.fields else None)
            for p in self.players
        ]

    def changes(self) -> tuple[dict[int, datetime.date | None], dict[int, int]]:
        deadlines = {
            r.pk: self.cleaned_data[f"deadline_{r.pk}"]
            for r in self.rounds
            if f"deadline_{r.pk}" in self.changed_data
        }
        withdrawals = {
            p.pk: self.cleaned_data[f"withdraw_{p.pk}"]
            for p in self.players
            if self.cleaned_data.get(f"withdraw_{p.pk}")
        }
        return deadlines, withdrawals


def _forms(campaign: Campaign, data: QueryDict | None) -> tuple[SeasonForm, ScheduleForm]:
    league = selectors.league_of(campaign)
    rounds = list(Round.objects.filter(campaign_id=campaign.pk).order_by("number"))
    players = list(selectors.league_players(campaign))
    return (
        SeasonForm(data, instance=league, prefix="league"),
        ScheduleForm(data, rounds=rounds, players=players, prefix="schedule"),
    )


def preview_rows(campaign: Campaign, league: League) -> tuple[list[tuple[StandingRow, str]], str]:
    """Return the standings under `league`'s (possibly unsaved) settings, or why not."""
    try:
        standings = selectors.league_standings(campaign, league)
    except LeagueError as exc:
        return [], str(exc)
    return [(row, standings.names[row.player]) for row in standings.rows], ""


def _preview_context(campaign: Campaign, form: SeasonForm) -> dict[str, object]:
    league = form.instance if form.is_valid() else selectors.league_of(campaign)
    rows, problem = preview_rows(campaign, league)
    if form.is_bound and not form.is_valid():
        problem = "The settings on the screen have errors: the preview shows the saved ones."
    return {
        "standings_rows": rows,
        "preview_problem": problem,
        "separation_labels": {"points": "points", **TIE_BREAKERS},
        "previewing": form.is_bound,
    }


def season_view(
    request: HttpRequest, campaign: Campaign, context: dict[str, object]
) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    season, schedule = _forms(campaign, data)
    if data is not None and "_preview" not in data and _save(request, campaign, season, schedule):
        return HttpResponseRedirect(request.path)
    context.update(
        {
            "title": f"{campaign}: season settings",
            "campaign": campaign,
            "season_form": season,
            "schedule_form": schedule,
            **_preview_context(campaign, season),
        }
    )
    return TemplateResponse(request, "admin/campaigns/campaign/season.html", context)


def preview_view(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Return the standings table alone under the posted, unsaved settings (for htmx)."""
    season, _ = _forms(campaign, request.POST)
    context = {"campaign": campaign, **_preview_context(campaign, season)}
    return TemplateResponse(request, "admin/campaigns/campaign/_preview.html", context)


def _save(
    request: HttpRequest, campaign: Campaign, season: SeasonForm, schedule: ScheduleForm
) -> bool:
    if not (season.is_valid() and schedule.is_valid()):
        messages.error(request, "Nothing was saved: correct the fields marked below.")
        return False
    deadlines, withdrawals = schedule.changes()
    changes = services.SeasonChanges(
        league=season.league_changes() if season.has_changed() else {},
        deadlines=deadlines,
        withdrawals=withdrawals,
    )
    try:
        forfeited = services.season_update(
            campaign=campaign, user=signed_in(request.user), changes=changes
        )
    except ValidationError as exc:
        season.add_error(None, "; ".join(exc.messages))
        messages.error(request, "Nothing was saved: correct the fields marked below.")
        return False
    note = f"; {forfeited} game(s) forfeited by drop-outs" if forfeited else ""
    messages.success(request, f"{campaign}: season settings saved{note}.")
    return True
