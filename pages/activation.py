"""The lines under an activation's sentence: the dice each unit rolled, ties, counters.

The sentence itself ("Turn 1: Red band 1 (side 1) activates") comes from the rules engine;
these lines show how dice-and-markers or dice-and-counters got there, by unit name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def unit_name(ref: object) -> str:
    """Return a unit reference ("1:Red band 1") as its name ("Red band 1")."""
    side, sep, name = str(ref).partition(":")
    return name if sep and side.isdigit() else str(ref)


def _scores(scores: Mapping[str, object]) -> str:
    return " · ".join(f"{unit_name(ref)} {value}" for ref, value in scores.items())


def activation_lines(result: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the dice rolled for an activation (each re-roll of a tie apart) and counters."""
    rolls = list(result.get("rolls") or [])
    lines = [f"Dice: {_scores(rolls[0])}"] if rolls else []
    lines += [f"Tied, rolled again: {_scores(again)}" for again in rolls[1:]]
    if result.get("totals"):
        lines.append(f"Counters so far: {_scores(result['totals'])}")
    if result.get("may_hold"):
        lines.append("It may hold its card")
    return tuple(lines)
