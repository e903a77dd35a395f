"""Rencounter's special checks: horsemanship, the heroes rule, grenades and artillery."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.checks import Effect, Outcome, counted, face_odds
from rules.dice import D6, D12, Dice
from rules.schema import Field, Schema
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.combat import (
    TWELFTH,
    Dist,
    action_from_total,
    damage_faces,
    damage_odds,
    shot_hit_odds,
    shot_hits,
)
from rules.systems.rencounter.melee import wound_effects

# --- horsemanship -----------------------------------------------------------------------------

HORSEMANSHIP_PARAMS = Schema(
    (
        Field("horsemanship", "int", "Horsemanship", required=True, min=1, max=8),
        Field("rider_wounds", "int", "Rider's wound points", 0, 0, t.MAX_WOUND_POINTS),
        Field("horse_wounds", "int", "Horse's wound points", 0, 0, t.MAX_WOUND_POINTS),
        Field("morale", "int", "Morale modifier", 0, -6, 12),
        Field(
            "modifier",
            "int",
            "Other modifiers",
            0,
            -6,
            12,
            help='e.g. +1 per 6" of fence over 2.5 feet, +1 per 3-6" over a wood\'s safe speed',
        ),
        Field(
            "jump",
            "bool",
            "Jumping an obstacle",
            False,
            help="A failure by an odd number balks, by an even number unseats",
        ),
    )
)


def _horse_result(total: int, horsemanship: int, jump: bool) -> str:
    if total <= horsemanship:
        return "keeps_control"
    return "balks" if jump and (total - horsemanship) % 2 else "falls"


def _horse_total(params: Mapping[str, Any], natural: int) -> int:
    return int(
        natural
        + params["rider_wounds"]
        + params["horse_wounds"]
        + params["morale"]
        + params["modifier"]
    )


def resolve_horsemanship(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Roll a d6 with wound and morale modifiers at or under horsemanship."""
    natural = dice.roll(D6, "horsemanship")
    total = _horse_total(params, natural)
    result = _horse_result(total, params["horsemanship"], params["jump"])
    effects = (
        (Effect("actor", "down", "set", True, "thrown from the horse"),)
        if result == "falls"
        else ()
    )
    return Outcome(result, {"natural": natural, "total": total}, effects)


def horsemanship_odds(params: Mapping[str, Any]) -> Dist:
    """Exact distribution of a horsemanship check."""
    return face_odds(
        range(1, 7),
        lambda natural: _horse_result(
            _horse_total(params, natural), params["horsemanship"], params["jump"]
        ),
    )


# --- heroes optional rule ---------------------------------------------------------------------

HERO_PARAMS = Schema(
    (
        Field("experience", "int", "Experience", required=True, min=1, max=6),
        Field(
            "threshold",
            "int",
            "Hero roll",
            1,
            1,
            6,
            help="The first morale roll's natural die at or under this gives a second roll",
        ),
    )
)


