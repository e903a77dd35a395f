"""The turn sequence: player A then player D, each taking Shoot, Move, Melee and Rally."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.activation import ActivationMethod, Draw, State
from rules.dice import Dice
from rules.errors import ValidationError
from rules.systems.game_the_90.tables import PHASES

PLAYERS = ("A", "D")


def sides_of(units: Sequence[str]) -> list[list[str]]:
    """Group unit refs written `side:name` by side, sides in order of first appearance."""
    sides: dict[str, list[str]] = {}
    for ref in units:
        side, sep, name = ref.partition(":")
        if not sep or not name:
            raise ValidationError({"units": f"write each unit as side:name, not {ref!r}"})
        sides.setdefault(side, []).append(ref)
    if len(sides) != len(PLAYERS):
        raise ValidationError({"units": "the turn sequence needs exactly two sides"})
    return list(sides.values())


def start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    # The attacker (the first side named) is player A; no dice decide it in this text.
    return {"sides": sides_of(units), "turn": 1, "player": 0, "phase": 0}


def draw(state: State, dice: Dice) -> Draw:
    result = {
        "turn": state["turn"],
        "player": PLAYERS[state["player"]],
        "phase": PHASES[state["phase"]],
        "units": state["sides"][state["player"]],
    }
    phase, player, turn = state["phase"] + 1, state["player"], state["turn"]
    if phase == len(PHASES):
        phase, player = 0, player + 1
    if player == len(PLAYERS):
        player, turn = 0, turn + 1
    return Draw({**state, "turn": turn, "player": player, "phase": phase}, result)


TURN_SEQUENCE = ActivationMethod(
    "turn_sequence",
    "Player turns: Shoot, Move, Melee, Rally",
    start,
    draw,
    "Player A (the attacker) takes the four phases with all units, then player D.",
)

#: The system's activation methods by key (`RuleSystem.activation`).
METHODS = {"turn_sequence": TURN_SEQUENCE}
