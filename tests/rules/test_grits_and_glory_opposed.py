"""Grits & Glory's opposed rolls: interrupting, setting weapons, Intimidation, Taunt, Notice."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice
from rules.systems.grits_and_glory import SYSTEM
from rules.systems.grits_and_glory.contest import Side, over
from tests.rules.agreement import case_id, first_case_of_each, odds_agree

INTERRUPT = SYSTEM.check("interrupt")
SET_WEAPONS = SYSTEM.check("set_weapons")
INTIMIDATE = SYSTEM.check("intimidate")
TAUNT = SYSTEM.check("taunt")
NOTICE = SYSTEM.check("notice")
OPPOSED = ("interrupt", "set_weapons", "intimidate", "taunt", "notice")

#: The first case of each check is the cheap one run by default; all run under `statistical`.
CASES = [
    ("interrupt", {}),
    ("interrupt", {"die": 8, "wild_card": True, "foe_die": 10, "foe_modifier": 2}),
    ("set_weapons", {"reach": 2, "foe_die": 8, "foe_wild_card": True}),
    ("set_weapons", {"die": 4, "modifier": -1, "reach": 1, "foe_die": 12}),
    ("intimidate", {"die": 8, "wild_card": True, "foe_die": 6}),
    ("intimidate", {"die": 12, "modifier": 2, "foe_die": 4, "foe_wild_card": True}),
    ("taunt", {"die": 6, "foe_die": 8, "foe_modifier": -2}),
    ("notice", {"die": 6, "foe_die": 8, "foe_wild_card": True, "dark": True}),
    ("notice", {"die": 0, "wild_card": True, "foe_die": 0, "range": "long", "cover": "minor"}),
]
FAST_CASES = first_case_of_each(CASES)


@pytest.mark.parametrize("case", FAST_CASES, ids=case_id)
def test_odds_agree_with_ten_thousand_seeded_rolls(case):
    odds_agree(SYSTEM.check(case[0]), case[1], 10_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_odds_agree_with_two_hundred_thousand_seeded_rolls(case):
    odds_agree(SYSTEM.check(case[0]), case[1], 200_000, 4)


# --- the exact sums --------------------------------------------------------------------------


def _truncated(a, b, c, floor, upto=160):
    """Sum P(B = y) * P(A >= max(floor, y + c)) for every y up to `upto` (the rest is < 1e-30)."""
    total = Fraction(0)
    for y in range(b.lowest, upto + 1):
        need = y + c if floor is None else max(floor, y + c)
        total += (b.tail(y) - b.tail(y + 1)) * a.tail(need)
    return total


SIDES = st.builds(
    Side,
    st.tuples(st.sampled_from((4, 6, 8, 10, 12))).flatmap(
        lambda trait: st.sampled_from((trait, (*trait, 6)))
    ),
    st.integers(-6, 6),
)


@settings(max_examples=25, deadline=None)
@given(SIDES, SIDES, st.integers(0, 4), st.sampled_from((None, 4, 8)))
def test_the_endless_sum_matches_a_long_truncated_sum(a, b, c, floor):
    exact = over(a, b, c, floor)

    assert abs(exact - _truncated(a, b, c, floor)) < Fraction(1, 10**25)


def test_two_aced_d6_tie_one_time_in_seven():
    d6 = Side((6,), 0)

    assert over(d6, d6, 0) - over(d6, d6, 1) == Fraction(1, 7)
    assert INTERRUPT.odds({}).probabilities == {
        "interrupts": Fraction(3, 7),
        "simultaneous": Fraction(1, 7),
        "acts_after": Fraction(3, 7),
    }


# --- interrupting from Hold ------------------------------------------------------------------


def test_the_unit_on_hold_rolls_first_and_the_higher_agility_acts_first():
    result = INTERRUPT.resolve({}, GivenDice([5, 3]))

    assert result.outcome == "interrupts"
    assert [(r.value, r.label) for r in result.dice] == [
        (5, "agility (holding)"),
        (3, "agility (acting)"),
    ]
    assert result.effects[0].key == "on_hold"


def test_a_tied_interrupt_is_simultaneous_and_a_lower_roll_acts_after():
    assert INTERRUPT.resolve({}, GivenDice([4, 4])).outcome == "simultaneous"
    assert INTERRUPT.resolve({}, GivenDice([2, 3])).outcome == "acts_after"


def test_interrupting_needs_no_four_someone_has_to_go_first():
    result = INTERRUPT.resolve({"modifier": -2}, GivenDice([4, 1]))

    assert result.details["total"] == 2
    assert result.outcome == "interrupts"


def test_every_die_aces_and_each_wild_die_follows_its_own_trait_die():
    params = {"wild_card": True, "foe_wild_card": True}

    result = INTERRUPT.resolve(params, GivenDice([6, 2, 3, 1, 6, 6, 1]))

    assert (result.details["total"], result.details["foe_total"]) == (8, 13)
    assert result.outcome == "acts_after"
    assert [r.label for r in result.dice] == [
        "agility (holding)",
        "agility (holding)",
        "agility (holding): wild die",
        "agility (acting)",
        "agility (acting): wild die",
        "agility (acting): wild die",
        "agility (acting): wild die",
    ]


# --- setting weapons against a charge --------------------------------------------------------


def test_a_spear_set_against_a_charge_adds_two_agility_and_strikes_first_with_plus_four():
    result = SET_WEAPONS.resolve({"reach": 1}, GivenDice([3, 4]))

    assert result.details["total"] == 5
    assert result.outcome == "set_first"
    assert (result.details["damage_bonus"], result.details["foe_damage_bonus"]) == (4, 0)


def test_a_lance_adds_four_and_a_winning_rider_gets_the_damage_bonus_instead():
    lance = SET_WEAPONS.resolve({"reach": 2}, GivenDice([1, 4]))
    rider_wins = SET_WEAPONS.resolve({"reach": 1}, GivenDice([1, 5]))

    assert lance.details["total"] == 5
    assert lance.outcome == "set_first"
    assert rider_wins.outcome == "charge_first"
    assert (rider_wins.details["damage_bonus"], rider_wins.details["foe_damage_bonus"]) == (0, 4)


def test_a_tie_against_a_charge_strikes_at_once_with_no_bonus():
    result = SET_WEAPONS.resolve({"reach": 1}, GivenDice([2, 4]))

    assert result.outcome == "simultaneous"
    assert (result.details["damage_bonus"], result.details["foe_damage_bonus"]) == (0, 0)


def test_reach_shifts_the_odds_like_the_same_agility_modifier():
    set_odds = SET_WEAPONS.odds({"reach": 2, "foe_die": 8}).probabilities
    interrupt = INTERRUPT.odds({"modifier": 4, "foe_die": 8}).probabilities

    assert set_odds["set_first"] == interrupt["interrupts"]
    assert set_odds["charge_first"] == interrupt["acts_after"]


# --- Intimidation and Taunt ------------------------------------------------------------------


def test_beating_the_foes_spirit_gives_plus_two_on_the_next_action():
    result = INTIMIDATE.resolve({}, GivenDice([5, 3]))

    assert result.outcome == "upper_hand"
    assert [(e.who, e.key, e.value) for e in result.effects] == [("actor", "upper_hand", 2)]
    assert [r.label for r in result.dice] == ["intimidation", "spirit"]


def test_a_raise_over_the_foe_also_shakes_him():
    result = INTIMIDATE.resolve({"die": 10}, GivenDice([9, 4]))

    assert result.outcome == "shaken"
    assert [(e.who, e.key) for e in result.effects] == [
        ("actor", "upper_hand"),
        ("target", "shaken"),
    ]


def test_a_raise_counts_from_four_when_the_foe_rolls_lower():
    assert INTIMIDATE.resolve({"die": 8}, GivenDice([7, 1])).outcome == "upper_hand"
    assert INTIMIDATE.resolve({"die": 8}, GivenDice([8, 2, 1])).outcome == "shaken"


def test_the_winner_must_still_roll_four_and_a_tie_is_resisted():
    assert INTIMIDATE.resolve({}, GivenDice([3, 1])).outcome == "resisted"
    assert INTIMIDATE.resolve({}, GivenDice([5, 5])).outcome == "resisted"
    assert INTIMIDATE.resolve({}, GivenDice([3, 1])).effects == ()


def test_taunt_is_resisted_by_smarts_and_needs_the_ability():
    result = TAUNT.resolve({"die": 8}, GivenDice([6, 2]))

    assert result.outcome == "upper_hand"
    assert [r.label for r in result.dice] == ["taunt", "smarts"]
    assert 0 not in TAUNT.params["die"].choice_values()


def test_test_of_will_odds_split_wins_into_plain_wins_and_raises():
    odds = INTIMIDATE.odds({}).probabilities

    assert odds == {
        "resisted": Fraction(55, 84),
        "upper_hand": Fraction(193, 840),
        "shaken": Fraction(97, 840),
    }


# --- Notice against Stealth ------------------------------------------------------------------


def test_the_sentry_rolls_notice_first_then_the_assassin_stealth():
    result = NOTICE.resolve({}, GivenDice([5, 4]))

    assert result.outcome == "spotted"
    assert [r.label for r in result.dice] == ["notice", "stealth"]


def test_range_cover_and_the_dark_are_bonuses_to_the_hidden_units_stealth():
    params = {"range": "medium", "cover": "minor", "dark": True}

    result = NOTICE.resolve(params, GivenDice([5, 1]))

    assert result.details["foe_total"] == 7
    assert result.outcome == "unseen"


def test_an_untrained_stealth_rolls_a_d4_minus_two():
    result = NOTICE.resolve({"foe_die": 0}, GivenDice([4, 3]))

    assert result.dice[1].die == "d4"
    assert result.details["foe_total"] == 1
    assert result.outcome == "spotted"


def test_more_stealth_bonus_never_makes_the_unit_easier_to_spot():
    near = NOTICE.odds({"range": "short"}).probabilities["spotted"]
    far = NOTICE.odds({"range": "long", "cover": "substantial"}).probabilities["spotted"]

    assert far < near
