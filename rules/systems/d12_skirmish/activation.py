"""Initiative and alternate moves: each turn both sides roll a d12 and then take turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import zip_longest
from typing import Any

from rules.activation import ActivationMethod, Draw, State
from rules.dice import D12, Dice
from rules.errors import ValidationError


def sides_of(units: Sequence[str]) -> list[list[str]]:
    """Group refs written `side:name` by side, sides in order of first appearance."""
    sides: dict[str, list[str]] = {}
    for ref in units:
        side, sep, name = ref.partition(":")
        if not sep or not name:
            raise ValidationError({"units": f"write each unit as side:name, not {ref!r}"})
        sides.setdefault(side, []).append(ref)
    if len(sides) != 2:
        raise ValidationError({"units": "alternate moves need exactly two sides"})
    return list(sides.values())


def roll_initiative(dice: Dice, turn: int) -> tuple[int, list[list[int]]]:
    """Both sides roll a d12 until one is higher; return the winner and every pair rolled."""
    rolls: list[list[int]] = []
    while True:
        pair = [dice.roll(D12, f"turn {turn} initiative side {s + 1}") for s in (0, 1)]
        rolls.append(pair)
        if pair[0] != pair[1]:
            return (0 if pair[0] > pair[1] else 1), rolls


def _turn_order(sides: list[list[str]], first: int) -> list[str]:
    # The winner chooses; Muster assumes the winner moves first (the usual choice).
    ordered = (sides[first], sides[1 - first])
    return [ref for pair in zip_longest(*ordered) for ref in pair if ref is not None]


def _new_turn(sides: list[list[str]], turn: int, dice: Dice) -> State:
    winner, rolls = roll_initiative(dice, turn)
    return {
        "sides": sides,
        "turn": turn,
        "initiative": winner,
        "initiative_rolls": rolls,
        "order": _turn_order(sides, winner),
        "next": 0,
    }


def start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    return _new_turn(sides_of(units), 1, dice)


def draw(state: State, dice: Dice) -> Draw:
    if state["next"] >= len(state["order"]):
        state = _new_turn(state["sides"], state["turn"] + 1, dice)
    ref = state["order"][state["next"]]
    result = {"turn": state["turn"], "unit": ref, "initiative_side": state["initiative"] + 1}
    return Draw({**state, "next": state["next"] + 1}, result)


ALTERNATE = ActivationMethod(
    "initiative_alternate",
    "d12 initiative, then alternate units",
    start,
    draw,
    "Each turn both sides roll a d12 (ties roll again); the winner moves first and the sides "
    "alternate a unit or individual at a time.",
)

#: The system's activation methods by key (`RuleSystem.activation`).
METHODS = {"initiative_alternate": ALTERNATE}
