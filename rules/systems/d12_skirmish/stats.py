"""A figure's stats, battle state, base label and unit card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.d12_skirmish.tables import (
    ABILITY_CHOICES,
    ABILITY_NAMES,
    BAYONET_ARMS,
    EXPERTISE,
    FIREARM_NAMES,
    FIREARMS,
    LOADING,
    MOUNTS,
    OFF_FIELD_PENALTY,
    TROOP_MODIFIER,
    TROOP_NAMES,
    TROOP_TYPES,
    WEAPON_CHOICES,
    WOUNDS_INDIVIDUAL_GAME,
    WOUNDS_OFFICER,
    WOUNDS_UNIT_GAME,
)


def default_wounds(*, officer: bool, ability: str, game: str = "unit") -> int:
    """Return the wounds a figure has: by game and rank, less one for a campaign wound."""
    if game == "individual":
        base = WOUNDS_INDIVIDUAL_GAME
    else:
        base = WOUNDS_OFFICER if officer else WOUNDS_UNIT_GAME
    # A campaign wound never leaves a figure with no wounds at all.
    return max(1, base - (ability == "campaign_wound"))


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    if values["wounds"] is None:
        values["wounds"] = default_wounds(officer=values["officer"], ability=values["ability"])
    weapons = values["weapons"]
    if "bayonet" in weapons and not BAYONET_ARMS & set(weapons):
        raise ValidationError({"weapons": "a bayonet needs a rifled musket or a carbine"})
    if values["loading"] != "muzzle" and not set(FIREARMS) & set(weapons):
        raise ValidationError({"loading": "only a firearm is a breechloader or repeater"})
    return values


STATS = Schema(
    (
        Field("troop", "choice", "Troop type", "regular", choices=TROOP_TYPES),
        Field(
            "expertise",
            "choice",
            "Expertise",
            "all",
            choices=EXPERTISE,
            help=f"With the optional troop table: -{OFF_FIELD_PENALTY} outside the field",
        ),
        Field(
            "ability",
            "choice",
            "Ability",
            "none",
            choices=ABILITY_CHOICES,
            help="One ability from the d12 table (optional rules)",
        ),
        Field("officer", "bool", "Officer / squad leader", False),
        Field(
            "wounds",
            "int",
            "Wounds",
            None,
            min=1,
            max=WOUNDS_INDIVIDUAL_GAME,
            help="1, officers 2 (unit games); 3 in individual games",
        ),
        Field("mount", "choice", "Foot or cavalry", "foot", choices=MOUNTS),
        Field(
            "weapons", "multichoice", "Weapons", ["rifled_musket"], choices=WEAPON_CHOICES, max=3
        ),
        Field("loading", "choice", "Loading", "muzzle", choices=LOADING),
    ),
    clean=_clean,
)

CARD = CardLayout(
    sections=(
        ("Figure", ("troop", "expertise", "officer", "mount")),
        ("Arms", ("weapons", "loading")),
        ("Ability", ("ability",)),
    ),
    track="wounds",
    track_size="wounds",
    notes="Weapon ranges close/medium/extreme beside each firearm; a loaded box for "
    "muzzle-loaders; two boxes for failed morale tests in a row",
)


def troop_modifier(stats: Mapping[str, Any], field: str) -> int:
    """Return the troop modifier for `field` ("combat" or "shooting"), with expertise."""
    modifier = TROOP_MODIFIER[stats["troop"]]
    expertise = stats.get("expertise", "all")
    return modifier - OFF_FIELD_PENALTY if expertise not in ("all", field) else modifier


def initial_state(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Return a figure's battle state at the start of a battle."""
    return {
        "wounds": 0,
        "loaded": True,
        "status": "unhurt",
        "pinned": False,
        "failed_morale": 0,
        "mounted": stats.get("mount") == "cavalry",
        "weapon": "ready",
    }


def label_text(name: str, stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return a short base label: name, troop type and wounds, arms, ability."""
    rank = " Off." if stats.get("officer") else ""
    lines = [name, f"{TROOP_NAMES[stats['troop']]}{rank} W{stats.get('wounds') or 1}"]
    arms = [FIREARM_NAMES.get(w, w.capitalize()) for w in stats.get("weapons", [])]
    if arms:
        lines.append(", ".join(arms))
    if stats.get("ability", "none") != "none":
        lines.append(ABILITY_NAMES[stats["ability"]])
    return tuple(lines)
