"""A figure's stats, battle state, base label and unit card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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


def _bayonet_arms(tables: t.D12Tables) -> str:
    """The firearms that take a bayonet, in words: "a rifled musket or a carbine"."""
    names = [
        _a(tables.FIREARM_NAMES[k].lower()) for k in tables.FIREARMS if k in tables.BAYONET_ARMS
    ]
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _clean(tables: t.D12Tables, values: dict[str, Any]) -> dict[str, Any]:
    if values["wounds"] is None:
        values["wounds"] = default_wounds(officer=values["officer"], ability=values["ability"])
    weapons = values["weapons"]
    if "bayonet" in weapons and not tables.BAYONET_ARMS & set(weapons):
        arms = _bayonet_arms(tables)
        reason = f"a bayonet needs {arms}" if arms else "no firearm takes a bayonet"
        raise ValidationError({"weapons": reason})
    if values["loading"] != "muzzle" and not set(tables.FIREARMS) & set(weapons):
        raise ValidationError({"loading": "only a firearm is a breechloader or repeater"})
    return values


def _stats_clean(tables: t.D12Tables) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The stats' cross-field step, reading the firearms of `tables`."""

    def clean(values: dict[str, Any]) -> dict[str, Any]:
        return _clean(tables, values)

    return clean


def build_stats(tables: t.D12Tables) -> Schema:
    """A figure's stats, their choices read from `tables` (see build_checks)."""
    return Schema(
        (
            Field("troop", "choice", "Troop type", "regular", choices=tables.TROOP_TYPES),
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
                choices=tables.ABILITY_CHOICES,
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
                choices=weapon_choices(tables),
                max=3,
            ),
            Field("loading", "choice", "Loading", "muzzle", choices=LOADING),
        ),
        clean=_stats_clean(tables),
    )


STATS = build_stats(t.BASE)


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


def troop_modifier(tables: t.D12Tables, stats: Mapping[str, Any], field: str) -> int:
    """Return the troop modifier for `field` ("combat" or "shooting"), with expertise."""
    modifier = tables.TROOP_MODIFIER[stats["troop"]]
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


def label_text(
    name: str, stats: Mapping[str, Any], *, tables: t.D12Tables = t.BASE
) -> tuple[str, ...]:
    """Return a short base label: name, troop type and wounds, arms, ability (names from
    `tables`: the text's; a club's under its house rules, bound by `RuleSystem.with_house`)."""
    rank = " Off." if stats.get("officer") else ""
    lines = [name, f"{tables.TROOP_NAMES[stats['troop']]}{rank} W{stats.get('wounds') or 1}"]
    names = {**tables.FIREARM_NAMES, **tables.MELEE_NAMES}
    arms = [names.get(w, w.capitalize()) for w in stats.get("weapons", [])]
    if arms:
        lines.append(", ".join(arms))
    if stats.get("ability", "none") != "none":
        lines.append(tables.ABILITY_NAMES[stats["ability"]])
    return tuple(lines)
