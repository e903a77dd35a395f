"""Grits & Glory's unit stats: traits, skills, derived Pace/Parry/Toughness, weapons, size.

The playing piece is the unit (1-6 figures sharing one unit card): the text deals initiative
cards, counts Broken forces, scores victory points and rolls the post-game Vigor test per unit.

The weapon choices come from the weapon table, which a club may extend as a house rule: the
schema is built from a tables snapshot by `stats_schema(tables)` (cached per snapshot), once for
the rules as written (`STATS`) and once for each house-rules pack; labels and the starting
state validate with the schema of the snapshot they are given.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.tables import DIE_SIZES, SKILLS, TRAITS, UNIT_MAX_FIGURES

DIE_CHOICES = tuple((n, f"d{n}") for n in DIE_SIZES)
SKILL_CHOICES = ((0, "untrained"), *DIE_CHOICES)
#: Skills a typical figure has; the rest start untrained (0).
_TRAINED_BY_DEFAULT = {"fighting": 6, "shooting": 6, "notice": 6}


def _trait(name: str) -> Field:
    return Field(
        name,
        "die",
        default=6,
        choices=DIE_CHOICES,
        help=f"{name.capitalize()} die, d4 to d12 (d6 is the human average).",
    )


def _skill(tables: t.GGTables, name: str) -> Field:
    return Field(
        name,
        "die",
        default=_TRAINED_BY_DEFAULT.get(name, 0),
        choices=SKILL_CHOICES,
        help=f"{name.capitalize()} die, or untrained (rolls {t.untrained_text(tables)}).",
    )


def _derived(name: str, formula: str) -> Field:
    return Field(name, "int", min=1, max=20, help=f"Leave empty to compute ({formula}).")


#: What every unit has besides its traits, skills and gear.
_UNIT_FIELDS = (
    Field("pace", "int", default=6, min=1, max=24, help="Inches moved per turn (6 for men)."),
    Field("armour", "int", default=0, min=0, max=6, help="Armour added to Toughness."),
    _derived("parry", "2 + half Fighting"),
    _derived("toughness", "2 + half Vigor + armour"),
    Field(
        "wild_card",
        "bool",
        default=False,
        label="Wild Card",
        help="Heroes and named villains: Wild Die, three wounds, own Bennies.",
    ),
    Field(
        "figures",
        "int",
        default=1,
        min=1,
        max=UNIT_MAX_FIGURES,
        help="Figures in the unit (1-6); they share this card.",
    ),
)


def _fields(tables: t.GGTables) -> tuple[Field, ...]:
    """The unit's fields from a snapshot (the weapon table, the settings)."""
    mounted = f"Rides a mount ({tables.MOUNTED_TOUGHNESS_BONUS:+d} Toughness when hit)."
    return (
        *(_trait(name) for name in TRAITS),
        *(_skill(tables, name) for name in SKILLS),
        *_UNIT_FIELDS,
        _weapons_field(tables),
        Field("mounted", "bool", default=False, help=mounted),
        Field("causes_fear", "bool", default=False, help="The unit causes Fear."),
    )


def _weapons_field(tables: t.GGTables) -> Field:
    return Field(
        "weapons",
        "multichoice",
        default=[],
        max=4,
        choices=tuple((w.key, f"{w.name} ({w.damage_text})") for w in tables.WEAPONS.values()),
        help="Weapons carried, from the weapon table.",
    )


def parry_for(fighting: int) -> int:
    """Return Parry: 2 plus half the Fighting die (untrained counts as 0)."""
    return 2 + fighting // 2


def toughness_for(vigor: int, armour: int) -> int:
    """Return Toughness: 2 plus half the Vigor die plus armour."""
    return 2 + vigor // 2 + armour


def clean(values: dict[str, Any]) -> dict[str, Any]:
    """Fill Parry and Toughness when not given; a Wild Card unit is a single figure."""
    if values["wild_card"] and values["figures"] != 1:
        raise ValidationError({"figures": "a Wild Card is a single figure"})
    if values["parry"] is None:
        values["parry"] = parry_for(values["fighting"])
    if values["toughness"] is None:
        values["toughness"] = toughness_for(values["vigor"], values["armour"])
    return values


@lru_cache(maxsize=16)
def stats_schema(tables: t.GGTables) -> Schema:
    """The unit stat schema of a snapshot (a club's weapons are choices); one per snapshot."""
    return Schema(_fields(tables), clean=clean, description="One Grits & Glory unit (1-6 figures).")


#: The schema as written (no house rules).
STATS = stats_schema(t.BASE)


def _die(value: int) -> str:
    return f"d{value}" if value else "-"


def label_text(
    name: str, stats: Mapping[str, Any], *, tables: t.GGTables = t.BASE
) -> tuple[str, ...]:
    """Return short sticker lines: name, traits (and Fighting) in two lines, P/Pa/T."""
    values = stats_schema(tables).validate_snapshot(stats)
    star = "* " if values["wild_card"] else ""
    size = f" x{values['figures']}" if values["figures"] > 1 else ""
    first = " ".join(f"{t[:2].capitalize()} {_die(values[t])}" for t in TRAITS[:3])
    second = " ".join(f"{t[:2].capitalize()} {_die(values[t])}" for t in TRAITS[3:])
    fighting = f"Fi {_die(values['fighting'])}"
    derived = f"P{values['pace']} Pa{values['parry']} T{values['toughness']}"
    # The name whole: the label's fitting shortens it (with "…") as every label's is.
    return (f"{star}{name}{size}", first, f"{second} {fighting}", derived)


def initial_state(stats: Mapping[str, Any], *, tables: t.GGTables = t.BASE) -> dict[str, Any]:
    """Return a unit's battle state at the start of a game."""
    return state_at_start(stats_schema(tables).validate_snapshot(stats))


def state_at_start(values: Mapping[str, Any]) -> dict[str, Any]:
    """`initial_state` of stats already validated (the auto-resolver validates them once)."""
    return {
        "figures": values["figures"],
        "shaken": 0,
        "wounds": 0,
        "status": "unhurt",
        "loaded": True,
        "reloading": 0,
        "on_hold": False,
        "card": None,
    }
