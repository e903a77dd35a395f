"""Exact odds of aced dice: thresholds, sums and the best of a trait die and Wild Dice."""

from fractions import Fraction
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.systems.grits_and_glory.aces import (
    ace_mass,
    ace_tail,
    best_tail,
    grade,
    raises,
    roll_aced,
    roll_aced_pool,
    roll_trait,
    sum_tail,
)

SIDES = st.sampled_from((4, 6, 8, 10, 12))


def _enumerated_tail(sides, t, depth=4):
    """P(total >= t) by walking every ace chain up to `depth` rolls (exact when t is low)."""
    total = Fraction(0)
    for chain in range(depth):
        for face in range(1, sides):
            value = chain * sides + face
            if value >= t:
                total += Fraction(1, sides ** (chain + 1))
    return total + Fraction(1, sides**depth)  # every chain of `depth` aces already passes t


def test_an_aced_d6_reaches_seven_only_through_an_ace():
    assert ace_tail(6, 7) == Fraction(1, 6)


def test_an_aced_d6_never_totals_exactly_six():
    assert ace_mass(6, 6) == 0
    assert ace_mass(6, 7) == Fraction(1, 36)


def test_threshold_odds_match_enumerating_the_ace_chains():
    for sides in (4, 6, 8, 10, 12):
        for t in range(1, 3 * sides + 1):
            assert ace_tail(sides, t) == _enumerated_tail(sides, t)


def test_a_sum_of_aced_dice_matches_brute_force_over_short_chains():
    # d4 + d6 below 9: enumerate every pair of totals that stays below the threshold.
    totals = {s: {v: ace_mass(s, v) for v in range(1, 9)} for s in (4, 6)}
    below = sum(totals[4][a] * totals[6][b] for a, b in product(range(1, 9), repeat=2) if a + b < 9)
    assert sum_tail((4, 6), 9) == 1 - below


@given(SIDES, st.integers(-5, 40))
def test_one_die_sum_equals_its_own_tail(sides, t):
    assert sum_tail((sides,), t) == ace_tail(sides, t)


@given(SIDES, st.integers(0, 3), st.integers(-5, 40))
def test_more_wild_dice_never_lower_the_chance(sides, wild, t):
    assert best_tail(sides, wild + 1, t) >= best_tail(sides, wild, t)


def test_every_four_points_over_the_target_number_is_a_raise():
    assert [raises(total, 4) for total in (3, 4, 7, 8, 11, 12)] == [-1, 0, 0, 1, 1, 2]
    assert [grade(total, 4) for total in (3, 4, 8)] == ["failure", "success", "raise"]


def test_a_wild_card_keeps_the_better_of_trait_and_wild_die():
    roll = roll_trait(GivenDice([2, 6, 3]), 8, 1, 0, "trait")
    assert (roll.trait, roll.wild, roll.total) == (2, (9,), 9)


@given(
    SIDES,
    st.integers(0, 8),
    st.lists(st.integers(1, 12), max_size=40),
)
def test_a_pool_of_aced_dice_draws_exactly_what_rolling_them_one_by_one_draws(sides, count, faces):
    values = [min(face, sides) for face in faces] + [1] * count  # top faces ace often
    pooled, one_by_one = GivenDice(values), GivenDice(values)

    totals = roll_aced_pool(pooled, sides, count, "shooting")
    expected = tuple(one_by_one.roll_exploding(sides, "shooting") for _ in range(count))

    assert totals == expected
    assert pooled.rolls == one_by_one.rolls


@given(SIDES, st.integers(1, 8), st.text(max_size=8))
def test_seeded_pools_leave_the_dice_where_single_rolls_would(sides, count, seed):
    pooled, one_by_one = SeededDice(seed, "pool"), SeededDice(seed, "pool")

    totals = roll_aced_pool(pooled, sides, count, "volley: wild die")
    expected = tuple(one_by_one.roll_exploding(sides, "volley: wild die") for _ in range(count))

    assert totals == expected
    assert pooled.rolls == one_by_one.rolls
    assert pooled.roll(20) == one_by_one.roll(20)


def test_an_ace_chain_stops_where_roll_exploding_stops():
    values = [6] * 101 + [3]

    pooled = roll_aced_pool(GivenDice(values), 6, 2, "wild die")
    single = roll_aced(GivenDice(values), 6, "wild die")

    assert pooled == (600, 9)  # the 101st six starts the second die
    assert single == 600 == GivenDice(values).roll_exploding(6)
