"""Rencounter (Edward Allen, 1997): skirmish rules with d6 action rolls and d12 combat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.lazy import MappingImportedLater, imported_later
from rules.system import RuleSystem, register
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.checks import CHECKS
from rules.systems.rencounter.combat import permanent_failure_number
from rules.systems.rencounter.stats import (
    CARD,
    OPTIONS,
    STATS,
    initial_state,
    label_text,
    settle_state,
)


def _combat_tables(tables: t.RencounterTables) -> dict[str, Any]:
    return {
        "experience": t.EXPERIENCE_NAMES,
        "armour": t.ARMOUR,
        "shields": tables.shields,
        "shield_makes": t.SHIELD_MAKES,
        "damage": tables.damage_table,
        "confirmation": t.CONFIRMATION,
        "range_to_hit": tables.range_to_hit,
        "cover": tables.cover,
        "fire_modifiers": tables.fire_modifiers,
        "missile_weapons": tables.missile_weapons,
        "repeat": t.REPEAT_NAMES,
        "shotgun_damage": t.SHOTGUN_DAMAGE,
        "shotgun_spread": t.SHOTGUN_SPREAD,
        "reload_notes": t.RELOAD_NOTES,
        "melee_weapons": tables.melee_weapons,
        "melee_modifiers": tables.melee_modifiers,
        "falls": t.FALL_DAMAGE,
        "trample": t.TRAMPLE_DAMAGE,
        "canister": t.CANISTER,
        "grape_to_hit": t.GRAPE_TO_HIT,
        "gun_size": t.GUN_SIZE_TO_HIT,
        "ground": t.GROUND_TO_HIT,
        "misfires": t.MISFIRES,
    }


def _morale_tables(options: Mapping[str, Any]) -> dict[str, Any]:
    modifiers: dict[str, Any] = {
        "per_man_lost": t.MORALE_PER_MAN_LOST,
        "leader_lost": t.MORALE_LEADER_LOST,
        "unit_eliminated": t.MORALE_UNIT_ELIMINATED,
    }
    if options["leader_morale"]:
        modifiers["leader_steady"] = t.MORALE_LEADER_STEADY
    action = {
        "fall_back": t.FALL_BACK_ROLL,
        "masters": options["master_variant"],
        "permanent_failure": {n: permanent_failure_number(n) for n in t.EXPERIENCE_NAMES},
    }
    return {"action": action, "morale_triggers": t.MORALE_TRIGGERS, "morale_modifiers": modifiers}


def _campaign_tables(tables: t.RencounterTables, options: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "breakpoint": options["breakpoint"],
        "squad_leader": t.SQUAD_LEADER,
        "squad_man": t.SQUAD_MAN,
        "squad_variation": t.SQUAD_SKILL_VARIATION,
        "aftermath_bands": tables.aftermath_bands,
        "improvement_caps": tables.improvement_caps,
    }


def reference_tables(
    options: Mapping[str, Any], *, tables: t.RencounterTables = t.BASE
) -> dict[str, Any]:
    """Every reference table as JSON, reflecting the campaign's options and `tables` (the
    text's; a club's under its house rules, bound by `RuleSystem.with_house`)."""
    sheet = {
        **_combat_tables(tables),
        **_morale_tables(options),
        **_campaign_tables(tables, options),
    }
    if options["hit_locations"]:
        sheet["hit_locations"] = t.HIT_LOCATIONS
    if options["weapon_breakage"]:
        sheet["breakage_at"] = t.BREAKAGE_AT
    return {name: t.as_json(value) for name, value in sheet.items()}


RENCOUNTER = register(
    RuleSystem(
        key="rencounter",
        name="Rencounter",
        source="Edward Allen, Rencounter v0.987 (1998)",
        scale='1 figure = 1 man, 1" = 4 yards, 1 turn = 5 seconds',
        stats=STATS,
        options=OPTIONS,
        snapshot=t.BASE,
        checks=CHECKS,
        tables=reference_tables,
        label_text=label_text,
        initial_state=initial_state,
        settle_state=settle_state,
        card=CARD,
        post_battle=imported_later("rules.systems.rencounter.campaign", "post_battle"),
        activation=MappingImportedLater("rules.systems.rencounter.activation", "METHODS"),
        simulate=imported_later("rules.systems.rencounter.simulate", "simulate"),
        statuses=("unhurt", "wounded", "falling_back", "out", "dead", "routed"),
        description="Skirmish rules: d6 action rolls against experience, d12 fire and melee.",
        words_from="rules.systems.rencounter.words",
        house_from="rules.systems.rencounter.house",
    )
)
