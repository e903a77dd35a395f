"""Rencounter's dice mechanics as small pure functions, shared by checks, odds and simulation.

Hot paths (fire, melee) avoid allocation: targets are plain ints, results plain strings. The
damage table is a house-rules table: the caller passes the one of its tables snapshot
(`RencounterTables.damage_table`), and the faces it gives are cached per table and modifier
(`damage_faces`), never worked out per die or per resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import TypeAlias, TypeVar

from rules.checks import Outcome, Roller, Step, by_face, counted, exact, face_odds
from rules.dice import D6, D12, Dice, Die
from rules.systems.rencounter import tables as t

Dist = dict[str, Fraction]
#: A damage table as a tables snapshot holds it: (highest modified roll, result), in order.
DamageTable = tuple[tuple[int, str], ...]
TWELFTH = Fraction(1, 12)
SIXTH = Fraction(1, 6)
#: Wound points of each damage result; "dead" is handled apart (it ends the figure at once).
POINTS: dict[str, int] = {"no_effect": 0, "minor": 1, "serious": 2, "crippling": 3}
#: Below this need even a natural 1 cannot be confirmed.
CONFIRM_FLOOR = min(t.CONFIRMATION)


def damage_result(total: int, table: DamageTable) -> str:
    """Read a modified d12 damage roll on the damage table (the caller's snapshot's)."""
    for highest, result in table:
        if total <= highest:
            return result
    return "no_effect"


@lru_cache(maxsize=512)
def damage_faces(table: DamageTable, modifier: int) -> tuple[str, ...]:
    """The damage result of each d12 face with `modifier` (face 1 first), on `table`."""
    return tuple(damage_result(face + modifier, table) for face in range(1, 13))


def damage_odds(table: DamageTable, modifier: int) -> Dist:
    """Exact distribution of a damage roll with `modifier` on `table`."""
    faces = damage_faces(table, modifier)
    return face_odds(range(12), faces.__getitem__)


def level_of_points(points: int) -> str:
    """Name the wound level a number of wound points amounts to."""
    if points >= t.DEATH_POINTS:
        return "dead"
    if points >= t.WOUND_POINTS["crippling"]:
        return "crippling"
    return ("no_effect", "minor", "serious")[points]


# --- fire -----------------------------------------------------------------------------------


Part = TypeVar("Part")
#: What a face leads to: the final value, or the roll of the dice still to roll.
ShotStep: TypeAlias = "Part | Callable[[Dice], Part]"
#: How a die's faces become a roll: `rules.checks.by_face` for Outcomes (each roll copies the
#: details), `face_steps` with its final type for the parts of a roll (one shot of several).
FaceRoll: TypeAlias = (
    "Callable[[Die, str, Callable[[int], ShotStep[Part]]], Callable[[Dice], Part]]"
)


def shot_roll(
    need: int,
    landed: Callable[[int], ShotStep[Part]],
    missed: Callable[[int | None], ShotStep[Part]],
    faces: FaceRoll[Part],
) -> ShotStep[Part]:
    """The roll to hit needing `need` or less on a d12, prepared for one `need`: what follows
    a hit is `landed(margin by which it hit)`, what follows a miss `missed(natural to-hit die)`,
    each a final value or the roll of the dice that follow, made into rolls by `faces`.

    A natural 12 always misses. A natural 1 with a need of 0 to -4 hits only if confirmed on a
    second d12 (its margin is need - 1). At -5 or worse no shot can hit, so no die is rolled:
    that is `missed(None)`.
    """
    if need < CONFIRM_FLOOR:
        return missed(None)

    def to_hit(roll: int) -> ShotStep[Part]:
        if roll == t.FIRE_AUTO_MISS:
            return missed(roll)
        if roll <= need:
            return landed(need - roll)
        if roll == 1 and need in t.CONFIRMATION:
            confirm = t.CONFIRMATION[need]

            def confirmed(face: int) -> ShotStep[Part]:
                return landed(need - 1) if face <= confirm else missed(1)

            return faces(D12, "confirm natural 1", confirmed)
        return missed(roll)

    return faces(D12, "to hit", to_hit)


def shot_hit_odds(need: int) -> tuple[Fraction, Fraction]:
    """Return exact (chance of an ordinary hit, chance of a hit that succeeded by 3+)."""
    plain, good = shot_hit_ways(need)
    return exact(plain, 144), exact(good, 144)


def shot_hit_ways(need: int) -> tuple[int, int]:
    """`shot_hit_odds` in whole ways out of 144 (the to-hit d12 and its confirming d12)."""
    if need < CONFIRM_FLOOR:
        return 0, 0
    if need <= 0:
        return t.CONFIRMATION[need], 0
    hits = min(need, 11)
    good = max(0, min(need - t.GOOD_HIT_MARGIN, 11))
    return 12 * (hits - good), 12 * good


# --- melee ----------------------------------------------------------------------------------


def melee_success(roll: int, target: int) -> bool:
    """A natural 1 always succeeds, a natural 12 always fails; otherwise roll at or under."""
    return roll == t.MELEE_AUTO_SUCCESS or (roll != t.MELEE_AUTO_FAIL and roll <= target)


def melee_result(
    attack: int, parry: int, attack_target: int, parry_target: int, riposte_target: int | None
) -> str:
    """Decide hit / riposte / no_hit from the two d12s; `riposte_target` None: no riposte."""
    attack_ok = melee_success(attack, attack_target)
    parry_ok = melee_success(parry, parry_target)
    if attack_ok and not parry_ok:
        return "hit"
    if (
        riposte_target is not None
        and parry_ok
        and not attack_ok
        and melee_success(parry, riposte_target)
    ):
        return "riposte"
    return "no_hit"


def breakage(attack: int, parry: int, attack_damage: int, parry_item: int) -> tuple[bool, bool]:
    """Weapon breakage on a parried hit: (defender's item broken, attacker's weapon broken).

    Each side adds its own item's damage modifier to its roll and subtracts the other's; 2 or
    less breaks the other side's item.
    """
    defender_broken = attack + attack_damage - parry_item <= t.BREAKAGE_AT
    attacker_broken = parry + parry_item - attack_damage <= t.BREAKAGE_AT
    return defender_broken, attacker_broken


# --- action rolls ---------------------------------------------------------------------------


def permanent_failure_number(experience: int) -> int:
    """The action roll from which a morale failure is permanent (8; better troops higher)."""
    return t.PERMANENT_MORALE_FAILURE_BASE + t.PERMANENT_MORALE_FAILURE_BONUS.get(experience, 0)


def action_from_total(experience: int, wounds: int, natural: int, total: int) -> str:
    """Read an action roll (natural die and modified total) without the master's confirm."""
    if natural == 1 and wounds <= t.NATURAL_ONE_MAX_WOUNDS:
        return "acts"
    if total <= experience:
        return "acts"
    if total <= t.MASTER:
        return "hesitates"
    if total == t.FALL_BACK_ROLL:
        return "falls_back"
    if wounds >= t.SERIOUS_WOUND_POINTS:
        return "collapses"
    return "routs" if total >= permanent_failure_number(experience) else "falls_back"


