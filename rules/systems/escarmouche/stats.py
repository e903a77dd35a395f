"""Escarmouche's figure stats and campaign options, with the label and card built from them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.escarmouche.tables import (
    MAX_RATING,
    MAX_SKILL,
    MELEE_WEAPONS,
    RATINGS,
    SKILLS,
    WEAPONS,
)


def skill_stat(key: str, label: str) -> Field:
    return Field(
        key,
        "int",
        label.split(":")[0],
        default=0,
        min=0,
        max=MAX_SKILL,
        help=f"{label}. Each point lets one passive die in a roll be rolled as active.",
    )


def _clean_stats(values: dict[str, Any]) -> dict[str, Any]:
    rating = values["rating"]
    if values["wounds"] is None:
        values["wounds"] = rating
    elif values["wounds"] not in (1, rating):
        raise ValidationError({"wounds": f"must equal the rating ({rating}) or be 1"})
    return values


STATS = Schema(
    (
        Field(
            "rating",
            "int",
            "Rating",
            default=3,
            min=1,
            max=MAX_RATING,
            help="; ".join(f"{r} {label}" for r, label in RATINGS)
            + ". Defence dice, and breaks tied rolls.",
        ),
        *(skill_stat(key, label) for key, label in SKILLS),
        Field(
            "wounds",
            "int",
            "Wounds",
            default=None,
            min=1,
            max=MAX_RATING,
            help="Equal to the rating (the default), or 1 in a one-wound campaign.",
        ),
        Field(
            "weapons",
            "multichoice",
            "Missile weapons",
            default=[],
            choices=tuple((row.key, f"{row.label} ({row.passive} passive)") for row in WEAPONS),
            help="Each class costs its passive dice on every shot.",
        ),
        Field(
            "melee",
            "choice",
            "Melee weapon",
            default="hand",
            choices=MELEE_WEAPONS,
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
    description="An Escarmouche figure: rating 1-5, six skills 0-3, wounds, arms.",
)

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


def label_text(name: str, stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return a base sticker's lines: name, rating and wounds, skills, arms."""
    lines = [name, f"R{stats['rating']} W{stats.get('wounds') or stats['rating']}"]
    skills = " ".join(
        f"{abbr}{stats[key]}" for key, abbr in _SKILL_ABBREVIATIONS.items() if stats.get(key)
    )
    if skills:
        lines.append(skills)
    arms = [*stats.get("weapons", ()), *([stats["melee"]] if stats.get("melee") == "pike" else [])]
    if stats.get("mounted"):
        arms.append("horse")
    if arms:
        lines.append(" ".join(arms))
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


def initial_state(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Return a figure's battle state at the start: whole, steady, armed as its stats say."""
    return {
        "wounds": stats.get("wounds") or stats["rating"],
        "shaken": 0,
        "disarmed": stats.get("melee") == "none",
        "prone": False,
        "cover": False,
        "kept_away": False,
        "reserved": False,
        "status": "unhurt",
    }
