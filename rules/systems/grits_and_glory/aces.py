"""Exact odds for open-ended ("aced") dice, and the rolls themselves.

An aced die X with s sides never stops on a multiple of s, and reaching a total t needs exactly
q = (t - 1) // s aces first, then a face of at least (t - 1) % s + 1. So
P(X >= t) = (1/s)^q * (s - (t - 1) % s) / s, a finite product: every threshold probability is
an exact Fraction with no truncation. Sums of aced dice are handled the same way: P(sum < t)
only needs the point masses below t, of which there are finitely many, each (1/s)^(k//s + 1).
Every check's outcome depends on finitely many thresholds, so its odds are exact Fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from rules.dice import Dice, d
from rules.systems.grits_and_glory.tables import RAISE_STEP, WILD_DIE

ONE = Fraction(1)
ZERO = Fraction(0)
#: The longest ace chain `Dice.roll_exploding` follows (its `limit`); the rolls below match it.
ACE_LIMIT = 100


@lru_cache(maxsize=4096)
def ace_tail(sides: int, t: int) -> Fraction:
    """Return P(an aced die with `sides` sides totals at least `t`)."""
    if t <= 1:
        return ONE
    aces, rest = divmod(t - 1, sides)
    return Fraction(sides - rest, sides ** (aces + 1))


def ace_mass(sides: int, total: int) -> Fraction:
    """Return P(an aced die totals exactly `total`)."""
    aces, rest = divmod(total, sides)
    if total < 1 or rest == 0:
        return ZERO
    return Fraction(1, sides ** (aces + 1))


@lru_cache(maxsize=4096)
def sum_tail(dice: tuple[int, ...], t: int) -> Fraction:
    """Return P(the sum of these aced dice is at least `t`)."""
    # Integer numerators over one denominator per die keep this well inside the 10 ms budget.
    below, denominator = [1] + [0] * max(t - 1, 0), 1
    for sides in dice:
        masses, die_denominator = _masses_below(sides, t)
        below = _convolve(below, masses)
        denominator *= die_denominator
    return ONE - Fraction(sum(below), denominator)


def _masses_below(sides: int, t: int) -> tuple[list[int], int]:
    """Return numerators of P(X = k) for k < t over a common denominator, and it."""
    top_aces = max(t - 1, 0) // sides
    masses = [0] * max(t, 1)
    for k in range(1, t):
        if k % sides:
            masses[k] = sides ** (top_aces - k // sides)
    return masses, sides ** (top_aces + 1)


def _convolve(below: list[int], masses: list[int]) -> list[int]:
    # Only partial sums below t matter: the dice are at least 1, so sums only grow.
    grown = [0] * len(below)
    for partial, weight in enumerate(below):
        if weight:
            for face in range(1, len(below) - partial):
                grown[partial + face] += weight * masses[face]
    return grown


def best_tail(sides: int, wild_dice: int, t: int) -> Fraction:
    """Return P(the best of a trait die and `wild_dice` aced d6 Wild Dice is at least `t`)."""
    miss = (ONE - ace_tail(sides, t)) * (ONE - ace_tail(6, t)) ** wild_dice
    return ONE - miss


def grade_odds(sides: int, wild_dice: int, modifier: int, tn: int) -> dict[str, Fraction]:
    """Return exact odds of failure / success / raise for one trait test."""
    success = best_tail(sides, wild_dice, tn - modifier)
    raised = best_tail(sides, wild_dice, tn + RAISE_STEP - modifier)
    return {"failure": ONE - success, "success": success - raised, "raise": raised}


def raises(total: int, tn: int) -> int:
    """Return how many raises a total scores (-1 for a failure, 0 for a plain success)."""
    return -1 if total < tn else (total - tn) // RAISE_STEP


def grade(total: int, tn: int) -> str:
    """Return failure, success or raise for a total against a TN."""
    if total < tn:
        return "failure"
    return "success" if total < tn + RAISE_STEP else "raise"


class TraitRoll(NamedTuple):
    """One trait test: the trait die total, the Wild Dice totals and the modified best.

    `total` is worked out once by `roll_trait` (every trait check reads it, most twice).
    """

    trait: int
    wild: tuple[int, ...]
    modifier: int
    total: int

    @property
    def all_ones(self) -> bool:
        """True when the trait die and every Wild Die came up a natural 1."""
        return self.trait == 1 and all(w == 1 for w in self.wild)

    def as_json(self) -> dict[str, object]:
        return {
            "trait_die": self.trait,
            "wild_dice": list(self.wild),
            "modifier": self.modifier,
            "total": self.total,
        }


def roll_aced(dice: Dice, sides: int, label: str) -> int:
    """Roll one aced die: the values of `Dice.roll_exploding`, one call layer lighter."""
    die = d(sides)
    total = value = dice.roll(die, label)
    chain = 1
    while value == sides and chain < ACE_LIMIT:
        value = dice.roll(die, label)
        total += value
        chain += 1
    return total


def roll_aced_pool(dice: Dice, sides: int, count: int, label: str) -> tuple[int, ...]:
    """Roll `count` aced dice of one kind, each die's aces before the next die.

    The values, their order and their records are those of `count` calls to
    `Dice.roll_exploding`, but drawn with `roll_many` (cheaper per die, and a volley rolls up to
    eight Wild Dice): each batch asks for one value per die still rolling, which every one of
    them needs at least, so nothing is drawn that rolling one die at a time would not draw.
    """
    die = d(sides)
    values = dice.roll_many(count, die, label)
    if sides not in values:
        return values  # no ace, the usual case: each value is a die's total
    totals: list[int] = []
    total = chain = 0
    while True:
        for value in values:
            total += value
            chain += 1
            if value != sides or chain == ACE_LIMIT:
                totals.append(total)
                total = chain = 0
        if len(totals) == count:
            return tuple(totals)
        values = dice.roll_many(count - len(totals), die, label)


def roll_trait(dice: Dice, sides: int, wild_dice: int, modifier: int, label: str) -> TraitRoll:
    """Roll an aced trait die, then each aced Wild Die (that is the given-dice order)."""
    # `roll_aced` written out: one die, rolled again while it shows its top face.
    die = d(sides)
    trait = value = dice.roll(die, label)
    chain = 1
    while value == sides and chain < ACE_LIMIT:
        value = dice.roll(die, label)
        trait += value
        chain += 1
    if not wild_dice:
        return _new_trait_roll(TraitRoll, (trait, (), modifier, trait + modifier))
    wild = roll_aced_pool(dice, WILD_DIE, wild_dice, f"{label}: wild die")
    best = max(trait, *wild)
    return _new_trait_roll(TraitRoll, (trait, wild, modifier, best + modifier))


#: A TraitRoll built as a plain tuple: NamedTuple's generated __new__ is a Python call per roll.
_new_trait_roll = tuple.__new__


@lru_cache(maxsize=256)
def dice_runs(sides: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Split dice sizes into (sides, count) runs of consecutive equal sizes, in order."""
    runs: list[tuple[int, int]] = []
    for die_sides in sides:
        if runs and runs[-1][0] == die_sides:
            runs[-1] = (die_sides, runs[-1][1] + 1)
        else:
            runs.append((die_sides, 1))
    return tuple(runs)
