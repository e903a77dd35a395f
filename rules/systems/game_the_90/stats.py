"""A unit's stats, its battle state, base label and unit card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.game_the_90.tables import (
    MELEE_MODIFIER,
    MISSILE_CHOICES,
    MISSILE_RANGE,
    MISSILES_ALLOWED,
    MOVE_CLASS,
    RALLY_FATIGUE_PAST,
    REMOVED_AT,
    UNIT_NAMES,
    UNIT_TYPES,
)


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    allowed = MISSILES_ALLOWED.get(values["type"], ())
    if values["missiles"] is None:
        values["missiles"] = allowed[0] if allowed else "none"
    if values["missiles"] != "none" and values["missiles"] not in allowed:
        raise ValidationError(
            {"missiles": f"{UNIT_NAMES[values['type']]} carry no {values['missiles']}"}
        )
    if values["missiles"] == "none" and allowed:
        raise ValidationError({"missiles": f"{UNIT_NAMES[values['type']]} carry missiles"})
    if values["out_of_missiles"] and not allowed:
        raise ValidationError({"out_of_missiles": "only Bowmen and Lights carry missiles"})
    return values


STATS = Schema(
    (
        Field(
            "type",
            "choice",
            "Unit type",
            "serjeants",
            choices=UNIT_TYPES,
            required=True,
            help="160 foot or 80 mounted/Lights",
        ),
        Field(
            "missiles",
            "choice",
            "Missiles",
            None,
            choices=MISSILE_CHOICES,
            help="Bowmen carry bows; Lights javelins (default) or bows; others none",
        ),
        Field(
            "hits",
            "int",
            "Hits",
            0,
            min=0,
            max=REMOVED_AT - 1,
            help=f"Hits carried into the battle; removed at {REMOVED_AT}",
        ),
        Field(
            "out_of_missiles",
            "bool",
            "Out of missiles",
            False,
            help="Marked after a natural 5 or 6 on a Hit roll",
        ),
    ),
    clean=_clean,
)

CARD = CardLayout(
    sections=(("Unit", ("type", "missiles")), ("Battle", ("hits", "out_of_missiles"))),
    track="hits",
    track_size=None,
    track_boxes=REMOVED_AT - 1,
    notes=f"{REMOVED_AT - 1} Hit boxes (removed at {REMOVED_AT}); move class, Fast bonus and "
    "melee modifier beside the type; a box to mark out of missiles for Bowmen and Lights",
)


def settle_state(state: dict[str, Any]) -> None:
    """A unit with 15 or more Hits is removed, whichever check took it there."""
    if int(state.get("hits") or 0) >= REMOVED_AT:
        state["status"] = "removed"


def initial_state(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Return a unit's battle state at the start of a battle."""
    return {
        "hits": stats.get("hits", 0),
        "passed_ten": stats.get("hits", 0) > RALLY_FATIGUE_PAST,
        "out_of_missiles": bool(stats.get("out_of_missiles", False)),
        "status": "unhurt",
    }


def label_text(name: str, stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return a short base label: name, type with move class and melee modifier, missiles."""
    kind = stats.get("type", "serjeants")
    modifier = MELEE_MODIFIER[kind]
    line = f"{UNIT_NAMES[kind]} C{MOVE_CLASS[kind]}" + (f" {modifier:+d}" if modifier else "")
    missiles = stats.get("missiles") or "none"
    if missiles == "none":
        return (name, line)
    return (name, line, f'{missiles.capitalize()} {MISSILE_RANGE[missiles]}"')
