"""A Rencounter figure's stats, the campaign options, base labels and battle state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.rencounter import tables as t

SKILL_MIN, SKILL_MAX = 2, 12
HORSEMANSHIP_MAX = t.MASTER + t.HORSEMANSHIP_OVER_EXPERIENCE
_EXPERIENCE = tuple((n, f"{n} {name}") for n, name in t.EXPERIENCE_NAMES.items())


def _stats_rule(
    melee_weapons: Mapping[str, t.MeleeWeapon],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The clean step for these melee weapons (a schema validates before any pack is applied,
    so it is built with the weapon table it checks shields against)."""

    def clean(values: dict[str, Any]) -> dict[str, Any]:
        """Fill horsemanship from experience; refuse a shield no melee weapon allows."""
        if values["horsemanship"] is None:
            values["horsemanship"] = values["experience"] + t.HORSEMANSHIP_OVER_EXPERIENCE
        if values["shield"] != "none" and not _shield_usable(values["weapons"], melee_weapons):
            raise ValidationError({"shield": "none of the figure's melee weapons allows a shield"})
        return values

    return clean


def _shield_usable(weapons: list[str], melee_weapons: Mapping[str, t.MeleeWeapon]) -> bool:
    melee = [melee_weapons[w] for w in weapons if w in melee_weapons]
    # A figure with only missile weapons may still carry a shield (e.g. a javelin man).
    return not melee or any(w.shield for w in melee)


def _weapon_choices(
    missile_weapons: Mapping[str, t.MissileWeapon], melee_weapons: Mapping[str, t.MeleeWeapon]
) -> tuple[tuple[str, str], ...]:
    """Every weapon a figure may carry: those in both tables first (as written, the javelin),
    then the missile weapons, then the melee weapons."""
    both = tuple(
        (k, f"{w.name} (thrown or melee)" if w.kind == "thrown" else f"{w.name} (missile or melee)")
        for k, w in missile_weapons.items()
        if k in melee_weapons
    )
    missile = tuple(
        (k, f"{w.name} (missile)") for k, w in missile_weapons.items() if k not in melee_weapons
    )
    melee = tuple(
        (k, f"{w.name} (melee)") for k, w in melee_weapons.items() if k not in missile_weapons
    )
    return (*both, *missile, *melee)


def build_stats(tables: t.RencounterTables) -> Schema:
    """A figure's stats, offering the snapshot's weapons and shields (a club's pack's)."""
    missile_weapons, melee_weapons = tables.missile_weapons, tables.melee_weapons
    return Schema(
        _fields(tables, _weapon_choices(missile_weapons, melee_weapons)),
        clean=_stats_rule(melee_weapons),
    )


def _fields(
    tables: t.RencounterTables, weapon_choices: tuple[tuple[str, str], ...]
) -> tuple[Field, ...]:
    return (
        Field(
            "experience",
            "int",
            "Experience",
            4,
            1,
            6,
            _EXPERIENCE,
            help="Action roll needs this or less on a d6: 1 Scum .. 6 Master",
        ),
        Field(
            "fire",
            "int",
            "Fire skill",
            8,
            SKILL_MIN,
            SKILL_MAX,
            help="Missile hit chance on a d12 (typically 4-10)",
        ),
        Field(
            "melee",
            "int",
            "Melee skill",
            8,
            SKILL_MIN,
            SKILL_MAX,
            help="Melee hit and parry chance on a d12 (typically 4-10)",
        ),
        Field("armour", "int", "Armour", 0, 0, 4, tuple((a.rating, a.name) for a in t.ARMOUR)),
        Field(
            "shield",
            "choice",
            "Shield",
            "none",
            choices=tuple((k, label) for k, (label, _) in tables.shields.items()),
        ),
        Field(
            "shield_make",
            "choice",
            "Shield make",
            "rimmed",
            choices=tuple((k, label) for k, (label, _) in t.SHIELD_MAKES.items()),
            help="Only matters for the weapon breakage optional rule",
        ),
        Field(
            "horsemanship",
            "int",
            "Horsemanship",
            None,
            1,
            HORSEMANSHIP_MAX,
            help="Riding checks on a d6; defaults to experience + 2",
        ),
        Field("weapons", "multichoice", "Weapons", [], choices=weapon_choices, max=6),
        Field(
            "hero_threshold",
            "int",
            "Starting hero roll",
            1,
            1,
            6,
            help="Heroes rule: a first morale roll at or under this may inspire him; "
            "progress from game to game is kept in the career",
        ),
    )


