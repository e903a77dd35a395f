"""Escarmouche's initiative: a side acts figure by figure until a 1 ends it.

State (plain JSON): `sides` (side -> figures), `side` (the side acting), `turn`, `acted`
(figures that have had their go this turn), `current` (the figure acting, or None), `pool`
(its active dice so far), `side_ones` (1s that have ended a figure's turn this side-turn),
`side_over`, `reserved` (figures holding a reserved die) and `removed`.

The text does not say who moves first: each side rolls a d6, the higher starts, ties roll again.
A figure once left cannot be returned to; one that keeps the initiative may act again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.activation import ActivationMethod, Draw, State
from rules.dice import D6, Dice
from rules.errors import ValidationError
from rules.systems.escarmouche.pool import FIGURE_ENDS, SIDE_ENDS

MOVE = "move"
MAX_ROLL_OFFS = 100


def _sides(units: Sequence[str]) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {}
    for unit in units:
        side, sep, figure = unit.partition(":")
        if not sep or not side or not figure:
            raise ValidationError({"units": f"name each figure as side:figure, not {unit!r}"})
        sides.setdefault(side, []).append(unit)
    if len(sides) != 2:
        raise ValidationError({"units": f"two sides are needed, not {len(sides)}"})
    return sides


def _roll_off(names: list[str], dice: Dice) -> str:
    # The first side's die, then the second's: labelled once, not by a generator every round.
    one, other = (f"initiative: {name}" for name in names)
    for _ in range(MAX_ROLL_OFFS):
        first, second = dice.roll(D6, one), dice.roll(D6, other)
        if first != second:
            return names[0] if first > second else names[1]
    return names[0]


def start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    """Split `side:figure` names into two sides and roll off for the first turn."""
    sides = _sides(units)
    first = _roll_off(list(sides), dice)
    return {
        "sides": sides,
        "side": first,
        "turn": 1,
        "acted": [],
        "current": None,
        "pool": 0,
        "side_ones": 0,
        "side_over": False,
        "reserved": [],
        "removed": [],
    }


def may_act(state: State) -> list[str]:
    """Return the figures of the acting side that may still start acting this turn."""
    gone = {*state["acted"], *state["removed"], *state["reserved"]}
    return [f for f in state["sides"][state["side"]] if f not in gone]


def _may_begin(state: State, figure: str) -> bool:
    """Whether `figure` is in `may_act(state)`, asked without building that list (every go)."""
    return (
        figure in state["sides"][state["side"]]
        and figure not in state["acted"]
        and figure not in state["removed"]
        and figure not in state["reserved"]
    )


def _next_side(state: State) -> State:
    other = next(side for side in state["sides"] if side != state["side"])
    # A reserved die is spent or lost once its holder's side acts again.
    held = [f for f in state["reserved"] if not f.startswith(f"{other}:")]
    return {
        **state,
        "side": other,
        "turn": state["turn"] + 1,
        "acted": [],
        "current": None,
        "pool": 0,
        "side_ones": 0,
        "side_over": False,
        "reserved": held,
    }


def draw(state: State, dice: Dice) -> Draw:
    """Say who may act now, passing the turn when the side is done or has lost it."""
    waiting = may_act(state)
    if state["current"] is None and (state["side_over"] or not waiting):
        state = _next_side(state)
        waiting = may_act(state)
    result = {
        "side": state["side"],
        "turn": state["turn"],
        "current": state["current"],
        "may_act": waiting,
        "pool": state["pool"],
        "side_ones": state["side_ones"],
    }
    return Draw(state, result)


def begin_figure(state: State, figure: str) -> State:
    """Start acting with `figure`; the figure acting before it is done for the turn."""
    if not _may_begin(state, figure):
        raise ValidationError({"figure": f"{figure} cannot start acting now"})
    return {**state, "current": figure, "acted": [*state["acted"], figure], "pool": 0}


def after_action(state: State, action: str, result: str) -> State:
    """Record an action's initiative result: the pool grows, unless a 1 ends the go."""
    pool = state["pool"] + (0 if action == MOVE else 1)
    if result == SIDE_ENDS:
        return {**state, "current": None, "pool": 0, "side_over": True}
    if result == FIGURE_ENDS:
        return {**state, "current": None, "pool": 0, "side_ones": state["side_ones"] + 1}
    return {**state, "pool": pool}


def end_figure(state: State, *, reserve: bool = False) -> State:
    """End the current figure's go voluntarily, optionally keeping a reserved die."""
    held = [*state["reserved"], state["current"]] if reserve and state["current"] else []
    return {**state, "current": None, "pool": 0, "reserved": held or state["reserved"]}


