"""The league for players: my game this round, reporting its result (and confirming the
opponent's), and the organiser's page of disputed results to settle.

Results go through the league services (`league.services.results`): a result counts once
both players report it alike or an organiser confirms it; differing reports are a dispute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.models import Campaign
from campaigns.selectors import campaigns_visible_to
from common.form_fields import field_of
from common.users import Visitor, signed_in
from league.errors import LeagueConflict
from league.models import Pairing, PairingReport, Winner
from league.services import Claim, claim_from, claims_by_side, pairing_confirm, pairing_report_file
from league.services.results import AWAY, HOME, claim_of, side_of
from pages.invitations import managed_campaign

ME, THEM, DRAW = "me", "them", "draw"


def describe(claim: Claim | None, names: dict[str, str]) -> str:
    """Say a claimed result in words: "alice won, 12–4 VP" ("" when nothing was claimed)."""
    if claim is None:
        return ""
    score = f"{claim.home_vp}–{claim.away_vp} VP"
    if claim.home_no_show and claim.away_no_show:
        return "neither player turned up"
    if claim.winner == Winner.DRAW:
        return f"a draw, {score}"
    winner = names[HOME] if claim.winner == Winner.HOME else names[AWAY]
    return f"{winner} won, {score}"


@dataclass(frozen=True)
class MyGame:
    """The signed-in player's pairing, told from their side of the table."""

    pairing: Pairing
    side: str
    opponent: str
    mine: Claim | None
    theirs: Claim | None
    names: dict[str, str]

    @property
    def state(self) -> str:
        p = self.pairing
        if p.is_bye:
            return "bye"
        if p.confirmed_by_organiser:
            return "confirmed"
        if p.disputed:
            return "disputed"
        if self.mine is not None and self.theirs is not None:
            return "agreed"
        if self.theirs is not None:
            return "confirm"
        return "waiting" if self.mine is not None else "report"

    @property
    def my_words(self) -> str:
        return describe(self.mine, self.names)

    @property
    def their_words(self) -> str:
        return describe(self.theirs, self.names)

    @property
    def result_words(self) -> str:
        return describe(claim_of(self.pairing), self.names)

    @property
    def open(self) -> bool:
        """Whether the player can still report (not locked, not confirmed, not a bye)."""
        return self.state not in ("bye", "confirmed") and self.pairing.round.status == "OPEN"


def my_game(pairings: Sequence[Pairing], user: Visitor) -> MyGame | None:
    """Find the user's game among a round's pairings (already loaded with their players)."""
    if isinstance(user, AnonymousUser):
        return None  # a visitor who is not signed in plays no game
    for pairing in pairings:
        side = side_of(pairing, user)
        if side is None:
            continue
        names = {HOME: pairing.home.player_name, AWAY: ""}
        if pairing.away is not None:
            names[AWAY] = pairing.away.player_name
        claims = claims_by_side(pairing)
        other = AWAY if side == HOME else HOME
        return MyGame(pairing, side, names[other], claims[side], claims[other], names)
    return None


def my_open_games(campaign: Campaign, user: Visitor) -> tuple[MyGame, ...]:
    """The user's game in each open round of the campaign, oldest round first (1 query): with
    two rounds open at once, the round-2 game is as reachable as the round-1 one."""
    pairings = (
        Pairing.objects.filter(round__campaign_id=campaign.pk, round__status="OPEN")
        .filter(Q(home__user_id=user.pk) | Q(away__user_id=user.pk))
        .select_related("round__campaign", "home__user", "away__user", "battle")
        .order_by("round__number", "table", "pk")
    )
    games = (my_game([p], user) for p in pairings)
    return tuple(g for g in games if g is not None)


