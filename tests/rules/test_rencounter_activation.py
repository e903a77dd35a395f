"""Rencounter activation: cards with reshuffle and held cards, dice and markers, counters."""

from collections import Counter

import pytest

from rules.dice import SeededDice
from rules.errors import RulesError
from rules.systems.rencounter.activation import METHODS, RESHUFFLE, hold_card, play_held


def _draws(method, units, options, count, seed="deck"):
    dice = SeededDice(seed, method)
    state = METHODS[method].start(units, options, dice)
    results = []
    for _ in range(count):
        draw = METHODS[method].draw(state, dice)
        state = draw.state
        results.append(draw.result)
    return state, results


def test_the_deck_holds_each_units_cards_and_one_reshuffle_card():
    state = METHODS["cards"].start(["A", "B"], {"cards_per_unit": 3}, SeededDice("d"))

    assert Counter(state["deck"]) == {"A": 3, "B": 3, RESHUFFLE: 1}


def test_without_a_reshuffle_card_every_unit_moves_each_turn():
    _, results = _draws("cards", ["A", "B", "C"], {"reshuffle_card": False}, 9)

    for turn in (1, 2, 3):
        assert sorted(r["unit"] for r in results if r["turn"] == turn) == ["A", "B", "C"]


def test_the_reshuffle_card_ends_the_turn():
    _, results = _draws("cards", ["A", "B", "C"], {}, 40)

    ends = [i for i, r in enumerate(results[:-1]) if r.get("turn_ends")]
    assert ends
    assert all(results[i + 1]["turn"] == results[i]["turn"] + 1 for i in ends)


def test_a_second_card_for_a_holding_unit_discards_the_held_one():
    dice = SeededDice("held")
    state = METHODS["cards"].start(
        ["A"], {"held_cards": True, "cards_per_unit": 2, "reshuffle_card": False}, dice
    )
    state = hold_card(METHODS["cards"].draw(state, dice).state, "A")

    draw = METHODS["cards"].draw(state, dice)

    assert draw.result["discarded_held"] is True
    assert draw.state["held"] == []


def test_held_cards_need_the_option_and_a_card_to_play():
    state = METHODS["cards"].start(["A"], {}, SeededDice("x"))

    with pytest.raises(RulesError):
        hold_card(state, "A")
    with pytest.raises(RulesError):
        play_held({**state, "may_hold": True}, "A")


def test_dice_and_markers_activate_each_unit_once_a_turn():
    _, results = _draws("dice_markers", ["Red:1", "Red:2", "Blue:1"], {}, 12)

    first_turn = [u for r in results if r["turn"] == 1 for u in r["units"]]
    assert sorted(first_turn) == ["Blue:1", "Red:1", "Red:2"]


def test_dice_and_counters_favour_the_unit_that_waited_longest():
    _, results = _draws("dice_counters", ["A", "B", "C", "D", "E"], {}, 500)

    counts = Counter(r["unit"] for r in results)
    assert set(counts) == {"A", "B", "C", "D", "E"}
    assert min(counts.values()) > 60


def test_dice_and_counters_roll_the_die_that_fits_the_units():
    state = METHODS["dice_counters"].start([str(n) for n in range(9)], {}, SeededDice("x"))

    assert state["die"] == 10
