"""Results said in the game's words: "alice won 3–1" rather than HOME / home_vp."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.models import Pairing, Winner


def away_name(pairing: Pairing) -> str:
    return pairing.away.player_name if pairing.away else "Bye"


def winner_name(pairing: Pairing) -> str:
    """Return who won a game, "Draw", "Bye" or "Not played yet" (never "Home")."""
    if pairing.is_bye:
        return "Bye"
    if pairing.home_no_show and pairing.away_no_show:
        return "Nobody turned up"
    names: dict[str, str] = {Winner.HOME: pairing.home.player_name, Winner.AWAY: away_name(pairing)}
    if pairing.winner in names:
        return names[pairing.winner]
    return "Draw" if pairing.winner == Winner.DRAW else "Not played yet"


def claim_sentence(pairing: Pairing, claim: Mapping[str, Any]) -> str:
    """Say one report of a game in a sentence: who won, the score, the figures lost."""
    home, away = pairing.home.player_name, away_name(pairing)
    if claim.get("home_no_show") and claim.get("away_no_show"):
        return "neither player turned up"
    if claim.get("home_no_show") or claim.get("away_no_show"):
        absent = home if claim.get("home_no_show") else away
        return f"{absent} did not turn up"
    winner = {Winner.HOME: home, Winner.AWAY: away}.get(claim.get("winner", ""))
    how = f"{winner} won" if winner else "a draw"
    if claim.get("major_victory"):
        how += " (major victory)"
    score = f"{claim.get('home_vp', 0)}–{claim.get('away_vp', 0)}"
    lost = f"{claim.get('home_figures_lost', 0)}–{claim.get('away_figures_lost', 0)}"
    return f"{how}, {score} in victory points, figures lost {lost}"


def reports(pairing: Pairing) -> list[tuple[str, str, str, dict[str, Any]]]:
    """Return both players' differing reports as (side, player, sentence, claim), home first.

    A disputed pairing holds the first report in its result fields and keeps the other
    player's in `disputed_claim` (with the side that made it)."""
    if not pairing.disputed or not pairing.disputed_claim:
        return []
    other_side = pairing.disputed_claim.get("side")
    other = {k: v for k, v in pairing.disputed_claim.items() if k != "side"}
    held = {name: getattr(pairing, name) for name in other}
    if other_side == "away":
        by_side = {"home": held, "away": other}
    else:
        by_side = {"home": other, "away": held}
    names = {"home": pairing.home.player_name, "away": away_name(pairing)}
    return [
        (s, names[s], claim_sentence(pairing, by_side[s]), by_side[s]) for s in ("home", "away")
    ]