class ReportForm(forms.Form):
    """A result as one player tells it: who won, both scores, a link and a few lines."""

    result = forms.ChoiceField(label="Who won?", widget=forms.RadioSelect)
    my_vp = forms.IntegerField(label="Your victory points", min_value=0, initial=0)
    their_vp = forms.IntegerField(label="Their victory points", min_value=0, initial=0)
    link = forms.URLField(
        label="Battle link (optional)",
        required=False,
        max_length=500,
        assume_scheme="https",
        help_text="The battle's page in Muster, or photos or a write-up elsewhere.",
    )
    text = forms.CharField(
        label="Short report (optional)",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, game: MyGame, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        field_of(self, "result", forms.ChoiceField).choices = [
            (ME, "I won"),
            (THEM, f"{game.opponent} won"),
            (DRAW, "A draw"),
        ]

    def claim(self) -> Claim:
        """Turn the player's words into the league's result (home/away), or raise."""
        data = self.cleaned_data
        home = self.game.side == HOME
        winner = {
            ME: Winner.HOME if home else Winner.AWAY,
            THEM: Winner.AWAY if home else Winner.HOME,
            DRAW: Winner.DRAW,
        }[data["result"]]
        mine, theirs = data["my_vp"], data["their_vp"]
        return claim_from(
            {
                "winner": winner,
                "home_vp": mine if home else theirs,
                "away_vp": theirs if home else mine,
            }
        )


def initial_from(game: MyGame) -> dict[str, object]:
    """Fill the form with what the player said before, else with what the opponent said."""
    claim = game.mine or game.theirs
    if claim is None:
        return {}
    home = game.side == HOME
    mine_won = claim.winner == (Winner.HOME if home else Winner.AWAY)
    result = DRAW if claim.winner == Winner.DRAW else ME if mine_won else THEM
    return {
        "result": result,
        "my_vp": claim.home_vp if home else claim.away_vp,
        "their_vp": claim.away_vp if home else claim.home_vp,
    }


def _my_pairing(request: HttpRequest, pk: int) -> MyGame:
    visible = campaigns_visible_to(request.user).values("pk")
    pairing = get_object_or_404(
        Pairing.objects.filter(round__campaign__in=visible).select_related(
            "round__campaign", "home__user", "away__user", "battle"
        ),
        pk=pk,
    )
    game = my_game([pairing], request.user)
    if game is None:
        raise PermissionDenied("Only the two players of a game report its result.")
    return game


def my_report(game: MyGame) -> PairingReport | None:
    return game.pairing.reports.filter(side=game.side.upper()).first()


@login_required
def pairing_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Report (or confirm) the result of my game; errors come back beside their fields."""
    game = _my_pairing(request, pk)
    report = my_report(game)
    initial = {**initial_from(game), "link": getattr(report, "link", ""), "text": ""}
    if report is not None:
        initial["text"] = report.text
    form = ReportForm(request.POST or None, game=game, initial=initial)
    if request.method == "POST" and game.open and form.is_valid():
        try:
            claim = form.claim()
            pairing_report_file(
                pairing=game.pairing,
                user=signed_in(request.user),
                claim=claim,
                link=form.cleaned_data["link"],
                text=form.cleaned_data["text"],
            )
        except ValidationError as exc:
            _errors_to_form(form, exc)
        except LeagueConflict as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request, f"Your result against {game.opponent} in {game.pairing.round} is in."
            )
            return redirect(
                f"{reverse('campaign-page', args=[game.pairing.round.campaign_id])}"
                f"#game-{game.pairing.pk}"
            )
    status = 400 if form.errors else 200
    return render(
        request,
        "pages/league/report.html",
        {"game": game, "form": form, "campaign": game.pairing.round.campaign},
        status=status,
    )


def _errors_to_form(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's error beside the field the player filled in."""
    fields = {"winner": "result", "home_vp": "my_vp", "away_vp": "their_vp", "link": "link"}
    for name, errors in getattr(exc, "message_dict", {"__all__": exc.messages}).items():
        form.add_error(fields.get(name) if name in fields else None, errors)


# --- the organiser's disputes page ---------------------------------------------------------------


class SettleForm(forms.Form):
    """The organiser's own result for a game (in the pairing's home/away terms)."""

    winner = forms.ChoiceField(label="Result", widget=forms.RadioSelect)
    home_vp = forms.IntegerField(min_value=0, initial=0)
    away_vp = forms.IntegerField(min_value=0, initial=0)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, pairing: Pairing, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"p{pairing.pk}")
        kwargs.setdefault("initial", {"version": pairing.version})
        super().__init__(*args, **kwargs)
        home, away = pairing.home.player_name, pairing.away.player_name if pairing.away else ""
        field_of(self, "winner", forms.ChoiceField).choices = [
            (Winner.HOME, f"{home} won"),
            (Winner.AWAY, f"{away} won"),
            (Winner.DRAW, "A draw"),
        ]
        self.fields["home_vp"].label = f"{home}'s victory points"
        self.fields["away_vp"].label = f"{away}'s victory points"


