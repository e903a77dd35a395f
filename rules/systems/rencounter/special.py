"""Rencounter's special checks: horsemanship, the heroes rule, grenades and artillery."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.checks import (
    Effect,
    Outcome,
    Roller,
    Step,
    as_roller,
    by_face,
    counted,
    face_odds,
    no_dice,
)
from rules.dice import D6, D12
from rules.schema import Field, Schema
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.combat import (
    TWELFTH,
    Dist,
    action_from_total,
    damage_faces,
    damage_odds,
    shot_hit_odds,
    shot_roll,
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


def prepare_horsemanship(params: Mapping[str, Any]) -> Roller:
    """Roll a d6 with wound and morale modifiers at or under horsemanship."""

    def ride(natural: int) -> Outcome:
        total = _horse_total(params, natural)
        result = _horse_result(total, params["horsemanship"], params["jump"])
        effects = (
            (Effect("actor", "down", "set", True, "thrown from the horse"),)
            if result == "falls"
            else ()
        )
        return Outcome(result, {"natural": natural, "total": total}, effects)

    return by_face(D6, "horsemanship", ride)


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


def prepare_hero(params: Mapping[str, Any]) -> Roller:
    """First morale roll's natural die within the threshold, then unmodified experience."""

    def first_roll(first: int) -> Step:
        if first > params["threshold"]:
            return Outcome("ordinary", {"first": first})

        def hero_roll(second: int) -> Outcome:
            if second > params["experience"]:
                return Outcome("falters", {"first": first, "second": second})
            return Outcome(
                "inspired",
                {"first": first, "second": second},
                (Effect("actor", "inspired", "set", True, "no more morale checks"),),
            )

        return by_face(D6, "hero roll", hero_roll)

    return by_face(D6, "first morale roll (natural)", first_roll)


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


def prepare_grenade(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Roll the blast damage for one man; light blasts knock down on a failed action check."""
    modifier = t.GRENADE_DAMAGE + params["distance"] + params["modifier"]
    results = damage_faces(tables.damage_table, modifier)

    def blast(face: int) -> Step:
        total = face + modifier
        result = results[face - 1]
        if result in ("serious", "crippling", "dead"):
            return Outcome(result, {"total": total}, wound_effects("target", result))
        if result == "no_effect" and total > t.GRENADE_KNOCKDOWN_UP_TO:
            return Outcome("no_effect", {"total": total})
        new_points = 1 if result == "minor" else 0

        def knock_down(natural: int) -> Outcome:
            down = not _stands(params, natural, new_points)
            key = result if result == "minor" else ("knocked_down" if down else "no_effect")
            effects = wound_effects("target", result) + (
                (Effect("target", "down", "set", True, "knocked down by the blast"),)
                if down
                else ()
            )
            return Outcome(key, {"total": total, "knocked_down": down}, effects)

        return by_face(D6, "knock down check", knock_down)

    return by_face(D12, "grenade damage", blast)


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


def prepare_fuse(params: Mapping[str, Any]) -> Roller:
    """Hollywood grenades: at the thrower's next action, a 12 is a dud."""
    return by_face(
        D12,
        "fuse",
        lambda roll: Outcome("dud" if roll == t.GRENADE_DUD else "explodes", {"roll": roll}),
    )


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


def prepare_artillery(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Roll canister or grape against one man in the cone (the first roll of the shot)."""
    need, damage = _artillery_need(params)
    quick_loaded = params["quick_loaded"]

    def missed(natural: int | None) -> Outcome:
        if quick_loaded and natural == t.FIRE_AUTO_MISS:
            return Outcome("misfire", {"need": need}, ())
        return Outcome("miss", {"need": need})

    def landed(margin: int) -> Roller:
        good = t.FIRE_GOOD_HIT_DAMAGE if margin >= t.GOOD_HIT_MARGIN else 0
        results = damage_faces(tables.damage_table, damage + good)

        def damaged(face: int) -> Outcome:
            result = results[face - 1]
            return Outcome(result, {"need": need}, wound_effects("target", result))

        return by_face(D12, "damage", damaged)

    return as_roller(shot_roll(need, landed, missed, by_face))


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


def prepare_misfire(params: Mapping[str, Any]) -> Roller:
    """Roll the misfire and accident table; an early shot also rolls high or low."""

    def misfire(roll: int) -> Step:
        key = _misfire_key(roll)
        if not key.startswith("premature"):
            return Outcome(key, {})
        return by_face(
            D6,
            "premature shot high or low",
            lambda face: Outcome(
                key, {"shot": "high" if face <= t.PREMATURE_HIGH_UP_TO else "low"}
            ),
        )

    return by_face(D12, "misfire", misfire)


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


def prepare_stuck(params: Mapping[str, Any]) -> Roller:
    """After a crippling wound or a kill: d12 at or under melee skill pulls the weapon free."""

    def unstick(roll: int) -> Outcome:
        key = _stuck_key(roll, params["melee_skill"], params["blunt"])
        effects = (Effect("actor", "weapon_stuck", "set", True),) if key == "stuck" else ()
        return Outcome(key, {"roll": roll}, effects)

    return by_face(D12, "unstick weapon", unstick)


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


def prepare_fall(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Roll damage for a fall at the given speed."""
    modifier = fall_modifier(params["speed"]) + params["modifier"]
    results = damage_faces(tables.damage_table, modifier)

    def fall(face: int) -> Outcome:
        result = results[face - 1]
        return Outcome(result, {"modifier": modifier}, wound_effects("target", result))

    return by_face(D12, "fall damage", fall)


def fall_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution of a fall's damage."""
    return damage_odds(tables.damage_table, fall_modifier(params["speed"]) + params["modifier"])


ORDER_PARAMS = Schema((Field("wounds", "int", "The man's wound points", 0, 0, t.MAX_WOUND_POINTS),))


def prepare_order(params: Mapping[str, Any]) -> Roller:
    """A leader's direct order: an unwounded man acts; a wounded one needs under 7 - wounds."""
    wounds = params["wounds"]
    if not wounds:
        return no_dice(Outcome("acts", {}))
    return by_face(
        D6,
        "direct order",
        lambda roll: Outcome(
            "acts" if roll < t.ORDER_BASE - wounds else "hesitates", {"roll": roll}
        ),
    )


def order_odds(params: Mapping[str, Any]) -> Dist:
    """Exact odds of a direct order."""
    acts = (
        Fraction(max(0, min(6, t.ORDER_BASE - params["wounds"] - 1)), 6)
        if params["wounds"]
        else Fraction(1)
    )
    return {"acts": acts, "hesitates": 1 - acts}
