"""A unit's stats, its battle state, base label and unit card.

The Hits a unit may carry, the card's track and the words about running out of missiles
follow the applied house-rules pack: `build_stats()` and `build_card()` are called per pack.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.game_the_90 import tables as t
from rules.systems.game_the_90.tables import (
    MISSILE_CHOICES,
    MISSILES_ALLOWED,
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


def _out_of_missiles_help(tables: t.G90Tables) -> str:
    faces = tables.OUT_OF_MISSILES_FACES
    if not faces:
        return "Missiles never run out under these house rules"
    return f"Marked after a natural {t.faces_text(faces)} on a Hit roll"


def build_stats(tables: t.G90Tables) -> Schema:
    """Return the unit's stat schema from `tables` (the Hits it may carry)."""
    return Schema(
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
                max=tables.MAX_HITS,
                help=f"Hits carried into the battle; removed at {tables.REMOVED_AT}",
            ),
            Field(
                "out_of_missiles",
                "bool",
                "Out of missiles",
                False,
                help=_out_of_missiles_help(tables),
            ),
        ),
        clean=_clean,
    )


def build_card(tables: t.G90Tables) -> CardLayout:
    """Return the unit card from `tables`: one box for each Hit short of removal."""
    removed_at = tables.REMOVED_AT
    return CardLayout(
        sections=(("Unit", ("type", "missiles")), ("Battle", ("hits", "out_of_missiles"))),
        track="hits",
        track_size=None,
        track_boxes=removed_at - 1,
        notes=f"{removed_at - 1} Hit boxes (removed at {removed_at}); move class, Fast bonus and "
        "melee modifier beside the type; a box to mark out of missiles for Bowmen and Lights",
    )


STATS = build_stats(t.BASE)
CARD = build_card(t.BASE)


def settle_state(state: dict[str, Any], *, tables: t.G90Tables = t.BASE) -> None:
    """A unit at the removal threshold (15 Hits as written) is removed, whatever took it there."""
    if int(state.get("hits") or 0) >= tables.REMOVED_AT:
        state["status"] = "removed"


def initial_state(stats: Mapping[str, Any], *, tables: t.G90Tables = t.BASE) -> dict[str, Any]:
    """Return a unit's battle state at the start of a battle."""
    return {
        "hits": stats.get("hits", 0),
        "passed_ten": stats.get("hits", 0) > tables.RALLY_FATIGUE_PAST,
        "out_of_missiles": bool(stats.get("out_of_missiles", False)),
        "status": "unhurt",
    }


def label_text(
    name: str, stats: Mapping[str, Any], *, tables: t.G90Tables = t.BASE
) -> tuple[str, ...]:
    """Return a short base label: name, type with move class and melee modifier, missiles."""
    kind = stats.get("type", "serjeants")
    modifier = tables.MELEE_MODIFIER[kind]
    line = f"{UNIT_NAMES[kind]} C{tables.MOVE_CLASS[kind]}" + (
        f" {modifier:+d}" if modifier else ""
    )
    missiles = stats.get("missiles") or "none"
    if missiles == "none":
        return (name, line)
    return (name, line, f'{missiles.capitalize()} {tables.MISSILE_RANGE[missiles]}"')
