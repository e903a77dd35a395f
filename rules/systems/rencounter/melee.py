"""The melee check: attacker's stroke against the defender's parry, riposte and breakage.

The melee weapons, shields and damage table, and the sheet's gang-up and armour modifiers, are
house-rules tables: every function here that reads one takes the tables snapshot
(`RencounterTables`) as its first argument. A plan reads them once for its parameters (cached
per snapshot and parameters), and the parameters' choices are built from them (`build_params`,
for each pack by the system's `HouseSpec.built_from`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from rules.checks import Effect, Outcome, Roller, Step, Who, by_face
from rules.dice import D12
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.combat import (
    POINTS,
    TWELFTH,
    DamageTable,
    Dist,
    breakage,
    damage_result,
    located,
    melee_result,
    melee_success,
)

MELEE_OUTCOMES = ("hit", "riposte", "no_hit")
NO_WEAPON = "none"


def _clean(values: dict[str, Any]) -> dict[str, Any]:
    if values["aggressive"] and values["attack_skill"] - values["aggressive"] < t.AGGRESSIVE_FLOOR:
        raise ValidationError(
            {
                "aggressive": "an aggressive attack may lower the attack skill "
                f"to {t.AGGRESSIVE_FLOOR} at the lowest"
            }
        )
    return values


def build_params(tables: t.RencounterTables) -> Schema:
    """The melee check's parameters, offering the snapshot's weapons and shields."""
    weapons = (
        (NO_WEAPON, "No weapon modifiers"),
        *((k, w.name) for k, w in tables.melee_weapons.items()),
    )
    shields = tuple((k, label) for k, (label, _) in tables.shields.items())
    return Schema(_fields(weapons, shields), clean=_clean)


Choices = tuple[tuple[Any, str], ...]


def _fields(weapons: Choices, shields: Choices) -> tuple[Field, ...]:
    return (
        Field("attack_skill", "int", "Attacker's melee skill", required=True, min=2, max=12),
        Field("parry_skill", "int", "Defender's melee skill", required=True, min=2, max=12),
        Field("attack_modifier", "int", "Attack modifiers", 0, -20, 12),
        Field("parry_modifier", "int", "Parry modifiers", 0, -20, 12),
        Field(
            "riposte",
            "bool",
            "Defender ripostes",
            False,
            help="The defender passed the action check that lets his parry strike back",
        ),
        Field("weapon", "choice", "Attacker's weapon", NO_WEAPON, choices=weapons),
        Field("defender_weapon", "choice", "Defender's weapon", NO_WEAPON, choices=weapons),
        Field(
            "attackers",
            "int",
            "Active attackers",
            1,
            1,
            8,
            help="Attackers (and helpers) that passed their action rolls, this one included",
        ),
        Field(
            "defender_master",
            "bool",
            "Defender is a master",
            False,
            help="Masters ignore gang-up modifiers",
        ),
        Field("defender_armour", "int", "Defender's armour", 0, 0, 4),
        Field("defender_shield", "choice", "Defender's shield", "none", choices=shields),
        Field(
            "defender_shield_make",
            "choice",
            "Defender's shield make",
            "rimmed",
            choices=tuple((k, label) for k, (label, _) in t.SHIELD_MAKES.items()),
        ),
        Field("attacker_armour", "int", "Attacker's armour (against a riposte)", 0, 0, 4),
        Field(
            "attacker_shield",
            "choice",
            "Attacker's shield (against a riposte)",
            "none",
            choices=shields,
        ),
        Field(
            "aggressive",
            "int",
            "Aggressive attack",
            0,
            0,
            6,
            help="Points the attacker gives up (down to skill 6) to lower the parry as much",
        ),
        Field("damage_modifier", "int", "Extra damage modifier", 0, -12, 12),
        Field("breakage", "bool", "Weapon breakage rule", False),
        Field("locations", "bool", "Roll hit locations", False),
    )


PARAMS = build_params(t.BASE)


@dataclass(frozen=True)
class MeleePlan:
    """The targets and damage modifiers of one melee exchange (independent of the dice)."""

    attack_target: int
    parry_target: int
    riposte_target: int | None
    attack_damage: int
    riposte_damage: int
    attack_item: int
    parry_item: int
    parry_item_name: str
    #: The snapshot's damage table (read once with the plan, not for every blow).
    damage_table: DamageTable = ()


_KEY = itemgetter(*PARAMS.names)


def _params_key(params: Mapping[str, Any]) -> tuple[Any, ...]:
    # The validated params, in schema order, as the cache key of the plan and the odds.
    return tuple(_KEY(params))


@lru_cache(maxsize=4096)
def plan(tables: t.RencounterTables, key: tuple[Any, ...]) -> MeleePlan:
    """Work out targets and damage modifiers for these params."""
    p = dict(zip(PARAMS.names, key, strict=True))
    attacker = tables.melee_weapons.get(p["weapon"])
    defender = tables.melee_weapons.get(p["defender_weapon"])
    rules = _sheet_rules(tables)
    gang = 0 if p["defender_master"] else p["attackers"] - 1
    attack = (
        p["attack_skill"]
        + p["attack_modifier"]
        + (attacker.to_hit if attacker else 0)
        + p["defender_armour"] * rules["armour"]
        + _shield(tables, p["defender_shield"], defender)
        + gang * rules["gang_up_attack"]
        - p["aggressive"]
    )
    parry = (
        p["parry_skill"]
        + p["parry_modifier"]
        + (defender.to_hit if defender else 0)
        + gang * rules["gang_up_parry"]
        - p["aggressive"]
    )
    riposte = (
        parry
        + p["attacker_armour"] * rules["armour"]
        + _shield(tables, p["attacker_shield"], attacker)
        if p["riposte"]
        else None
    )
    attack_item = attacker.damage if attacker else 0
    parry_item, parry_name = _parry_item(p, defender)
    return MeleePlan(
        attack,
        parry,
        riposte,
        _hit_damage(attack_item, p["defender_armour"]) + p["damage_modifier"],
        _hit_damage(defender.damage if defender else 0, p["attacker_armour"]),
        attack_item,
        parry_item,
        parry_name,
        tables.damage_table,
    )


def _sheet_rules(tables: t.RencounterTables) -> dict[str, int]:
    """The gang-up and armour modifiers as the sheet's melee list (or a club's pack) has them."""
    rows = tables.melee_modifiers
    return {rule: t.rule_modifier(rows, t.MELEE_RULES, rule) for rule in t.MELEE_RULES}


def _shield(tables: t.RencounterTables, shield: str, weapon: t.MeleeWeapon | None) -> int:
    # A shield only counts when the bearer's weapon can be used with one.
    return tables.shields[shield][1] if weapon is None or weapon.shield else 0


def _hit_damage(weapon_damage: int, armour: int) -> int:
    heavy = t.MELEE_HEAVY_ARMOUR_DAMAGE if armour >= t.HEAVY_ARMOUR_FROM else 0
    return weapon_damage + heavy


def _parry_item(p: Mapping[str, Any], defender: t.MeleeWeapon | None) -> tuple[int, str]:
    # The shield, when there is one, is what most likely met the blow.
    if p["defender_shield"] != "none":
        return t.SHIELD_MAKES[p["defender_shield_make"]][1], "shield"
    return (defender.damage if defender else 0), "weapon"


def prepare(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Roll the attack and the parry; on a hit or riposte roll damage (and location). The
    targets are worked out once for these parameters, and each pair of faces once."""
    melee = plan(tables, _params_key(params))
    locations, breakage_rule = params["locations"], params["breakage"]

    def exchange(attack: int, parry: int) -> Step:
        key = melee_result(
            attack, parry, melee.attack_target, melee.parry_target, melee.riposte_target
        )
        details: dict[str, Any] = {
            "attack": attack,
            "parry": parry,
            "attack_target": melee.attack_target,
            "parry_target": melee.parry_target,
        }
        if key != "no_hit":
            return _wound(key, melee, attack, parry, locations, details)
        effects: tuple[Effect, ...] = ()
        if breakage_rule:
            effects = _breakage(melee, attack, parry, details)
        return Outcome(key, details, effects)

    def parried(attack: int) -> Roller:
        return by_face(D12, "parry", partial(exchange, attack))

    return by_face(D12, "attack", parried)


