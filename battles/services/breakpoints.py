"""Force breakpoints: whether a side has lost enough to break, for systems that define it.

The rules engine has no generic breakpoint hook on `RuleSystem`, so each system that exposes a
helper is adapted here. Systems without one report `None` ("not tracked"), never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from battles.models import BattleFigure
from rules.systems.rencounter.campaign import side_broken as rencounter_side_broken

SideBroken = Callable[[Sequence[BattleFigure], Mapping[str, Any]], bool]


def _rencounter(figures: Sequence[BattleFigure], options: Mapping[str, Any]) -> bool:
    units: dict[str, list[Mapping[str, object]]] = {}
    for figure in figures:
        units.setdefault(figure.unit_name or figure.name, []).append(figure.state)
    return rencounter_side_broken(units, options.get("breakpoint", "1/2"))


BREAKPOINTS: dict[str, SideBroken] = {"rencounter": _rencounter}


def side_is_broken(
    system: str, figures: Sequence[BattleFigure], options: Mapping[str, Any]
) -> bool | None:
    """Return whether the side is past its breakpoint, or None if the system has no rule."""
    rule = BREAKPOINTS.get(system)
    return rule(figures, options) if rule else None