STATS = build_stats(t.BASE)

_OPTION_FIELDS = (
    Field(
        "master_variant",
        "choice",
        "Masters",
        "always",
        choices=(
            ("always", "Always act unless wounds or morale interfere"),
            ("confirm", "Fail on a 6 confirmed by 4-6 on a second d6"),
        ),
    ),
    Field(
        "hit_locations",
        "bool",
        "Hit locations",
        False,
        help="Roll a d6 for the location of each wound",
    ),
    Field(
        "prompt_care",
        "bool",
        "Prompt care by default",
        False,
        help="Wounded figures get prompt, high-quality care after battle",
    ),
    Field("hazard", "int", "Hazardous aftermath by default", 0, 0, 2),
    Field("heroes", "bool", "Heroes optional rule", False),
    Field(
        "breakpoint",
        "choice",
        "Force breakpoint",
        "1/2",
        choices=tuple((k, f"{k} of the force lost") for k in t.BREAKPOINTS),
    ),
    Field("reshuffle_card", "bool", "Reshuffle card in the deck", True),
    Field("cards_per_unit", "int", "Cards per unit", 1, 1, 4),
    Field("held_cards", "bool", "Units may hold a card", False),
    Field("weapon_breakage", "bool", "Weapon breakage in parries", False),
    Field("leader_morale", "bool", "Leader influenced morale", False),
    Field("variable_knockdown", "bool", "Variable knockdown", False),
    Field("last_shot", "bool", "Last shot against a charge", False),
)


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse prompt care by default in a hazardous campaign: they exclude each other."""
    if options.get("prompt_care") and options.get("hazard"):
        raise ValidationError(
            {"prompt_care": "prompt care and a hazardous aftermath exclude each other"}
        )


def _clean_options(values: dict[str, Any]) -> dict[str, Any]:
    check_options(values)
    return values


OPTIONS = Schema(_OPTION_FIELDS, clean=_clean_options)


def label_text(name: str, stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the base sticker lines: name, "F 7 M 6", "Ex 4"."""
    return (name, f"F {stats['fire']} M {stats['melee']}", f"Ex {stats['experience']}")


def initial_state(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Return a figure's battle state at the start: permanent wounds carry into the fight.

    Permanent wounds are not a stat (the character's record holds them, for every system); the
    battle's snapshot of the stats carries them in under `permanent_wounds`.
    """
    return {
        "wounds": len(stats.get("permanent_wounds") or ()),
        "status": "unhurt" if not stats.get("permanent_wounds") else "wounded",
        "down": False,
        "loaded": True,
        "reload_progress": 0,
        "ducked": False,
        "inspired": False,
    }


def settle_state(state: dict[str, Any]) -> None:
    """Six wound points kill, however many hits they took to add up."""
    if int(state.get("wounds") or 0) >= t.DEATH_POINTS:
        state["status"] = "dead"


CARD = CardLayout(
    sections=(
        ("Figure", ("experience", "fire", "melee", "horsemanship", "hero_threshold")),
        ("Protection", ("armour", "shield")),
        ("Arms", ("weapons",)),
    ),
    track="wounds",
    track_size=None,
    track_boxes=5,
    notes="Five wound boxes: minor 1, serious 2, crippling 3; six points kill.",
)