def remove(state: State, figure: str) -> State:
    """Take a figure out of the battle."""
    current = None if state["current"] == figure else state["current"]
    return {
        **state,
        "removed": [*state["removed"], figure],
        "current": current,
        "reserved": [f for f in state["reserved"] if f != figure],
    }


class Initiative:
    """The same initiative, kept in one state changed in place: the auto-resolver's.

    `start`, `draw`, `begin_figure`, `after_action`, `end_figure` and `remove` each build a new
    state (the table keeps every one as JSON); a simulated battle makes a hundred changes and
    keeps none of the states between them. Each method here makes the change its function
    makes, to `state` itself, so the state passes through the same values (a test compares
    them step by step).
    """

    def __init__(self, state: State) -> None:
        self.state = state

    def first_waiting(self) -> str | None:
        """The first figure of `may_act(state)`, or None when nobody may start acting."""
        state = self.state
        acted, removed, reserved = state["acted"], state["removed"], state["reserved"]
        figures: list[str] = state["sides"][state["side"]]
        for figure in figures:
            if figure not in acted and figure not in removed and figure not in reserved:
                return figure
        return None

    def begin_waiting(self) -> str | None:
        """`begin_figure` with `first_waiting()`, returned (None, and no change, when nobody
        may start acting): the auto-resolver's next go, without asking again whether the figure
        it has just found may begin."""
        state = self.state
        acted, removed, reserved = state["acted"], state["removed"], state["reserved"]
        figures: list[str] = state["sides"][state["side"]]
        for figure in figures:
            if figure not in acted and figure not in removed and figure not in reserved:
                # Item by item: `update` with keywords builds a dict and parses it every go.
                state["current"], state["acted"], state["pool"] = figure, [*acted, figure], 0
                return figure
        return None

    def draw(self) -> None:
        """`draw`: pass the turn when the side is done or has lost it."""
        state = self.state
        if state["current"] is None and (state["side_over"] or self.first_waiting() is None):
            # The two sides (`start` makes exactly two) unpacked, not searched with a generator.
            first, second = state["sides"]
            other = second if first == state["side"] else first
            # A reserved die is spent or lost once its holder's side acts again.
            reserved = state["reserved"]
            held = [f for f in reserved if not f.startswith(f"{other}:")] if reserved else []
            state["side"], state["turn"], state["acted"] = other, state["turn"] + 1, []
            state["current"], state["pool"], state["side_ones"] = None, 0, 0
            state["side_over"], state["reserved"] = False, held

    def begin_figure(self, figure: str) -> None:
        """`begin_figure`: start acting with `figure`."""
        state = self.state
        if not _may_begin(state, figure):
            raise ValidationError({"figure": f"{figure} cannot start acting now"})
        state.update(current=figure, acted=[*state["acted"], figure], pool=0)

    def after_action(self, action: str, result: str) -> None:
        """`after_action`: the pool grows, unless a 1 ends the go."""
        state = self.state
        # Item by item, as `begin_waiting`: every action ends here.
        if result == SIDE_ENDS:
            state["current"], state["pool"], state["side_over"] = None, 0, True
        elif result == FIGURE_ENDS:
            state["current"], state["pool"] = None, 0
            state["side_ones"] += 1
        elif action != MOVE:
            state["pool"] += 1

    def end_figure(self, *, reserve: bool = False) -> None:
        """`end_figure`: the current figure's go ends, optionally keeping a reserved die."""
        state = self.state
        held = [*state["reserved"], state["current"]] if reserve and state["current"] else []
        state["current"], state["pool"], state["reserved"] = None, 0, held or state["reserved"]

    def remove(self, figure: str) -> None:
        """`remove`: take a figure out of the battle."""
        state = self.state
        # Item by item, as `begin_waiting`. The lists are replaced, never changed in place, so
        # a figure holding no reserved die (most) leaves that list as it is.
        state["removed"] = [*state["removed"], figure]
        if state["current"] == figure:
            state["current"] = None
        if figure in state["reserved"]:
            state["reserved"] = [f for f in state["reserved"] if f != figure]


INITIATIVE = ActivationMethod(
    "initiative",
    "Initiative (act until a 1)",
    start,
    draw,
    description="The side with the initiative acts one figure at a time; a single 1 ends a "
    "figure's go, two 1s in a roll or the side's second 1 hand over the turn.",
)

#: The system's activation methods by key (`RuleSystem.activation`).
METHODS = {INITIATIVE.name: INITIATIVE}
