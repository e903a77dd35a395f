"""Rencounter's checks: the contract six (action, fire, melee, damage, improvement,
aftermath) and the others a table needs (morale, duck back, horsemanship, hero, grenade,
artillery, misfire)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Literal

from rules import aftermath
from rules.checks import (
    JUDGED,
    Check,
    Effect,
    FromActor,
    FromEquipment,
    FromState,
    FromTarget,
    Odds,
    Outcome,
    Preparer,
    Roller,
    Source,
    by_face,
    declare,
    odds_key,
    resolved_by,
)
from rules.dice import D12, Dice, d
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.rencounter import fire, melee, special
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.combat import (
    Dist,
    action_odds,
    action_step,
    damage_faces,
    damage_odds,
    located,
)
from rules.systems.rencounter.melee import wound_effects

ACTION_OUTCOMES = ("acts", "hesitates", "falls_back", "routs", "collapses")
_VARIANT = Field(
    "master_variant",
    "choice",
    "Masters",
    "always",
    choices=(("always", "always act"), ("confirm", "6 then 4-6 fails")),
)
_EXPERIENCE = Field("experience", "int", "Experience", required=True, min=1, max=6)
_WOUNDS = Field("wounds", "int", "Wound points", 0, 0, t.MAX_WOUND_POINTS)


def _cached(fn: Callable[..., Any]) -> Callable[[Mapping[str, Any]], Any]:
    """Cache an odds function on its (hashable) params: one cache per check built, so per
    tables snapshot (`build_checks`)."""

    @lru_cache(maxsize=2048)
    def cached(items: tuple[tuple[str, Any], ...]) -> Any:
        return fn(dict(items))

    def odds(params: Mapping[str, Any]) -> Any:
        return cached(odds_key(params))

    odds.cache_clear = cached.cache_clear  # type: ignore[attr-defined]  # bench/rules.py
    return odds


# --- action, morale, duck back ---------------------------------------------------------------

ACTION_PARAMS = Schema(
    (
        _EXPERIENCE,
        _WOUNDS,
        Field("morale", "int", "Morale modifier", 0, -6, 12, help="Added to the d6 roll"),
        _VARIANT,
    )
)

_ACTION_STATUS = {"falls_back": "falling_back", "routs": "routed", "collapses": "out"}


def _action_outcome(result: str, natural: int, total: int) -> Outcome:
    effects: tuple[Effect, ...] = ()
    if result in _ACTION_STATUS:
        effects = (Effect("actor", "status", "set", _ACTION_STATUS[result]),)
    return Outcome(result, {"natural": natural, "total": total}, effects)


def _prepare_action(params: Mapping[str, Any]) -> Roller:
    return action_step(
        params["experience"],
        params["wounds"],
        params["morale"],
        params["master_variant"],
        "action",
        _action_outcome,
    )


def _action_odds(params: Mapping[str, Any]) -> Dist:
    return action_odds(
        params["experience"], params["wounds"], params["morale"], params["master_variant"]
    )


MORALE_PARAMS = Schema(
    (
        _EXPERIENCE,
        _WOUNDS,
        Field(
            "men_lost",
            "int",
            "Men of the unit lost",
            0,
            0,
            20,
            help="Others of the unit out, crippled, dead or run away (not the leader)",
        ),
        Field("leader_lost", "bool", "Leader lost", False),
        Field(
            "unit_eliminated",
            "choice",
            "Friendly unit eliminated",
            "none",
            choices=tuple((k, k.replace("_", " ")) for k in t.MORALE_UNIT_ELIMINATED),
        ),
        Field("leader_steady", "bool", "Leader passed first (optional rule)", False),
        _VARIANT,
    )
)


def morale_modifier(params: Mapping[str, Any]) -> int:
    """Add up the morale modifiers of a morale check."""
    return int(
        params["men_lost"] * t.MORALE_PER_MAN_LOST
        + (t.MORALE_LEADER_LOST if params["leader_lost"] else 0)
        + t.MORALE_UNIT_ELIMINATED[params["unit_eliminated"]]
        + (t.MORALE_LEADER_STEADY if params["leader_steady"] else 0)
    )


def _prepare_morale(params: Mapping[str, Any]) -> Roller:
    return action_step(
        params["experience"],
        params["wounds"],
        morale_modifier(params),
        params["master_variant"],
        "morale",
        _action_outcome,
    )


def _morale_odds(params: Mapping[str, Any]) -> Dist:
    return action_odds(
        params["experience"], params["wounds"], morale_modifier(params), params["master_variant"]
    )


def _prepare_duck_back(params: Mapping[str, Any]) -> Roller:
    return action_step(
        params["experience"],
        params["wounds"],
        params["morale"] + t.DUCK_BACK_PENALTY,
        params["master_variant"],
        "duck back",
        _duck_back_outcome,
    )


def _duck_back_outcome(result: str, natural: int, total: int) -> Outcome:
    if result == "acts":
        return Outcome("stays", {"natural": natural, "total": total})
    return Outcome(
        "ducks_back",
        {"natural": natural, "total": total},
        (Effect("actor", "ducked", "set", True, "ducked behind cover"),),
    )


def _duck_back_odds(params: Mapping[str, Any]) -> Dist:
    odds = action_odds(
        params["experience"],
        params["wounds"],
        params["morale"] + t.DUCK_BACK_PENALTY,
        params["master_variant"],
    )
    stays = odds.get("acts", Fraction(0))
    return {"stays": stays, "ducks_back": 1 - stays}


# --- damage, improvement, aftermath ----------------------------------------------------------

DAMAGE_PARAMS = Schema(
    (
        Field("modifier", "int", "Damage modifier", 0, -12, 12),
        Field("locations", "bool", "Roll hit locations", False),
    )
)


def _prepare_damage(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    results, locations = damage_faces(tables.damage_table, params["modifier"]), params["locations"]

    def damage(face: int) -> Outcome | Roller:
        result = results[face - 1]
        effects = wound_effects("target", result)
        if locations and result in ("minor", "serious", "crippling"):
            return located(lambda location: Outcome(result, {"location": location}, effects))
        return Outcome(result, {}, effects)

    return by_face(D12, "damage", damage)


def improvable(tables: t.RencounterTables, stat: str) -> tuple[int, int]:
    """The die an improvement roll of `stat` uses and the highest it raises the stat to.

    The cap is a house-rules table (the snapshot's); the die is the text's.
    """
    return t.IMPROVEMENT_DICE[stat][0], tables.improvement_caps[stat]


def _clean_improvement(values: dict[str, Any]) -> dict[str, Any]:
    # The stat's own range, not the club's cap: a man already past a lowered cap still rolls
    # (and cannot improve).
    _, lowest, highest = t.IMPROVEMENT_DICE[values["stat"]]
    if not lowest <= values["value"] <= highest:
        raise ValidationError({"value": f"{values['stat']} runs from {lowest} to {highest}"})
    return values


IMPROVEMENT_PARAMS = Schema(
    (
        Field(
            "stat",
            "choice",
            "Stat",
            required=True,
            choices=tuple((k, k) for k in t.IMPROVEMENT_DICE),
        ),
        Field("value", "int", "Current value", required=True, min=1, max=12),
    ),
    clean=_clean_improvement,
)


def _prepare_improvement(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    sides, maximum = improvable(tables, params["stat"])
    value = params["value"]

    def improvement(roll: int) -> Outcome:
        after = aftermath.improved_value(roll, value=value, maximum=maximum)
        return Outcome(
            "improves" if after > value else "unchanged",
            {"roll": roll, "before": value, "after": after},
        )

    # The label `aftermath.improvement_roll` gives the die (the campaign procedure's roll).
    return by_face(d(sides), f"improvement: {params['stat']}", improvement)


def _improvement_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    sides, maximum = improvable(tables, params["stat"])
    return aftermath.improvement_odds(value=params["value"], sides=sides, maximum=maximum)


def _clean_aftermath(values: dict[str, Any]) -> dict[str, Any]:
    aftermath.check_care(values["care"], values["hazard"])
    return values


AFTERMATH_PARAMS = Schema(
    (
        Field("wounds", "int", "Wound points", required=True, min=1, max=t.MAX_WOUND_POINTS),
        Field("care", "choice", "Care", "none", choices=aftermath.CARE_CHOICES),
        Field(
            "hazard", "int", "Hazardous aftermath", 0, 0, 2, help="Subtract 1 or 2 from each roll"
        ),
    ),
    clean=_clean_aftermath,
)


def _prepare_aftermath(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    roll = aftermath.aftermath_roll(
        wounds=params["wounds"],
        care=params["care"],
        hazard=params["hazard"],
        bands=tables.aftermath_bands,
    )

    def aftermath_of(dice: Dice) -> Outcome:
        permanent, healed, sepsis = roll(dice)
        key = _AFTERMATH_KEYS[permanent] if permanent < len(_AFTERMATH_KEYS) else "dies"
        details = {"permanent": permanent, "healed": healed, "sepsis": sepsis}
        return _new_outcome(Outcome, (key, details, ()))

    return aftermath_of


_new_outcome = tuple.__new__
#: The outcome of each count of permanent points a man survives (`aftermath.Aftermath`'s).
_AFTERMATH_KEYS = tuple(
    aftermath.Aftermath(n, 0, 0).outcome for n in range(aftermath.MAX_PERMANENT_SURVIVABLE + 1)
)


def _aftermath_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Odds:
    odds = aftermath.aftermath_odds(
        wounds=params["wounds"],
        care=params["care"],
        hazard=params["hazard"],
        bands=tables.aftermath_bands,
    )
    return Odds(odds, exact=False, error_bound=aftermath.AFTERMATH_ERROR_BOUND)


def _check(
    name: str,
    title: str,
    params: Schema,
    outcomes: tuple[str, ...],
    preparer: Preparer,
    odds_fn: Callable[..., Any],
    dice_order: str,
    skill: str | None = None,
    cache: bool = True,
    friendly_fire: bool = False,
    aims_at: Literal["foe", "friend", "any"] = "foe",
) -> Check:
    # The resolver rolls what the preparer prepares, remembering each question: one memo per
    # check built, so per tables snapshot (`build_checks` binds the snapshot into `preparer`).
    return Check(
        name,
        title,
        params,
        outcomes,
        resolved_by(preparer),
        _cached(odds_fn) if cache else odds_fn,
        description=title,
        dice_order=dice_order,
        skill=skill,
        friendly_fire=friendly_fire,
        aims_at=aims_at,
        preparer=preparer,
    )


DUCK_BACK_PARAMS = ACTION_PARAMS

# --- where each parameter comes from (the table reads these, never a parameter's name) -----

#: A man's action roll: his experience, the wound points his battle state carries.
_ACTION_SOURCES: dict[str, Source] = {
    "experience": FromActor("experience"),
    "wounds": FromState("wounds"),
    "morale": JUDGED,  # the morale modifiers of the moment: the player's call
    "master_variant": JUDGED,  # a table's choice of the optional rule
}

SOURCES: dict[str, dict[str, Source]] = {
    "action": _ACTION_SOURCES,
    "duck_back": _ACTION_SOURCES,
    "fire": {
        "skill": FromActor("fire"),
        "weapon": FromEquipment("weapons", otherwise="none"),
        "target_armour": FromEquipment("armour", of="target"),
        "target_shield": FromEquipment("shield", of="target"),
        **dict.fromkeys(
            ("modifier", "damage_modifier", "range", "shots", "cover", "locations"), JUDGED
        ),
    },
    "melee": {
        "attack_skill": FromActor("melee"),
        "parry_skill": FromTarget("melee"),
        "weapon": FromEquipment("weapons", otherwise="none"),
        "defender_weapon": FromEquipment("weapons", of="target", otherwise="none"),
        # "Masters ignore gang-up modifiers": a master is experience 6.
        "defender_master": FromTarget("experience", equals=6),
        "defender_armour": FromEquipment("armour", of="target"),
        "defender_shield": FromEquipment("shield", of="target"),
        "defender_shield_make": FromEquipment("shield_make", of="target"),
        "attacker_armour": FromEquipment("armour"),
        "attacker_shield": FromEquipment("shield"),
        **dict.fromkeys(
            (
                "attack_modifier",
                "parry_modifier",
                "riposte",
                "attackers",
                "aggressive",
                "damage_modifier",
                "breakage",
                "locations",
            ),
            JUDGED,
        ),
    },
    "damage": {"modifier": JUDGED, "locations": JUDGED},
    # Campaign procedures: which stat to roll for, the care a wounded man had.
    "improvement": {"stat": JUDGED, "value": JUDGED},
    "aftermath": {"wounds": FromState("wounds"), "care": JUDGED, "hazard": JUDGED},
    "morale": {
        "experience": FromActor("experience"),
        "wounds": FromState("wounds"),
        **dict.fromkeys(
            ("men_lost", "leader_lost", "unit_eliminated", "leader_steady", "master_variant"),
            JUDGED,
        ),
    },
    "horsemanship": {
        "horsemanship": FromActor("horsemanship"),
        "rider_wounds": FromState("wounds"),
        **dict.fromkeys(("horse_wounds", "morale", "modifier", "jump"), JUDGED),
    },
    "hero": {"experience": FromActor("experience"), "threshold": FromActor("hero_threshold")},
    # The blast's victim is the target: his experience and wounds decide if he is knocked down.
    "grenade": {
        "experience": FromTarget("experience"),
        "wounds": FromState("wounds", of="target"),
        "distance": JUDGED,
        "modifier": JUDGED,
    },
    "grenade_fuse": {},
    # The single-shot weapon carried, and the turns already spent on it (the battle state).
    "reload": {
        "weapon": FromEquipment("weapons"),
        "progress": FromState("reload_progress"),
    },
    "artillery": {
        "skill": FromActor("fire"),
        **dict.fromkeys(
            ("range", "load", "gun", "ground", "modifier", "damage_modifier", "quick_loaded"),
            JUDGED,
        ),
    },
    "weapon_stuck": {"melee_skill": FromActor("melee"), "blunt": JUDGED},
    "fall": {"speed": JUDGED, "modifier": JUDGED},
    # The man ordered is the target (one of the leader's own): his wounds.
    "direct_order": {"wounds": FromState("wounds", of="target")},
    "misfire": {},
}

#: Checks that concern the acting man alone: no target to choose.
ALONE = frozenset(
    {
        "action",
        "duck_back",
        "improvement",
        "aftermath",
        "morale",
        "horsemanship",
        "hero",
        "grenade_fuse",
        "reload",
        "weapon_stuck",
        "misfire",
    }
)


def build_checks(tables: t.RencounterTables) -> dict[str, Check]:
    """Every check, reading `tables`: fire's and melee's parameters list its weapons, shields
    and cover, and each odds function gets a cache of its own (one per snapshot)."""
    checks = (
        _check(
            "action",
            "Action roll: d6 + wounds + morale at or under experience",
            ACTION_PARAMS,
            ACTION_OUTCOMES,
            _prepare_action,
            _action_odds,
            "d6 action; a master's natural 6 under the confirm variant: d6 confirm",
            skill="experience",
        ),
        _check(
            "fire",
            "Fire: d12 at or under skill + modifiers, then damage",
            fire.build_params(tables),
            fire.FIRE_OUTCOMES,
            partial(fire.prepare, tables),
            partial(fire.odds, tables),
            "per shot: d12 to hit, d12 confirm (natural 1 needing 0 to -4 only), d12 damage "
            "(on a hit), d6 location (wounds, with locations)",
            skill="fire",
            cache=False,
        ),
        _check(
            "reload",
            "Reload: a turn spent reloading a single-shot weapon",
            fire.build_reload_params(tables),
            fire.RELOAD_OUTCOMES,
            partial(fire.prepare_reload, tables),
            partial(fire.reload_odds, tables),
            "no dice",
            cache=False,
        ),
        _check(
            "melee",
            "Melee: attack d12 against parry d12",
            melee.build_params(tables),
            melee.MELEE_OUTCOMES,
            partial(melee.prepare, tables),
            partial(melee.odds, tables),
            "d12 attack, d12 parry, d12 damage (hit or riposte), d6 location (with locations)",
            skill="melee",
            cache=False,
        ),
        _check(
            "damage",
            "Damage: d12 + modifier on the damage table",
            DAMAGE_PARAMS,
            t.DAMAGE_RESULTS,
            partial(_prepare_damage, tables),
            lambda p: damage_odds(tables.damage_table, p["modifier"]),
            "d12 damage, d6 location (with locations)",
            # A shot that strikes an interposed friend, or a horse colliding with friendly foot.
            friendly_fire=True,
        ),
        _check(
            "improvement",
            "Improvement: roll over the stat on its own die",
            IMPROVEMENT_PARAMS,
            ("improves", "unchanged"),
            partial(_prepare_improvement, tables),
            partial(_improvement_odds, tables),
            "one die: d6 for experience and horsemanship, d12 for skills",
        ),
        _check(
            "aftermath",
            "Wound aftermath: d6 per wound point",
            AFTERMATH_PARAMS,
            aftermath.AFTERMATH_OUTCOMES,
            partial(_prepare_aftermath, tables),
            partial(_aftermath_odds, tables),
            "a d6 per wound point in order, each followed by its prompt-care reroll if due; "
            "then the two dice of each sepsis point in the order they arose",
        ),
        _check(
            "morale",
            "Morale check: an action roll with the morale modifiers",
            MORALE_PARAMS,
            ACTION_OUTCOMES,
            _prepare_morale,
            _morale_odds,
            "d6 morale; a master's natural 6 under the confirm variant: d6 confirm",
            skill="experience",
        ),
        _check(
            "duck_back",
            "Duck back: action roll at -2 after a near miss from cover",
            DUCK_BACK_PARAMS,
            ("stays", "ducks_back"),
            _prepare_duck_back,
            _duck_back_odds,
            "d6 action; master confirm d6 if due",
            skill="experience",
        ),
        _check(
            "horsemanship",
            "Horsemanship: d6 + wounds + morale at or under horsemanship",
            special.HORSEMANSHIP_PARAMS,
            ("keeps_control", "balks", "falls"),
            special.prepare_horsemanship,
            special.horsemanship_odds,
            "d6",
            skill="horsemanship",
        ),
        _check(
            "hero",
            "Heroes optional rule: natural roll in the window, then experience",
            special.HERO_PARAMS,
            ("inspired", "falters", "ordinary"),
            special.prepare_hero,
            special.hero_odds,
            "d6 natural of the first morale roll, d6 hero roll (if due)",
        ),
        _check(
            "grenade",
            "Grenade blast on one man",
            special.GRENADE_PARAMS,
            special.GRENADE_OUTCOMES,
            partial(special.prepare_grenade, tables),
            partial(special.grenade_odds, tables),
            "d12 damage, d6 knock-down action check (minor wound or a roll of 14 or less)",
            friendly_fire=True,  # the blast strikes every man near it, friends included
        ),
        _check(
            "grenade_fuse",
            "Hollywood grenade fuse",
            special.FUSE_PARAMS,
            ("explodes", "dud"),
            special.prepare_fuse,
            special.fuse_odds,
            "d12",
        ),
        _check(
            "artillery",
            "Canister or grape against one man in the cone",
            special.ARTILLERY_PARAMS,
            special.ARTILLERY_OUTCOMES,
            partial(special.prepare_artillery, tables),
            partial(special.artillery_odds, tables),
            "d12 to hit, d12 confirm (natural 1 needing 0 to -4), d12 damage",
            skill="fire",
            friendly_fire=True,  # "versus all targets in that cone, friend and foe"
        ),
        _check(
            "weapon_stuck",
            "Weapons stuck optional rule: unstick at or under melee skill",
            special.STUCK_PARAMS,
            ("freed", "stuck", "broken"),
            special.prepare_stuck,
            special.stuck_odds,
            "d12",
        ),
        _check(
            "fall",
            "Falling from a horse or vehicle",
            special.FALL_PARAMS,
            t.DAMAGE_RESULTS,
            partial(special.prepare_fall, tables),
            partial(special.fall_odds, tables),
            "d12 damage",
            aims_at="any",  # a man's own fall: the one hurt may be the roller himself
        ),
        _check(
            "direct_order",
            "A leader's direct order to a man who failed to act",
            special.ORDER_PARAMS,
            ("acts", "hesitates"),
            special.prepare_order,
            special.order_odds,
            "d6 (only for a wounded man)",
            aims_at="friend",  # a leader orders one of his own men
        ),
        _check(
            "misfire",
            "Misfires and accidents",
            special.MISFIRE_PARAMS,
            special.MISFIRE_OUTCOMES,
            special.prepare_misfire,
            special.misfire_odds,
            "d12, then d6 high or low for an early shot",
        ),
    )
    return declare({c.name: c for c in checks}, SOURCES, ALONE)


CHECKS: dict[str, Check] = build_checks(t.BASE)
