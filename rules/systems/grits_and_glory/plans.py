"""Grits & Glory's planned rolls: a trait die and its Wild Dice, each with its aces, as the
planners of its checks (`rules.plans`) draw them, built once per plan."""

from __future__ import annotations

from collections.abc import Callable

from rules.dice import D6, Dice, Die, d
from rules.systems.grits_and_glory.aces import ACE_LIMIT, roll_aced_pool

# --- the dice: a trait die and its Wild Dice, each with its aces ----------------------------

#: (trait die total, Wild Dice totals, the best of them), before any modifier.
Rolled = tuple[int, list[int], int]
Roller = Callable[[Dice], Rolled]


def aces_after(dice: Dice, die: Die, sides: int, label: str) -> int:
    """Go on rolling an aced die (`sides` sides) that showed its top face: `roll_aced`'s rolls
    from its second; return the die's total."""
    total = value = sides
    chain = 1
    while value == sides and chain < ACE_LIMIT:
        value = dice.roll(die, label)
        total += value
        chain += 1
    return total


def trait_roller(sides: int, wild_dice: int, label: str) -> Roller:
    """The rolls of `aces.roll_trait` (same dice, order and labels), returning the totals.

    Built once per plan, so the die and the labels are looked up and formatted once; a roll
    with no Wild Die or one (nearly every roll) draws its dice with no loop at all.
    """
    die, wild_label = d(sides), f"{label}: wild die"

    def alone(dice: Dice) -> Rolled:
        trait = dice.roll(die, label)
        if trait == sides:
            trait = aces_after(dice, die, sides, label)
        return trait, [], trait

    def with_wild_die(dice: Dice) -> Rolled:
        trait = dice.roll(die, label)
        if trait == sides:
            trait = aces_after(dice, die, sides, label)
        wild = dice.roll(D6, wild_label)
        if wild == 6:
            wild = aces_after(dice, D6, 6, wild_label)
        return trait, [wild], trait if trait > wild else wild

    def with_wild_dice(dice: Dice) -> Rolled:
        trait = dice.roll(die, label)
        if trait == sides:
            trait = aces_after(dice, die, sides, label)
        wild = roll_aced_pool(dice, 6, wild_dice, wild_label)
        return trait, list(wild), max(trait, *wild)

    if not wild_dice:
        return alone
    return with_wild_die if wild_dice == 1 else with_wild_dice
