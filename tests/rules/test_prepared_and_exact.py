"""Prepared checks and whole-number odds: the same answers, cheaper.

A prepared check (`Check.prepare`) rolls the Resolution `Check.resolve` gives from the same
dice, for every check of every system; a simulation's `PreparedChecks` does too, and refuses
nothing `resolve` accepts. `exact`, `counted`, `face_odds`, `multisets` and `distribution` give
the Fractions the slow way gives.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.checks import counted, distribution, exact, face_odds, multisets
from rules.dice import SeededDice, d
from rules.errors import RulesError, ValidationError
from rules.simulate import PreparedChecks, validated_snapshot
from rules.system import get_system
from tests.rules.test_every_check import _check_and_params


@settings(max_examples=300, deadline=None)
@given(st.data(), st.text(min_size=1, max_size=8))
def test_a_prepared_check_rolls_what_resolve_rolls(data, seed):
    check, params = _check_and_params(data)
    prepared = check.prepare(params)

    for context in ("a", "b", "c"):
        plain = check.resolve(params, SeededDice(seed, context))
        again = prepared.roll(SeededDice(seed, context))

        assert again.outcome == plain.outcome
        assert again.dice == plain.dice
        assert dict(again.params) == dict(plain.params)
        assert again.details == plain.details
        assert again.effects == plain.effects


def test_a_prepared_check_refuses_bad_parameters_when_prepared():
    fire = get_system("d12_skirmish").check("fire")

    with pytest.raises(ValidationError):
        fire.prepare({"wounds": 99})


def test_a_prepared_checks_parameters_cannot_be_changed_under_it():
    prepared = get_system("game_the_90").check("melee").prepare({})

    with pytest.raises(TypeError):
        prepared.values["target_hits"] = 3  # type: ignore[index]  # the test tries to mutate a read-only mapping


def test_prepared_checks_validate_each_distinct_question_once_per_batch():
    melee = replace(get_system("game_the_90").check("melee"))  # a copy: an empty memo
    dice, plain = SeededDice("s", "c"), SeededDice("s", "c")

    for _battle in range(2):  # two battles of a batch share what the check has validated
        table = PreparedChecks({"melee": melee})
        for hits in (0, 3, 0, 3, 0):
            params = {"die": "d6", "target_hits": hits}
            assert table.resolve("melee", params, dice) == melee.resolve(params, plain)

    assert len(melee._memo) == 2


def test_a_checks_memo_of_prepared_questions_is_bounded(monkeypatch):
    monkeypatch.setattr("rules.checks._MEMO_SIZE", 3)
    melee = replace(get_system("game_the_90").check("melee"))

    for hits in range(7):
        prepared = melee.prepared({"target_hits": hits})
        assert prepared.values["target_hits"] == hits
        assert len(melee._memo) <= 3


def test_a_remembered_number_does_not_let_a_boolean_through():
    melee = replace(get_system("game_the_90").check("melee"))
    melee.prepared({"target_hits": 1})  # remembered

    with pytest.raises(ValidationError):  # True == 1, but a boolean is not a number of Hits
        melee.prepared({"target_hits": True})


def test_prepared_checks_resolve_list_valued_parameters_without_remembering_them():
    checks = {"fire": get_system("rencounter").check("fire")}
    table = PreparedChecks(checks)

    table.resolve("fire", {"skill": 7, "weapon": "long_bow"}, SeededDice("s", "c"))
    with pytest.raises(ValidationError):
        table.resolve("fire", {"skill": 7, "weapon": ["long_bow"]}, SeededDice("s", "c"))


def test_exact_is_the_normalised_fraction():
    for numerator, denominator in product(range(-7, 30), range(1, 40)):
        value = exact(numerator, denominator)
        assert type(value) is Fraction
        assert value == Fraction(numerator, denominator)
        assert (value.numerator, value.denominator) == (
            Fraction(numerator, denominator).numerator,
            Fraction(numerator, denominator).denominator,
        )
        assert hash(value) == hash(Fraction(numerator, denominator))
    with pytest.raises(ZeroDivisionError):
        exact(1, 0)


def test_counts_become_probabilities_over_their_total():
    assert counted({"hit": 3, "miss": 9}, 12) == {"hit": Fraction(1, 4), "miss": Fraction(3, 4)}
    assert face_odds(range(1, 7), lambda face: "high" if face > 4 else "low") == {
        "low": Fraction(2, 3),
        "high": Fraction(1, 3),
    }


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_hands_weigh_what_every_ordered_roll_weighs(count):
    def lowest(rolled):
        return f"lowest {min(rolled)}"

    ordered = distribution(dict.fromkeys(product(range(1, 7), repeat=count), 1), lowest)
    by_hand = distribution(multisets(range(1, 7), count), lowest)

    assert by_hand == ordered
    assert sum(multisets(range(1, 7), count).values()) == 6**count


def test_distribution_folds_fraction_weights_as_before():
    folded = distribution({1: Fraction(1, 3), 2: Fraction(1, 6), 3: Fraction(1, 2)}, str)

    assert folded == {"1": Fraction(1, 3), "2": Fraction(1, 6), "3": Fraction(1, 2)}


def test_odds_that_do_not_sum_to_one_are_refused():
    melee = get_system("game_the_90").check("melee")
    broken = type(melee)(
        "broken", "Broken", melee.params, melee.outcomes, melee.resolver, lambda p: {"hits_1": 0}
    )

    with pytest.raises(RulesError, match="sum to 0"):
        broken.odds({})


def test_an_ordinary_die_of_any_size_is_built_once():
    assert d(54) is d(54)
    assert d(54).faces == tuple(range(1, 55))
    assert d(6) is d(6)
    with pytest.raises(RulesError):
        d(1)


def test_a_validated_snapshot_is_remembered_by_content_and_handed_out_as_a_copy():
    schema = get_system("grits_and_glory").stats
    stats = {"figures": 3, "weapons": ["rifle"]}

    first = validated_snapshot(schema, stats)
    first["weapons"].append("sabre")  # a caller's change stays its own
    again = validated_snapshot(schema, {"figures": 3, "weapons": ["rifle"]})

    assert again == schema.validate_snapshot(stats)
    assert again["weapons"] == ["rifle"]


def test_a_validated_snapshot_tells_equal_values_of_other_types_apart():
    schema = get_system("grits_and_glory").stats

    for figures in (2, 2.0, True, "2"):
        try:
            expected = schema.validate_snapshot({"figures": figures})
        except ValidationError:
            with pytest.raises(ValidationError):
                validated_snapshot(schema, {"figures": figures})
        else:
            assert validated_snapshot(schema, {"figures": figures}) == expected
