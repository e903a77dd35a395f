"""A figure's stats, battle state, base label and unit card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules import house_context as house
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import CardLayout
from rules.systems.d12_skirmish import tables as t
from rules.systems.d12_skirmish.tables import (
    EXPERTISE,
    LOADING,
    MOUNTS,
    OFF_FIELD_PENALTY,
    WOUNDS_INDIVIDUAL_GAME,
    WOUNDS_OFFICER,
    WOUNDS_UNIT_GAME,
    weapon_choices,
)


def default_wounds(*, officer: bool, ability: str, game: str = "unit") -> int:
    """Return the wounds a figure has: by game and rank, less one for a campaign wound."""
    if game == "individual":
        base = WOUNDS_INDIVIDUAL_GAME
    else:
        base = WOUNDS_OFFICER if officer else WOUNDS_UNIT_GAME
    # A campaign wound never leaves a figure with no wounds at all.
    return max(1, base - (ability == "campaign_wound"))


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def _bayonet_arms() -> str:
    """The firearms that take a bayonet, in words: "a rifled musket or a carbine"."""
    names = [_a(t.FIREARM_NAMES[k].lower()) for k in t.FIREARMS if k in t.BAYONET_ARMS]
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    if values["wounds"] is None:
        values["wounds"] = default_wounds(officer=values["officer"], ability=values["ability"])
    weapons = values["weapons"]
    if "bayonet" in weapons and not t.BAYONET_ARMS & set(weapons):
        arms = _bayonet_arms()
        reason = f"a bayonet needs {arms}" if arms else "no firearm takes a bayonet"
        raise ValidationError({"weapons": reason})
    if values["loading"] != "muzzle" and not set(t.FIREARMS) & set(weapons):
        raise ValidationError({"loading": "only a firearm is a breechloader or repeater"})
    return values


def _stats_clean(pack: house.Pack | None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The stats' cross-field step, reading the firearms of `pack` (None: as written)."""
    return house.under(pack, _clean)


def build_stats() -> Schema:
    """A figure's stats, their choices read from the tables as they stand (see build_checks)."""
    return Schema(
        (
            Field("troop", "choice", "Troop type", "regular", choices=t.TROOP_TYPES),
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
                choices=t.ABILITY_CHOICES,
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
                "weapons",
                "multichoice",
                "Weapons",
                ["rifled_musket"],
                choices=weapon_choices(),
                max=3,
            ),
            Field("loading", "choice", "Loading", "muzzle", choices=LOADING),
        ),
        clean=_stats_clean(house.active()),
    )


with house.applied(None):  # the rules as written, even if first imported under a pack
    STATS = build_stats()


@house.house_cache(maxsize=16)
def _stats_under_pack() -> Schema:
    return build_stats()


def current_stats() -> Schema:
    """The stats under the applied pack (built once per pack), else as written."""
    return STATS if house.active() is None else _stats_under_pack()


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
    modifier = t.TROOP_MODIFIER[stats["troop"]]
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
    lines = [name, f"{t.TROOP_NAMES[stats['troop']]}{rank} W{stats.get('wounds') or 1}"]
    names = {**t.FIREARM_NAMES, **t.MELEE_NAMES}
    arms = [names.get(w, w.capitalize()) for w in stats.get("weapons", [])]
    if arms:
        lines.append(", ".join(arms))
    if stats.get("ability", "none") != "none":
        lines.append(t.ABILITY_NAMES[stats["ability"]])
    return tuple(lines)
