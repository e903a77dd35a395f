"""Game the 90%: exact odds agree with seeded resolves; properties of every check."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.systems.game_the_90 import SYSTEM
from tests.rules.agreement import odds_agree, params_strategy

CASES = [
    ("shoot", {}),
    ("shoot", {"die": "avg", "shooter": "lights", "target": "foot_knights", "rear": True}),
    ("melee", {"attacker": "knights", "contact": "flank", "target": "foot_knights"}),
    ("melee", {"die": "avg", "attacker": "lights", "uphill": True}),
    ("move", {"unit": "lights", "fast": True}),
    ("charge", {"die": "avg", "unit": "serjeants", "distance": 4}),
    ("rally", {"hits": 7, "passed_ten": True}),
]


def agree_within(check_name, params, rolls, sigmas):
    odds_agree(SYSTEM.checks[check_name], params, rolls, sigmas)


@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_20000_seeded_resolves(check, params):
    agree_within(check, params, 20_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_200000_seeded_resolves(check, params):
    agree_within(check, params, 200_000, 4)


def params_for(check_name):
    return params_strategy(SYSTEM.checks[check_name])


any_check = st.sampled_from(sorted(SYSTEM.checks))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_odds_sum_to_one_over_the_outcome_keys(data):
    name = data.draw(any_check)
    odds = SYSTEM.checks[name].odds(data.draw(params_for(name)))

    assert sum(odds.probabilities.values()) == 1
    assert set(odds.probabilities) == set(SYSTEM.checks[name].outcomes)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.text(max_size=8))
def test_given_dice_reproduce_a_seeded_result(data, seed):
    name = data.draw(any_check)
    params = data.draw(params_for(name))
    check = SYSTEM.checks[name]
    seeded = check.resolve(params, SeededDice(seed, name))

    given_dice = GivenDice([r.value for r in seeded.dice])
    replay = check.resolve(params, given_dice)

    assert replay.outcome == seeded.outcome in check.outcomes
    assert replay.details == seeded.details
    assert given_dice.unused == 0


@pytest.mark.parametrize(
    ("check", "params"),
    [
        ("shoot", {"shooter": "knights"}),
        ("shoot", {"die": "d8"}),
        ("melee", {"contact": "sideways"}),
        ("rally", {"hits": 15}),
        ("charge", {"distance": -1}),
        ("move", {"speed": 3}),
    ],
)
def test_bad_params_raise_validation_error(check, params):
    with pytest.raises(ValidationError):
        SYSTEM.checks[check].odds(params)
