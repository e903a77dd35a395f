"""Escarmouche's pool: the text's worked examples, initiative from 1s, exact counts."""

from fractions import Fraction
from itertools import product

import icepool
import pytest

from rules.dice import GivenDice
from rules.systems.escarmouche.pool import (
    FIGURE_ENDS,
    KEEPS_INITIATIVE,
    ONES_CAP,
    SIDE_ENDS,
    PoolRoll,
    initiative,
    pool_weights,
    roll_pool,
    score_of,
    score_weights,
)


@pytest.mark.parametrize(
    ("active", "score"),
    [
        ((6, 3, 2), 6),  # the text: 6, 3 & 2 score 6
        ((6, 6, 2, 1), 7),  # the text: each six after the first adds 1
        ((6, 6, 6), 8),  # the text: three sixes score 8
        ((5, 2), 5),
        ((3, 2, 1), 3),
    ],
)
def test_the_texts_worked_examples_score_as_printed(active, score):
    assert score_of(active) == score


def test_passive_sixes_add_nothing_to_the_score():
    roll = PoolRoll.of((4,), (6, 6))

    assert roll.score == 4


def test_a_pool_with_no_active_dice_scores_nothing():
    assert score_of(()) == 0


def test_ones_on_passive_dice_count_against_the_initiative():
    roll = PoolRoll.of((5,), (1, 3))

    assert initiative(roll.ones) == FIGURE_ENDS


@pytest.mark.parametrize(
    ("ones", "ones_before", "result"),
    [
        (0, 0, KEEPS_INITIATIVE),
        (0, 1, KEEPS_INITIATIVE),
        (1, 0, FIGURE_ENDS),
        (1, 1, SIDE_ENDS),  # the side's second 1
        (2, 0, SIDE_ENDS),  # two 1s in a single roll
        (3, 0, SIDE_ENDS),
    ],
)
def test_ones_end_the_figure_then_the_side(ones, ones_before, result):
    assert initiative(ones, ones_before) == result


def test_given_dice_are_read_active_first_then_passive():
    roll = roll_pool(GivenDice([6, 6, 2, 1]), 2, 2)

    assert (roll.active, roll.passive, roll.score, roll.ones) == ((6, 6), (2, 1), 7, 1)


@pytest.mark.parametrize(("active", "passive"), [(0, 1), (1, 0), (2, 2), (3, 1), (4, 0), (1, 4)])
def test_pool_counts_match_brute_force_enumeration(active, passive):
    counts: dict[tuple[int, int], int] = {}
    for faces in product(range(1, 7), repeat=active + passive):
        roll = PoolRoll.of(faces[:active], faces[active:])
        key = (roll.score, min(roll.ones, ONES_CAP))
        counts[key] = counts.get(key, 0) + 1

    assert dict(pool_weights(active, passive)) == counts


@pytest.mark.parametrize("dice", [1, 3, 5, 7])
def test_score_counts_agree_with_icepool(dice):
    def score(*faces: int) -> int:
        return score_of(faces)

    expected = icepool.map(score, *([icepool.d6] * dice))

    counts = dict(score_weights(dice))

    assert {k: Fraction(v, 6**dice) for k, v in counts.items()} == {
        k: Fraction(q, expected.denominator()) for k, q in expected.items()
    }


def test_big_pools_keep_every_roll_counted():
    assert sum(weight for _, weight in pool_weights(20, 20)) == 6**40