def needs_master_confirm(experience: int, natural: int, total: int, variant: str) -> bool:
    """The fallible-master variant: a natural 6 that would act must be confirmed."""
    return (
        variant == "confirm"
        and experience == t.MASTER
        and natural == t.MASTER
        and total <= t.MASTER
    )


def action_step(
    experience: int,
    wounds: int,
    modifier: int,
    variant: str,
    label: str,
    finish: Callable[[str, int, int], Outcome],
) -> Roller:
    """An action check prepared for its numbers: `finish(result, natural die, modified total)`
    is the Outcome, worked out once per face (and per master's confirming face)."""
    confirm_label = f"{label}: master confirm"

    def natural_face(natural: int) -> Step:
        total = natural + wounds + modifier
        if needs_master_confirm(experience, natural, total, variant):

            def confirmed(face: int) -> Outcome:
                failed = face >= t.MASTER_CONFIRM_FAIL_FROM
                return finish("hesitates" if failed else "acts", natural, total)

            return by_face(D6, confirm_label, confirmed)
        return finish(action_from_total(experience, wounds, natural, total), natural, total)

    return by_face(D6, label, natural_face)


def action_odds(experience: int, wounds: int, modifier: int, variant: str) -> Dist:
    """Exact distribution of an action check."""
    # Counted in whole ways out of 36 (the d6, then the master's confirming d6).
    counts: dict[str, int] = {}
    fails = t.MASTER - t.MASTER_CONFIRM_FAIL_FROM + 1
    for natural in range(1, 7):
        total = natural + wounds + modifier
        if needs_master_confirm(experience, natural, total, variant):
            counts["hesitates"] = counts.get("hesitates", 0) + fails
            counts["acts"] = counts.get("acts", 0) + 6 - fails
            continue
        key = action_from_total(experience, wounds, natural, total)
        counts[key] = counts.get(key, 0) + 6
    return counted(counts, 36)


def located(then: Callable[[str], Outcome]) -> Roller:
    """The optional hit location on a d6: `then(location)` is the Outcome."""
    return by_face(D6, "hit location", lambda face: then(t.HIT_LOCATIONS[face]))
