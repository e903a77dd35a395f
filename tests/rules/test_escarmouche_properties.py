"""Escarmouche: properties that hold for any valid parameters of any check."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.system import get_system

SYSTEM = get_system("escarmouche")
CHECKS = sorted(SYSTEM.checks)


def _value(field):
    if field.kind == "int":
        return st.integers(field.min, min(field.max, field.min + 6))
    if field.kind == "bool":
        return st.booleans()
    return st.sampled_from(field.choice_values())


@st.composite
def check_and_params(draw):
    check = SYSTEM.check(draw(st.sampled_from(CHECKS)))
    raw = {f.name: draw(_value(f)) for f in check.params.fields}
    try:
        params = check.params.validate(raw)
    except ValidationError:
        params = check.params.validate({})
    return check, params


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(check_and_params())
def test_odds_are_exact_and_sum_to_one(case):
    check, params = case

    odds = check.odds(params)

    assert odds.exact
    assert sum(Fraction(v) for v in odds.probabilities.values()) == 1
    assert set(odds.probabilities) == set(check.outcomes)


@settings(max_examples=150, deadline=None)
@given(check_and_params(), st.text(max_size=8))
def test_outcomes_stay_in_the_key_set_and_given_dice_reproduce_them(case, seed):
    check, params = case
    seeded = check.resolve(params, SeededDice(seed, check.name))

    replayed = check.resolve(params, GivenDice([roll.value for roll in seeded.dice]))

    assert seeded.outcome in check.outcomes
    assert (replayed.outcome, replayed.details, replayed.effects) == (
        seeded.outcome,
        seeded.details,
        seeded.effects,
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CHECKS),
    st.sampled_from(["active", "rating", "weapon", "nonsense"]),
    st.sampled_from([-1, 99, "x"]),
)
def test_bad_params_raise_a_validation_error(name, field, value):
    check = SYSTEM.check(name)

    with pytest.raises(ValidationError):
        check.odds({field: value})
