"""The organiser's dashboard: what needs them in each campaign they run, each with its button.

The page is a read (`organiser_dashboard`); each button posts one action here, which makes
one service call and comes back to the dashboard with a message saying what happened.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from battles.models import Battle
from campaigns.models import Campaign
from common.users import signed_in
from league import selectors, services
from league.core import LeagueError
from league.dashboard import organiser_dashboard
from league.desk.words import away_name, reports
from league.errors import LeagueConflict
from league.models import Pairing
from league.services.battles import battle_requeue_for_league
from league.services.results import Claim


def dashboard_view(request: HttpRequest, context: dict[str, object]) -> HttpResponse:
    desks = organiser_dashboard(request.user)
    for desk in desks:
        for pairing in desk.disputed:
            pairing.claims_in_words = reports(pairing)  # type: ignore[attr-defined]  # for the template
    context.update({"title": "Your seasons", "desks": desks})
    return TemplateResponse(request, "admin/campaigns/dashboard.html", context)


def act_view(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """Run one dashboard button for a campaign the user runs, then go back to the dashboard."""
    back = HttpResponseRedirect(reverse("admin:campaigns_dashboard"))
    action = ACTIONS.get(request.POST.get("action", ""))
    if request.method != "POST" or action is None:
        return back
    try:
        done = action(request, campaign)
    except (ValidationError, LeagueConflict, LeagueError) as exc:
        text = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        messages.error(request, f"{campaign}: {text}")
    else:
        messages.success(request, f"{campaign}: {done}")
    return back


def _pairing(request: HttpRequest, campaign: Campaign) -> Pairing:
    found = Pairing.objects.filter(
        pk=request.POST.get("pairing") or 0, round__campaign_id=campaign.pk
    ).first()
    if found is None:
        raise Http404("no such game in this campaign")
    return found


def _pair(request: HttpRequest, campaign: Campaign) -> str:
    return f"round {services.round_next_pair(campaign=campaign)} paired"


def _lock(request: HttpRequest, campaign: Campaign) -> str:
    round_ = selectors.current_round(campaign)
    if round_ is None:
        raise ValidationError("the league has no rounds yet")
    return f"round {services.round_lock(round_=round_).number} locked"


def _resolve(request: HttpRequest, campaign: Campaign) -> str:
    """Settle a dispute by accepting one player's report (the side named in the button)."""
    pairing = _pairing(request, campaign)
    side = request.POST.get("side", "")
    claim = next((c for s, _, _, c in reports(pairing) if s == side), None)
    if claim is None:
        raise ValidationError("this game is no longer disputed: reload the dashboard")
    services.pairing_confirm(
        pairing=pairing,
        user=signed_in(request.user),
        claim=Claim(**claim),
        expected_version=_version(request),
    )
    player = pairing.home.player_name if side == "home" else away_name(pairing)
    return f"table {pairing.table} settled with {player}'s report"


def _version(request: HttpRequest) -> int:
    """Return the version the button was drawn with (-1, always stale, if it is garbled)."""
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() else -1


def _confirm(request: HttpRequest, campaign: Campaign) -> str:
    pairing = _pairing(request, campaign)
    services.pairing_confirm(pairing=pairing, user=signed_in(request.user))
    return f"table {pairing.table}: the reported result is confirmed"


def _auto_resolve(request: HttpRequest, campaign: Campaign) -> str:
    pairing = services.pairing_auto_resolve(
        pairing=_pairing(request, campaign), user=signed_in(request.user)
    )
    return f"table {pairing.table} auto-resolved by the abstract simulation"


def _requeue(request: HttpRequest, campaign: Campaign) -> str:
    battle = Battle.objects.filter(
        pk=request.POST.get("battle") or 0, campaign_id=campaign.pk
    ).first()
    if battle is None:
        raise Http404("no such battle in this campaign")
    battle_requeue_for_league(battle)
    return f"{battle}: post-battle rolls queued again"


ACTIONS: dict[str, Callable[[HttpRequest, Campaign], str]] = {
    "pair": _pair,
    "lock": _lock,
    "resolve": _resolve,
    "confirm": _confirm,
    "auto_resolve": _auto_resolve,
    "requeue": _requeue,
}
