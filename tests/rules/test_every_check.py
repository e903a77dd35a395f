"""Properties every check of every system keeps, whatever its parameters.

Its odds are a distribution over exactly its outcome keys (exact Fractions summing to 1, or
floats within their stated error), and the dice a seeded resolution drew, typed back in as
given dice, replay the same resolution: outcome, dice, details and effects; and what happened
had a chance above nought. (The systems' own modules test their worked examples and odds.)
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from rules.checks import Check, Odds, Outcome
from rules.dice import SCHEMES, GivenDice, SeededDice
from rules.errors import RulesError, ValidationError
from rules.schema import Schema
from rules.system import all_systems
from tests.rules.agreement import params_strategy

CHECKS = [check for system in all_systems() for check in system.checks.values()]


def _check_and_params(data: st.DataObject) -> tuple[Check, dict[str, Any]]:
    check = data.draw(st.sampled_from(CHECKS), label="check")
    params = data.draw(params_strategy(check), label="params")
    try:
        return check, check.params.validate(params)
    except ValidationError:  # a cross-field rule (e.g. more attackers than figures)
        reject()


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_odds_are_a_distribution_over_exactly_the_outcome_keys(data):
    check, params = _check_and_params(data)

    odds = check.odds(params)

    assert set(odds.probabilities) == set(check.outcomes)
    if odds.exact:
        assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.probabilities.values())
        assert sum(odds.probabilities.values()) == 1
    else:
        total = sum(float(p) for p in odds.probabilities.values())
        assert abs(total - 1) <= odds.error_bound * len(check.outcomes) + 1e-12


@settings(max_examples=1000, deadline=None)
@given(st.data(), st.text(max_size=8), st.sampled_from(SCHEMES))
def test_given_dice_replay_a_seeded_resolution(data, seed, scheme):
    check, params = _check_and_params(data)
    seeded = check.resolve(params, SeededDice(seed, check.name, scheme))
    given_dice = GivenDice([roll.value for roll in seeded.dice])

    replay = check.resolve(params, given_dice)

    assert replay.outcome == seeded.outcome
    assert replay.dice == seeded.dice
    assert replay.details == seeded.details
    assert replay.effects == seeded.effects
    assert given_dice.unused == 0
    assert check.odds(params).probabilities[seeded.outcome] > 0  # what happened could happen


def _toss(odds: dict[str, Fraction]) -> Check:
    return Check(
        "toss",
        "Toss",
        Schema(()),
        ("heads", "tails"),
        lambda params, dice: Outcome("heads", {}),
        lambda params: odds,
    )


def test_checked_odds_are_the_odds_the_dataclass_builds():
    # `Check.odds` fills the frozen Odds's fields directly (`rules.checks._checked_odds`).
    built = _toss({"heads": Fraction(1, 2), "tails": Fraction(1, 2)}).odds({})
    assert built == Odds({"heads": Fraction(1, 2), "tails": Fraction(1, 2)}, True, 0.0)
    assert vars(built) == {
        "probabilities": {"heads": Fraction(1, 2), "tails": Fraction(1, 2)},
        "exact": True,
        "error_bound": 0.0,
    }
    with pytest.raises(FrozenInstanceError):
        built.exact = False  # type: ignore[misc]  # the point: a frozen field refuses a write


def test_odds_naming_an_outcome_the_check_lacks_are_refused_by_name():
    with pytest.raises(RulesError, match=r"unknown outcomes \['edge'\]"):
        _toss({"heads": Fraction(1, 2), "edge": Fraction(1, 2)}).odds({})
