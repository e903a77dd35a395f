"""Escarmouche's figure stats and campaign options, with the label and card built from them.

The stat schema lists the club's weapon classes and melee weapons and its rating and skill
limits, so it is built by `build_stats(tables)`: for the base rules here, and again under each
house-rules pack (`house.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.tables import RATINGS, SKILLS


def skill_stat(tables: t.EscarmoucheTables, key: str, label: str) -> Field:
    return Field(
        key,
        "int",
        label.split(":")[0],
        default=0,
        min=0,
        max=tables.MAX_SKILL,
        help=f"{label}. Each point lets one passive die in a roll be rolled as active.",
    )


def _clean_stats(values: dict[str, Any]) -> dict[str, Any]:
    rating = values["rating"]
    if values["wounds"] is None:
        values["wounds"] = rating
    elif values["wounds"] not in (1, rating):
        raise ValidationError({"wounds": f"must equal the rating ({rating}) or be 1"})
    return values


def build_stats(tables: t.EscarmoucheTables) -> Schema:
    """A figure's stats, with the club's weapons and its rating and skill limits."""
    max_rating, max_skill = tables.MAX_RATING, tables.MAX_SKILL
    weapons: tuple[t.Row, ...] = tables.WEAPONS
    melee: tuple[t.MeleeWeapon, ...] = tables.MELEE_WEAPONS
    return Schema(
        (
            Field(
                "rating",
                "int",
                "Rating",
                default=3,
                min=1,
                max=max_rating,
                help="; ".join(f"{r} {label}" for r, label in RATINGS)
                + ". Defence dice, and breaks tied rolls.",
            ),
            *(skill_stat(tables, key, label) for key, label in SKILLS),
            Field(
                "wounds",
                "int",
                "Wounds",
                default=None,
                min=1,
                max=max_rating,
                help="Equal to the rating (the default), or 1 in a one-wound campaign.",
            ),
            Field(
                "weapons",
                "multichoice",
                "Missile weapons",
                default=[],
                choices=tuple((row.key, f"{row.label} ({row.passive} passive)") for row in weapons),
                help="Each class costs its passive dice on every shot.",
            ),
            Field(
                "melee",
                "choice",
                "Melee weapon",
                default=t.default_key(melee, t.DEFAULT_MELEE),
                choices=tuple((row.key, row.label) for row in melee),
                help="Pikemen get first strike against horse; weaponless attackers are penalised.",
            ),
            Field(
                "mounted",
                "bool",
                "Mounted",
                default=False,
                help="Horsemen get first strike against foot without pikes.",
            ),
        ),
        clean=_clean_stats,
        description=f"An Escarmouche figure: rating 1-{max_rating}, six skills 0-{max_skill}, "
        "wounds, arms.",
    )


STATS = build_stats(t.BASE)


def melee_weapon(stats: Mapping[str, Any], tables: t.EscarmoucheTables) -> t.MeleeWeapon | None:
    """The figure's melee weapon in the club's table (None for one the table no longer has)."""
    by_key: dict[str, t.MeleeWeapon] = tables.MELEE_BY_KEY
    return by_key.get(str(stats.get("melee") or t.DEFAULT_MELEE))


OPTIONS = Schema(
    (
        Field(
            "house_campaign",
            "bool",
            "House campaign rules",
            default=False,
            help="Muster's house rules adapted from Rencounter: improvement rolls and wound "
            "aftermath after each battle. Escarmouche has no campaign rules of its own.",
        ),
        Field(
            "wounds_rule",
            "choice",
            "Wounds",
            default="rating",
            choices=(("rating", "Wounds equal the rating"), ("one", "Every figure has 1")),
            help="The text offers both; new figures are given this many wounds.",
        ),
    ),
    description="Escarmouche campaign options (house rules).",
)

_SKILL_ABBREVIATIONS = {
    "shooter": "Sh",
    "fighter": "Fi",
    "rider": "Ri",
    "pike_trailer": "Pk",
    "artillerist": "Ar",
    "leader": "Ld",
}


def label_text(
    name: str, stats: Mapping[str, Any], *, tables: t.EscarmoucheTables = t.BASE
) -> tuple[str, ...]:
    """Return a base sticker's lines: name, rating and wounds, skills, arms."""
    lines = [name, f"R{stats['rating']} W{stats.get('wounds') or stats['rating']}"]
    skills = " ".join(
        f"{abbr}{stats[key]}" for key, abbr in _SKILL_ABBREVIATIONS.items() if stats.get(key)
    )
    if skills:
        lines.append(skills)
    melee = melee_weapon(stats, tables)
    # Names from the club's tables, never keys, and short: a class's first weapon stands for
    # it ("Musket" for "Musket, heavy crossbow"). A pike (or a weapon the club's table treats
    # as one) is worth a note: it strikes first.
    names = {row.key: row.label.split(",")[0].strip() for row in tables.WEAPONS}
    arms = [names.get(key, str(key)) for key in stats.get("weapons", ())]
    arms += [melee.label] if melee and melee.pike else []
    if stats.get("mounted"):
        arms.append("Horse")
    if arms:
        lines.append(", ".join(arms))
    return tuple(lines)


CARD = CardLayout(
    sections=(
        ("Figure", ("rating", "wounds")),
        ("Skills", tuple(key for key, _ in SKILLS)),
        ("Arms", ("weapons", "melee", "mounted")),
    ),
    track="wounds",
    track_size="wounds",
    notes="Mark Shaken (any number), Disarmed (one), Prone and Cover beside the figure.",
)


def settle_state(state: dict[str, Any]) -> None:
    """A figure with no wound left is out of action, however many hits took it there."""
    left = state.get("wounds")
    if left is not None and int(left) <= 0 and state.get("status") not in ("dead", "out"):
        state["status"] = "out"


def initial_state(
    stats: Mapping[str, Any], *, tables: t.EscarmoucheTables = t.BASE
) -> dict[str, Any]:
    """Return a figure's battle state at the start: whole, steady, armed as its stats say."""
    melee = melee_weapon(stats, tables)
    return {
        "wounds": stats.get("wounds") or stats["rating"],
        "shaken": 0,
        "disarmed": bool(melee and melee.weaponless),
        "prone": False,
        "cover": False,
        "kept_away": False,
        "reserved": False,
        "status": "unhurt",
    }
