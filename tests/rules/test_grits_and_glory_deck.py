"""The 54-card action deck: order, Jokers and events, reshuffles, Hold, the end of the game."""

import pytest

from rules.dice import GivenDice, SeededDice
from rules.errors import RulesError
from rules.systems.grits_and_glory import deck


def _first_turn(units, seed="deck"):
    state = deck.start(units, {}, SeededDice(seed, "deck"))
    draws = []
    for _ in units:
        drawn = deck.draw(state, SeededDice(seed, f"draw{len(draws)}"))
        state = drawn.state
        draws.append(drawn.result)
    return state, draws


def test_the_deck_holds_fifty_two_cards_and_two_jokers():
    assert len(deck.DECK) == 54
    assert len(set(deck.DECK)) == 54
    assert sum(deck.is_joker(card) for card in deck.DECK) == 2


def test_aces_are_high_and_suits_rank_spades_hearts_diamonds_clubs():
    order = sorted(["KS", "AC", "AS", "AH", "AD", "2S"], key=deck.card_value, reverse=True)

    assert order == ["AS", "AH", "AD", "AC", "KS", "2S"]


def test_a_joker_outranks_every_other_card():
    assert deck.card_value("BJ") > deck.card_value("AS")


def test_units_act_from_the_highest_card_down():
    state, draws = _first_turn([f"unit{n}" for n in range(8)])

    values = [deck.card_value(d["card"]) for d in draws]

    assert values == sorted(values, reverse=True)
    assert {d["unit"] for d in draws} == {f"unit{n}" for n in range(8)}
    assert state["queue"] == []


def test_a_joker_gives_plus_two_and_rolls_on_the_events_table():
    state = {
        "units": ["a"],
        "deck": ["RJ"],
        "turn": 0,
        "queue": [],
        "cards": {},
        "held": [],
        "joker_seen": False,
    }

    drawn = deck.draw(state, GivenDice([3, 4]))

    assert drawn.result["joker"] is True
    assert drawn.result["bonus"] == 2
    assert drawn.result["event"] == {"fortune_roll": 7, "fortune": "hand_of_fate"}
    assert drawn.state["joker_seen"] is True


def test_the_deck_is_reshuffled_after_a_turn_with_a_joker():
    state = {
        "units": ["a"],
        "deck": ["RJ", "2C", "3C"],
        "turn": 0,
        "queue": [],
        "cards": {},
        "held": [],
        "joker_seen": False,
    }
    state = deck.draw(state, GivenDice([3, 4])).state

    drawn = deck.draw(state, SeededDice("reshuffle", "x"))

    assert drawn.state["reshuffled"] is True
    assert len(drawn.state["deck"]) == 53


def test_a_unit_on_hold_is_not_dealt_in_until_it_acts():
    state, _ = _first_turn(["a", "b"])
    state = deck.hold(state, "a")

    drawn = deck.draw(state, SeededDice("hold", "x"))

    assert drawn.result["unit"] == "b"
    assert drawn.state["queue"] == []
    assert deck.act_from_hold(drawn.state, "a")["held"] == []


def test_acting_from_hold_needs_a_unit_on_hold():
    state, _ = _first_turn(["a"])

    with pytest.raises(RulesError):
        deck.act_from_hold(state, "a")


def test_a_freak_event_sixteen_is_rolled_again():
    assert deck.roll_freak_event(GivenDice([16, 16, 17])) == "unexpected_sniper"


def test_a_fortune_of_twelve_rolls_a_freak_event():
    event = deck.roll_event(GivenDice([6, 6, 1]))

    assert event == {"fortune_roll": 12, "fortune": "freak_event", "freak_event": "storm"}


def test_the_game_cannot_end_before_the_sixth_turn_and_a_one_never_ends_it():
    assert deck.end_game_needs(5) is None
    assert deck.end_game_needs(6) == 10
    assert deck.end_game_needs(40) == 2
    assert deck.game_ends(20, GivenDice([1])) == (False, 1)
    assert deck.game_ends(7, GivenDice([9])) == (True, 9)


def test_the_sentry_card_colour_decides_who_steers():
    assert deck.is_black("10S") and deck.is_black("RJ")
    assert not deck.is_black("QH")


@pytest.mark.parametrize("seed", ["a", "b", "jokers", "long"])
def test_the_auto_resolvers_draws_are_the_state_passing_draws_card_for_card(seed):
    units = [f"unit{n}" for n in range(12)]
    dice, again = SeededDice(seed, "deck"), SeededDice(seed, "deck")
    state = deck.start(units, {}, dice)
    drawn = []
    for _ in range(150):  # a dozen turns: reshuffles, and Jokers with their events
        draw = deck.draw(state, dice)
        state = draw.state
        drawn.append((draw.result["unit"], draw.result["joker"], not state["queue"]))

    quick = [card for card, _ in zip(deck.draws(units, again), range(150), strict=False)]

    assert quick == drawn
    assert again.rolls == dice.rolls
    assert any(joker for _, joker, _ in drawn)


def test_the_auto_resolvers_draws_refuse_what_the_deck_refuses():
    with pytest.raises(RulesError):
        next(deck.draws(["a", "a"], SeededDice("s", "c")))
    with pytest.raises(RulesError):
        next(deck.draws([f"u{n}" for n in range(55)], SeededDice("s", "c")))