@dataclass(frozen=True)
class Dispute:
    pairing: Pairing
    names: dict[str, str]
    home_words: str
    away_words: str
    reports: dict[str, PairingReport]
    form: SettleForm


def disputes_of(campaign: Campaign, bound: dict[int, SettleForm] | None = None) -> list[Dispute]:
    """Return the campaign's disputed games with both claims and notes (2 queries)."""
    reports = PairingReport.objects.order_by("side")
    pairings = (
        Pairing.objects.filter(round__campaign_id=campaign.pk, disputed=True)
        .select_related("round", "home__user", "away__user")
        .prefetch_related(Prefetch("reports", queryset=reports))
        .order_by("round__number", "table", "pk")
    )
    found = []
    for p in pairings:
        names = {HOME: p.home.player_name, AWAY: p.away.player_name if p.away else ""}
        claims = claims_by_side(p)
        form = (bound or {}).get(p.pk) or SettleForm(pairing=p)
        found.append(
            Dispute(
                p,
                names,
                describe(claims[HOME], names),
                describe(claims[AWAY], names),
                {r.side.lower(): r for r in p.reports.all()},
                form,
            )
        )
    return found


@login_required
def campaign_disputes(request: HttpRequest, pk: int) -> HttpResponse:
    """List the games whose players disagree, each with both reports and a way to settle."""
    campaign = managed_campaign(request, pk)
    return _disputes_page(request, campaign)


def _disputes_page(
    request: HttpRequest, campaign: Campaign, bound: dict[int, SettleForm] | None = None
) -> HttpResponse:
    context = {"campaign": campaign, "disputes": disputes_of(campaign, bound)}
    return render(request, "pages/league/disputes.html", context, status=400 if bound else 200)


@login_required
@require_POST
def pairing_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """Settle a disputed game: one player's report stands, or the organiser's own result."""
    pairing = get_object_or_404(
        Pairing.objects.select_related("round", "home__user", "away__user"), pk=pk
    )
    campaign = managed_campaign(request, pairing.round.campaign_id)
    back = reverse("campaign-disputes", args=[campaign.pk])
    stands = request.POST.get("stands")
    form = SettleForm(request.POST, pairing=pairing)
    try:
        if stands in (HOME, AWAY):
            claim, version = claims_by_side(pairing)[stands], _int(request.POST.get("version"))
            if claim is None:
                raise LeagueConflict("that player's report changed; look again")
        elif form.is_valid():
            claim = claim_from({k: form.cleaned_data[k] for k in ("winner", "home_vp", "away_vp")})
            version = form.cleaned_data["version"]
        else:
            return _disputes_page(request, campaign, {pairing.pk: form})
        pairing_confirm(
            pairing=pairing, user=signed_in(request.user), claim=claim, expected_version=version
        )
    except LeagueConflict as exc:
        messages.error(request, f"Not saved: {exc}.")
        return redirect(back)
    except ValidationError as exc:
        form.add_error(None, exc.messages)
        return _disputes_page(request, campaign, {pairing.pk: form})
    messages.success(request, f"Settled: {pairing}.")
    return redirect(back)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
