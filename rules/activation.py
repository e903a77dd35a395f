"""Activation methods (card decks, dice and markers): JSON state in, JSON state out.

A method's state is plain JSON so the battle can keep it in a JSON column between requests.
Shuffles use the dice passed in, so a seeded battle reshuffles reproducibly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.dice import Dice

State = dict[str, Any]


class Draw(NamedTuple):
    """What one activation draw produced, for display and the event log.

    Immutable like a frozen dataclass, but a NamedTuple: a simulated battle draws an activation
    for every unit's turn, and the tuple is the cheaper of the two to build.
    """

    state: State
    result: Mapping[str, Any]


@dataclass(frozen=True)
class ActivationMethod:
    """A named activation method of one system.

    `start(units, options, dice)` returns the initial state for the named units (or figures);
    `draw(state, dice)` returns the next activation and the new state.
    """

    name: str
    title: str
    start: Callable[[Sequence[str], Mapping[str, Any], Dice], State]
    draw: Callable[[State, Dice], Draw]
    description: str = ""


def shuffle(items: Sequence[Any], dice: Dice, label: str = "shuffle") -> list[Any]:
    """Fisher-Yates shuffle drawing from `dice` (so seeded shuffles are reproducible).

    `Dice.shuffle` draws a d`n` down to a d2 in one call (unlabelled: `label` has never been
    passed to the dice, and a seeded battle's records must not change), then swaps.
    """
    return dice.shuffle(items)
