"""How an activation draw reads at the table: one headline and a few plain lines.

Every method of every system returns its own JSON result (a card, a unit, units with their
dice, a phase, the side with the initiative); this turns whichever keys it has into words, so
the table never shows a key or a `side:unit` reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FACES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
JOKERS = {"RJ": "the red Joker", "BJ": "the black Joker"}


def unit_name(ref: Any) -> str:
    """Return a unit reference ("1:Red band 1") as its name ("Red band 1")."""
    side, sep, name = str(ref).partition(":")
    return name if sep and side.isdigit() else str(ref)


def units_text(refs: Iterable[Any]) -> str:
    return ", ".join(unit_name(r) for r in refs)


def card_text(card: str) -> str:
    """Return a card code ("10S", "QH", "RJ") as it is called ("the 10 of spades")."""
    if card in JOKERS:
        return JOKERS[card]
    rank, suit = card[:-1], card[-1:]
    if suit not in SUITS:
        return card
    return f"the {FACES.get(rank, rank)} of {SUITS[suit]}"


def words(key: Any) -> str:
    return str(key).replace("_", " ")


def _headline(result: Mapping[str, Any]) -> str:
    turn = result.get("turn")
    if result.get("turn_ends"):
        return f"Reshuffle card: turn {turn} ends — shuffle for the next turn"
    if "phase" in result:
        return f"Turn {turn}: player {result.get('player', '')}, {words(result['phase'])} phase"
    if "may_act" in result:
        return f"Turn {turn}: side {result.get('side')} has the initiative"
    if result.get("card"):
        return f"{unit_name(result.get('unit'))} acts on {card_text(str(result['card']))}"
    if result.get("unit"):
        return f"{unit_name(result['unit'])} acts"
    if result.get("units"):
        verb = "acts" if len(result["units"]) == 1 else "act"
        return f"{units_text(result['units'])} {verb}"
    return f"Activation started: turn {turn}" if turn is not None else "Activation started"


def _scores(scores: Mapping[str, Any]) -> str:
    return " · ".join(f"{unit_name(ref)} {value}" for ref, value in scores.items())


def _dice_lines(result: Mapping[str, Any]) -> list[str]:
    rolls = list(result.get("rolls") or [])
    lines = [f"Dice: {_scores(rolls[0])}"] if rolls else []
    lines += [f"Tied, rolled again: {_scores(again)}" for again in rolls[1:]]
    if result.get("totals"):
        lines.append(f"Counters so far: {_scores(result['totals'])}")
    return lines


def _joker_lines(result: Mapping[str, Any]) -> list[str]:
    if not result.get("joker"):
        return []
    lines = [f"Joker: act at any time this turn, +{result.get('bonus', 0)}"]
    event = result.get("event") or {}
    if event:
        what = words(event.get("fortune", ""))
        if event.get("freak_event"):
            what = f"{what} — {words(event['freak_event'])}"
        lines.append(f"Event (2d6 = {event.get('fortune_roll')}): {what}")
    return lines


def _initiative_lines(result: Mapping[str, Any]) -> list[str]:
    lines = []
    if "may_act" in result:
        lines.append(f"May act: {units_text(result['may_act']) or 'nobody left'}")
        if result.get("current"):
            lines.append(f"Acting now: {unit_name(result['current'])}")
        if result.get("pool"):
            lines.append(f"Initiative dice so far: {result['pool']}")
        if result.get("side_ones"):
            lines.append(f"Ones rolled by this side: {result['side_ones']}")
    if result.get("initiative_side"):
        lines.append(f"Side {result['initiative_side']} won the initiative")
    return lines


def activation_text(result: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """Return (headline, lines) for one activation event's result."""
    lines = _dice_lines(result) + _joker_lines(result) + _initiative_lines(result)
    if "phase" in result and result.get("units"):
        lines.append(f"Units: {units_text(result['units'])}")
    if result.get("may_hold"):
        lines.append("It may hold its card")
    if result.get("discarded_held"):
        lines.append("The held card is discarded")
    return _headline(result), tuple(lines)
