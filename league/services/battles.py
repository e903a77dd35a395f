"""Battles that settle league games: a battle's result read as the pairing's claim, a battle
linked to its pairing, a no-show fought by the abstract simulation, a stuck battle queued
again from the organiser's desk.

The league sits above the battles app (tests/test_import_graph.py), so it calls the battle
services directly. The pairing's own writes (locks, versions, report or confirm) are
`league.services.results`.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.errors import BattleConflict
from battles.models import Battle, BattleFigure, SideResult
from battles.services.consent import battle_finish
from battles.services.pipeline import battle_requeue
from battles.services.setup import SideChoice, battle_start
from battles.services.simulate import battle_auto_resolve
from campaigns.models import Membership
from common.users import User
from league.errors import LeagueConflict
from league.models import Pairing, Winner
from league.services.results import (
    Claim,
    _locked,
    is_organiser_of,
    pairing_confirm,
    pairing_report,
)
from rosters.models import Force

#: Battle states that count as a figure lost (see battles.services.table.KILLED).
LOST_STATUSES = frozenset({"dead", "out"})


def claim_from_battle(pairing: Pairing, battle: Battle) -> Claim:
    """Read a pairing's result off a battle between the two players' forces."""
    if battle.campaign_id != pairing.round.campaign_id:
        raise ValidationError({"battle": ["the battle was not fought in this campaign"]})
    sides = {s.force.owner_id: s for s in battle.sides.select_related("force")}
    home_player = pairing.home.user_id
    away_player = pairing.away.user_id if pairing.away else None  # a bye has no away player
    if away_player is None or len(sides) != 2 or set(sides) != {home_player, away_player}:
        raise ValidationError({"battle": ["the battle's two sides are not this game's players"]})
    home, away = sides[home_player], sides[away_player]
    if SideResult.UNDECIDED in (home.result, away.result):
        raise ValidationError({"battle": ["the battle has no result yet"]})
    lost = _figures_lost(battle)
    winners: dict[str, Winner] = {SideResult.WIN: Winner.HOME, SideResult.LOSS: Winner.AWAY}
    winner = winners.get(home.result, Winner.DRAW)
    return Claim(
        winner,
        max(home.victory_points, 0),
        max(away.victory_points, 0),
        lost.get(home.pk, 0),
        lost.get(away.pk, 0),
    )


def _figures_lost(battle: Battle) -> dict[int, int]:
    lost: dict[int, int] = {}
    for figure in BattleFigure.objects.filter(battle=battle).only("side_id", "state"):
        if (figure.state or {}).get("status") in LOST_STATUSES:
            lost[figure.side_id] = lost.get(figure.side_id, 0) + 1
    return lost


def pairing_fight(pairing: Pairing, user: User) -> Battle:
    """Fight a pairing's game by the abstract simulation (each player's first force in the
    campaign takes the field) and return the battle, finished."""
    if pairing.away is None:
        raise ValidationError({"pairing": ["a bye has no game to fight"]})
    forces = [_force_of(pairing, member) for member in (pairing.home, pairing.away)]
    battle = battle_start(
        sides=[SideChoice(force) for force in forces],
        campaign=pairing.round.campaign,
        scenario=f"Round {pairing.round.number}, table {pairing.table} (auto-resolved)",
        user=user,
    )
    # Finished at once: nobody is at the table to review it, and a battle left "in progress"
    # would wait forever (and never get its post-battle rolls).
    return battle_finish(battle=battle_auto_resolve(battle=battle, user=user), user=user)


def _force_of(pairing: Pairing, member: Membership) -> Force:
    force = member.user.forces.filter(campaign_id=pairing.round.campaign_id).order_by("pk").first()
    if force is None:
        raise ValidationError(
            {
                "pairing": [
                    f"{member.player_name} has no force in this campaign to auto-resolve with"
                ]
            }
        )
    return force


def battle_requeue_for_league(battle: Battle) -> None:
    """Queue a stuck battle's post-battle rolls again; a battle in no state for it is the
    organiser desk's LeagueConflict."""
    try:
        battle_requeue(battle=battle)
    except BattleConflict as exc:
        raise LeagueConflict(str(exc)) from None


# --- battles ------------------------------------------------------------------------------------


@transaction.atomic
def pairing_link_battle(
    *, pairing: Pairing, battle: Battle, user: User, expected_version: int | None = None
) -> Pairing:
    """Settle a pairing from a battle (a battles.Battle): an organiser's link confirms, a
    player's reports."""
    pairing = _locked(pairing)
    if Pairing.objects.filter(battle=battle).exclude(pk=pairing.pk).exists():
        raise ValidationError({"battle": ["the battle already settles another pairing"]})
    claim = claim_from_battle(pairing, battle)
    Pairing.objects.filter(pk=pairing.pk).update(battle=battle)
    if is_organiser_of(pairing, user):
        return pairing_confirm(
            pairing=pairing, user=user, claim=claim, expected_version=expected_version
        )
    return pairing_report(pairing=pairing, user=user, claim=claim)


@transaction.atomic
def pairing_auto_resolve(*, pairing: Pairing, user: User) -> Pairing:
    """Fight a game nobody could play by the rules engine's abstract simulation, then settle
    the pairing with it (each player's first force in the campaign takes the field)."""
    pairing = _locked(pairing)
    if not is_organiser_of(pairing, user):
        raise ValidationError({"pairing": ["only the campaign's organisers auto-resolve games"]})
    if pairing.is_bye:
        raise ValidationError({"pairing": ["a bye has no game to fight"]})
    battle = pairing_fight(pairing, user)
    return pairing_link_battle(pairing=pairing, battle=battle, user=user)
