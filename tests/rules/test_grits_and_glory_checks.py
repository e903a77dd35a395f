"""Grits & Glory checks: odds agree with seeded rolls, stay in their keys and replay exactly."""

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.systems.grits_and_glory import SYSTEM
from tests.rules.agreement import case_id, first_case_of_each

#: One or two telling parameter sets per check (wild cards, untrained, big modifiers ...).
CASES = [
    ("trait", {"die": 6}),
    ("trait", {"die": 8, "wild_card": True, "modifier": -2, "tn": 6}),
    ("trait", {"die": 12, "untrained": True, "wild_card": True}),
    ("group_roll", {"die": 4, "modifier": 1}),
    ("vigor_test", {"die": 6, "modifier": 2, "wild_card": True}),
    ("recover", {"die": 8}),
    ("fighting", {"die": 8, "wild_card": True, "parry": 6, "gang_up": 2, "joker": True}),
    ("fighting", {"die": 0, "parry": 4}),
    ("shooting", {"die": 6, "range": "medium", "cover": "minor", "modifier": 5}),
    ("shooting", {"die": 10, "wild_card": True}),
    ("autofire", {"die": 8, "wild_card": True, "shots": 3}),
    ("autofire", {"die": 6, "shots": 6, "fanfire": True}),
    ("volley_fire", {"die": 6, "figures": 12, "range": "long"}),
    ("damage", {"weapon": "sabre", "strength": 10, "toughness": 6}),
    (
        "damage",
        {
            "weapon": "spear",
            "strength": 6,
            "raise_hit": True,
            "toughness": 6,
            "target_wild_card": True,
            "target_wounds": 1,
        },
    ),
    ("damage", {"weapon": "six_shooter", "toughness": 5, "target_shaken": True}),
    ("soak", {"die": 8, "wild_card": True, "wounds": 3}),
    ("fear", {"die": 6, "figures": 4, "charged": True}),
    ("run", {}),
    ("end_game", {"turn": 8}),
    ("fortune", {}),
    ("freak_event", {}),
    ("reserves", {}),
    ("sentry", {"joker": True}),
    ("stealth", {"die": 8, "figures": 3, "dark": True}),
    ("line_of_sight", {}),
    ("obstacle", {"die": 6, "wild_card": True}),
    ("swim", {"die": 0, "load": "heavy_load"}),
]


def _agrees(check_name, params, rolls, sigmas):
    check = SYSTEM.check(check_name)
    odds = check.odds(params).probabilities
    dice = SeededDice("agreement", f"{check_name}/{sorted(params.items())}")
    counts = Counter(check.resolve(params, dice).outcome for _ in range(rolls))
    for key, p in odds.items():
        if p == 0:
            assert counts[key] == 0, key
            continue
        error = math.sqrt(float(p * (1 - p)) / rolls)
        assert abs(counts[key] / rolls - float(p)) <= sigmas * error, (key, counts[key], p)


#: The fast run takes the first case of each check; the statistical run takes them all.
FAST_CASES = first_case_of_each(CASES)


@pytest.mark.parametrize("case", FAST_CASES, ids=case_id)
def test_odds_agree_with_ten_thousand_seeded_rolls(case):
    _agrees(*case, rolls=10_000, sigmas=5)


@pytest.mark.statistical
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_odds_agree_with_two_hundred_thousand_seeded_rolls(case):
    _agrees(*case, rolls=200_000, sigmas=4)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_odds_are_exact_fractions_over_every_outcome_key(case):
    check = SYSTEM.check(case[0])

    odds = check.odds(case[1])

    assert odds.exact
    assert set(odds.probabilities) == set(check.outcomes)
    assert sum(odds.probabilities.values()) == 1
    assert all(isinstance(p, Fraction) and p >= 0 for p in odds.probabilities.values())


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_given_dice_reproduce_a_seeded_result(case):
    check = SYSTEM.check(case[0])
    seeded = check.resolve(case[1], SeededDice("replay", case[0]))

    replayed = check.resolve(case[1], GivenDice(r.value for r in seeded.dice))

    assert replayed.outcome == seeded.outcome
    assert replayed.details == seeded.details
    assert replayed.effects == seeded.effects


TRAIT_PARAMS = st.fixed_dictionaries(
    {
        "die": st.sampled_from((4, 6, 8, 10, 12)),
        "modifier": st.integers(-20, 20),
        "wild_card": st.booleans(),
        "tn": st.integers(1, 30),
        "untrained": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None)
@given(TRAIT_PARAMS, st.text(min_size=1, max_size=8))
def test_a_trait_test_stays_in_its_keys_and_replays(params, seed):
    check = SYSTEM.check("trait")
    seeded = check.resolve(params, SeededDice(seed, "trait"))

    replayed = check.resolve(params, GivenDice(r.value for r in seeded.dice))

    assert seeded.outcome in ("failure", "success", "raise")
    assert replayed.outcome == seeded.outcome
    assert sum(check.odds(params).probabilities.values()) == 1


DAMAGE_PARAMS = st.fixed_dictionaries(
    {
        "weapon": st.sampled_from(tuple(SYSTEM.check("damage").params["weapon"].choice_values())),
        "strength": st.sampled_from((4, 6, 8, 10, 12)),
        "raise_hit": st.booleans(),
        "joker": st.booleans(),
        "toughness": st.integers(1, 30),
        "target_wild_card": st.booleans(),
        "target_shaken": st.booleans(),
        "target_wounds": st.integers(0, 3),
    }
)


@settings(max_examples=60, deadline=None)
@given(DAMAGE_PARAMS)
def test_damage_odds_always_sum_to_one(params):
    odds = SYSTEM.check("damage").odds(params).probabilities

    assert sum(odds.values()) == 1
    assert min(odds.values()) >= 0


@pytest.mark.parametrize(
    ("check_name", "params", "field"),
    [
        ("trait", {"die": 5}, "die"),
        ("trait", {"tn": 0}, "tn"),
        ("trait", {"wild_card": "maybe"}, "wild_card"),
        ("vigor_test", {"untrained": True}, "untrained"),
        ("fighting", {"gang_up": -1}, "gang_up"),
        ("shooting", {"range": "extreme"}, "range"),
        ("damage", {"weapon": "lightsaber"}, "weapon"),
        ("volley_fire", {"figures": 4}, "figures"),
    ],
)
def test_bad_parameters_raise_a_validation_error_naming_the_field(check_name, params, field):
    with pytest.raises(ValidationError) as caught:
        SYSTEM.check(check_name).odds(params)

    assert field in caught.value.errors


def test_the_contract_checks_have_their_contract_params_and_outcomes():
    trait, vigor = SYSTEM.check("trait"), SYSTEM.check("vigor_test")

    assert trait.params.names == ("die", "modifier", "wild_card", "tn", "untrained")
    assert trait.outcomes == ("failure", "success", "raise")
    assert vigor.params.names == ("die", "modifier", "wild_card")
    assert vigor.outcomes == ("survives", "killed")


def test_a_d6_extra_succeeds_half_the_time_and_raises_five_thirty_sixths():
    odds = SYSTEM.check("trait").odds({"die": 6}).probabilities

    assert odds == {
        "failure": Fraction(1, 2),
        "success": Fraction(13, 36),
        "raise": Fraction(5, 36),
    }