def _wound(
    key: str, melee: MeleePlan, attack: int, parry: int, locations: bool, details: dict[str, Any]
) -> Roller:
    if key == "hit":
        who, modifier, margin = "target", melee.attack_damage, melee.attack_target - attack
    else:
        who, modifier, margin = "actor", melee.riposte_damage, (melee.riposte_target or 0) - parry
    good = t.MELEE_GOOD_HIT_DAMAGE if margin >= t.GOOD_HIT_MARGIN else 0

    def damage(face: int) -> Step:
        result = damage_result(face + modifier + good, melee.damage_table)
        effects = wound_effects(who, result)
        wounded = {**details, "damage": result}
        if locations and result in ("minor", "serious", "crippling"):
            return located(
                lambda location: Outcome(key, {**wounded, "location": location}, effects)
            )
        return Outcome(key, wounded, effects)

    return by_face(D12, "damage", damage)


@lru_cache(maxsize=32)
def wound_effects(who: str, result: str) -> tuple[Effect, ...]:
    """The battle-state effects of one damage result on `who` ("actor" or "target")."""
    side: Who = "actor" if who == "actor" else "target"
    if result == "dead":
        return (Effect(side, "status", "set", "dead", "struck dead"),)
    points = POINTS[result]
    if not points:
        return ()
    effects = [
        Effect(side, "wounds", "add", points, f"{result} wound"),
        Effect(side, "status", "set", "wounded"),
    ]
    if points >= POINTS["serious"]:
        effects.append(Effect(side, "down", "set", True, "knocked down by the wound"))
    return tuple(effects)


def _breakage(
    melee: MeleePlan, attack: int, parry: int, details: dict[str, Any]
) -> tuple[Effect, ...]:
    # Only a stroke that would have landed and was parried can break anything.
    if not (
        melee_success(attack, melee.attack_target) and melee_success(parry, melee.parry_target)
    ):
        return ()
    defender_broken, attacker_broken = breakage(attack, parry, melee.attack_item, melee.parry_item)
    details["defender_item_broken"] = melee.parry_item_name if defender_broken else None
    details["attacker_weapon_broken"] = attacker_broken
    effects = []
    if defender_broken:
        effects.append(Effect("target", f"broken_{melee.parry_item_name}", "set", True))
    if attacker_broken:
        effects.append(Effect("actor", "broken_weapon", "set", True))
    return tuple(effects)


def odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution over hit / riposte / no_hit."""
    return dict(_odds(tables, _params_key(params)))


@lru_cache(maxsize=4096)
def _odds(tables: t.RencounterTables, key: tuple[Any, ...]) -> tuple[tuple[str, Fraction], ...]:
    melee = plan(tables, key)
    result: Dist = dict.fromkeys(MELEE_OUTCOMES, Fraction(0))
    for attack in range(1, 13):
        for parry in range(1, 13):
            outcome = melee_result(
                attack, parry, melee.attack_target, melee.parry_target, melee.riposte_target
            )
            result[outcome] += TWELFTH * TWELFTH
    return tuple(result.items())