def resolve_hero(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """First morale roll's natural die within the threshold, then unmodified experience."""
    first = dice.roll(D6, "first morale roll (natural)")
    if first > params["threshold"]:
        return Outcome("ordinary", {"first": first})
    second = dice.roll(D6, "hero roll")
    if second > params["experience"]:
        return Outcome("falters", {"first": first, "second": second})
    return Outcome(
        "inspired",
        {"first": first, "second": second},
        (Effect("actor", "inspired", "set", True, "no more morale checks"),),
    )


def hero_odds(params: Mapping[str, Any]) -> Dist:
    """Exact distribution of the heroes rule's two rolls."""
    # Whole ways out of 36: the first d6 within the threshold, then the second within experience.
    window = 6 * params["threshold"]
    inspired = params["threshold"] * params["experience"]
    return counted(
        {"ordinary": 36 - window, "falters": window - inspired, "inspired": inspired}, 36
    )


# --- grenades -------------------------------------------------------------------------------

GRENADE_OUTCOMES = ("no_effect", "knocked_down", "minor", "serious", "crippling", "dead")
GRENADE_PARAMS = Schema(
    (
        Field("distance", "int", "Distance in half inches", 0, 0, 48),
        Field(
            "modifier",
            "int",
            "Other damage modifiers",
            0,
            -12,
            12,
            help="e.g. -3 for a man throwing himself on it",
        ),
        Field("experience", "int", "Target's experience", 4, 1, 6),
        Field("wounds", "int", "Target's wound points before", 0, 0, t.MAX_WOUND_POINTS),
    )
)


def _stands(params: Mapping[str, Any], natural: int, new_points: int) -> bool:
    wounds = params["wounds"] + new_points
    return action_from_total(params["experience"], wounds, natural, natural + wounds) == "acts"


def resolve_grenade(tables: t.RencounterTables, params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Roll the blast damage for one man; light blasts knock down on a failed action check."""
    face = dice.roll(D12, "grenade damage")
    modifier = t.GRENADE_DAMAGE + params["distance"] + params["modifier"]
    total = face + modifier
    result = damage_faces(tables.damage_table, modifier)[face - 1]
    if result in ("serious", "crippling", "dead"):
        return Outcome(result, {"total": total}, wound_effects("target", result))
    if result == "no_effect" and total > t.GRENADE_KNOCKDOWN_UP_TO:
        return Outcome("no_effect", {"total": total})
    new_points = 1 if result == "minor" else 0
    down = not _stands(params, dice.roll(D6, "knock down check"), new_points)
    key = result if result == "minor" else ("knocked_down" if down else "no_effect")
    effects = wound_effects("target", result) + (
        (Effect("target", "down", "set", True, "knocked down by the blast"),) if down else ()
    )
    return Outcome(key, {"total": total, "knocked_down": down}, effects)


def grenade_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution of a grenade blast on one man."""
    # Counted in whole ways out of 72 (the d12, then the d6 to stay standing).
    counts = dict.fromkeys(GRENADE_OUTCOMES, 0)
    modifier = t.GRENADE_DAMAGE + params["distance"] + params["modifier"]
    for face, result in enumerate(damage_faces(tables.damage_table, modifier), start=1):
        total = face + modifier
        if result != "no_effect" or total > t.GRENADE_KNOCKDOWN_UP_TO:
            counts[result] += 6
            continue
        stands = sum(_stands(params, n, 0) for n in range(1, 7))
        counts["no_effect"] += stands
        counts["knocked_down"] += 6 - stands
    return counted(counts, 72)


FUSE_PARAMS = Schema(())


def resolve_fuse(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Hollywood grenades: at the thrower's next action, a 12 is a dud."""
    roll = dice.roll(D12, "fuse")
    return Outcome("dud" if roll == t.GRENADE_DUD else "explodes", {"roll": roll})


def fuse_odds(params: Mapping[str, Any]) -> Dist:
    """Exact odds of the fuse."""
    return {"explodes": 11 * TWELFTH, "dud": TWELFTH}


# --- artillery ------------------------------------------------------------------------------

ARTILLERY_OUTCOMES = ("miss", *t.DAMAGE_RESULTS, "misfire")
ARTILLERY_PARAMS = Schema(
    (
        Field("skill", "int", "Artillery fire skill", t.ARTILLERY_SKILL, 2, 12),
        Field(
            "range",
            "choice",
            "Range (inches)",
            12,
            choices=tuple((r, f'{r}" ({band})') for r, (band, _, _) in t.CANISTER.items()),
        ),
        Field(
            "load",
            "choice",
            "Load",
            "canister",
            choices=(("canister", "Canister"), ("grape", "Grape")),
        ),
        Field("gun", "choice", "Gun", "6lb", choices=tuple((g, g) for g in t.GUN_SIZE_TO_HIT)),
        Field(
            "ground", "choice", "Ground", "normal", choices=tuple((g, g) for g in t.GROUND_TO_HIT)
        ),
        Field("modifier", "int", "Other to-hit modifiers", 0, -12, 12),
        Field("damage_modifier", "int", "Other damage modifiers", 0, -12, 12),
        Field(
            "quick_loaded",
            "bool",
            "Quick loaded",
            False,
            help="A natural 12 on the first to-hit roll is a misfire",
        ),
    )
)


def _artillery_need(params: Mapping[str, Any]) -> tuple[int, int]:
    band, to_hit, damage = t.CANISTER[params["range"]]
    grape = t.GRAPE_TO_HIT[band] if params["load"] == "grape" else 0
    need = (
        params["skill"]
        + to_hit
        + grape
        + t.GUN_SIZE_TO_HIT[params["gun"]]
        + t.GROUND_TO_HIT[params["ground"]]
        + params["modifier"]
    )
    return need, damage + params["damage_modifier"]


def resolve_artillery(tables: t.RencounterTables, params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Roll canister or grape against one man in the cone (the first roll of the shot)."""
    need, damage = _artillery_need(params)
    before = len(dice.rolls)
    hit, margin = shot_hits(need, dice)
    rolled_12 = len(dice.rolls) > before and dice.rolls[before].value == t.FIRE_AUTO_MISS
    if params["quick_loaded"] and rolled_12:
        return Outcome("misfire", {"need": need}, ())
    if not hit:
        return Outcome("miss", {"need": need})
    good = t.FIRE_GOOD_HIT_DAMAGE if margin >= t.GOOD_HIT_MARGIN else 0
    result = damage_faces(tables.damage_table, damage + good)[dice.roll(D12, "damage") - 1]
    return Outcome(result, {"need": need}, wound_effects("target", result))


def artillery_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution of one canister or grape roll."""
    need, damage = _artillery_need(params)
    plain, good = shot_hit_odds(need)
    # Counted in whole ways out of 1728: the to-hit d12 and its confirming d12 (144), then
    # the damage d12 for a hit.
    misfires = params["quick_loaded"] and need >= min(t.CONFIRMATION)
    counts = dict.fromkeys(ARTILLERY_OUTCOMES, 0)
    counts["misfire"] = 144 if misfires else 0
    hits = ((_ways(plain, 144), damage), (_ways(good, 144), damage + t.FIRE_GOOD_HIT_DAMAGE))
    counts["miss"] = 1728 - counts["misfire"] - 12 * sum(ways for ways, _ in hits)
    for ways, modifier in hits:
        for result in damage_faces(tables.damage_table, modifier):
            counts[result] += ways
    return counted(counts, 1728)


def _ways(chance: Fraction, out_of: int) -> int:
    """A chance as whole ways out of `out_of` (which its denominator divides)."""
    ways = chance * out_of
    assert ways.denominator == 1, f"{chance} is not in {out_of}ths"
    return ways.numerator


MISFIRE_OUTCOMES = tuple(key for _, key, _ in t.MISFIRES)
MISFIRE_PARAMS = Schema(())


def _misfire_key(roll: int) -> str:
    return next(key for highest, key, _ in t.MISFIRES if roll <= highest)


def resolve_misfire(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Roll the misfire and accident table; an early shot also rolls high or low."""
    key = _misfire_key(dice.roll(D12, "misfire"))
    details: dict[str, Any] = {}
    if key.startswith("premature"):
        high = dice.roll(D6, "premature shot high or low") <= t.PREMATURE_HIGH_UP_TO
        details["shot"] = "high" if high else "low"
    return Outcome(key, details)


def misfire_odds(params: Mapping[str, Any]) -> Dist:
    """Exact distribution of the misfire table."""
    return face_odds(range(1, 13), _misfire_key)


# --- weapons stuck, falls, a leader's direct order ------------------------------------------

STUCK_PARAMS = Schema(
    (
        Field("melee_skill", "int", "Melee skill", required=True, min=2, max=12),
        Field("blunt", "bool", "Blunt weapon", False, help="Blunt weapons never stick"),
    )
)


def _stuck_key(roll: int, skill: int, blunt: bool) -> str:
    if roll == t.STUCK_BROKEN_ON:
        return "broken"
    return "freed" if blunt or roll <= skill else "stuck"


def resolve_stuck(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """After a crippling wound or a kill: d12 at or under melee skill pulls the weapon free."""
    roll = dice.roll(D12, "unstick weapon")
    key = _stuck_key(roll, params["melee_skill"], params["blunt"])
    effects = (Effect("actor", "weapon_stuck", "set", True),) if key == "stuck" else ()
    return Outcome(key, {"roll": roll}, effects)


def stuck_odds(params: Mapping[str, Any]) -> Dist:
    """Exact odds of freeing, sticking or breaking the weapon."""
    return face_odds(
        range(1, 13), lambda face: _stuck_key(face, params["melee_skill"], params["blunt"])
    )


FALL_PARAMS = Schema(
    (
        Field("speed", "int", "Speed in inches per turn", required=True, min=0, max=60),
        Field("modifier", "int", "Other damage modifiers", 0, -12, 12),
    )
)


def fall_modifier(speed: int) -> int:
    """Damage modifier of a fall from a horse or vehicle at `speed` inches per turn."""
    for top, modifier in t.FALL_DAMAGE:
        if speed <= top:
            return modifier
    fastest_top = t.FALL_DAMAGE[-1][0]
    return (fastest_top - speed) // t.FALL_SPEED_STEP  # -1 per 6" or part of 6"


def resolve_fall(tables: t.RencounterTables, params: Mapping[str, Any], dice: Dice) -> Outcome:
    """Roll damage for a fall at the given speed."""
    modifier = fall_modifier(params["speed"]) + params["modifier"]
    result = damage_faces(tables.damage_table, modifier)[dice.roll(D12, "fall damage") - 1]
    return Outcome(result, {"modifier": modifier}, wound_effects("target", result))


def fall_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution of a fall's damage."""
    return damage_odds(tables.damage_table, fall_modifier(params["speed"]) + params["modifier"])


ORDER_PARAMS = Schema((Field("wounds", "int", "The man's wound points", 0, 0, t.MAX_WOUND_POINTS),))


def resolve_order(params: Mapping[str, Any], dice: Dice) -> Outcome:
    """A leader's direct order: an unwounded man acts; a wounded one needs under 7 - wounds."""
    if not params["wounds"]:
        return Outcome("acts", {})
    roll = dice.roll(D6, "direct order")
    return Outcome(
        "acts" if roll < t.ORDER_BASE - params["wounds"] else "hesitates", {"roll": roll}
    )


def order_odds(params: Mapping[str, Any]) -> Dist:
    """Exact odds of a direct order."""
    acts = (
        Fraction(max(0, min(6, t.ORDER_BASE - params["wounds"] - 1)), 6)
        if params["wounds"]
        else Fraction(1)
    )
    return {"acts": acts, "hesitates": 1 - acts}
