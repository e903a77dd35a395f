"""Rencounter checks: odds agree with seeded rolls, and the properties every check keeps."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.systems.rencounter.checks import CHECKS

#: Parameter sets covering each check's branches (repeaters, shotguns, ripostes, sepsis ...).
SAMPLES = {
    "reload": [
        {"weapon": "flintlock_musket", "progress": 0},
        {"weapon": "heavy_crossbow", "progress": 5},
        {"weapon": "javelin"},
    ],
    "action": [
        {"experience": 4},
        {"experience": 5, "wounds": 1, "morale": 3},
        {"experience": 6, "morale": 0, "master_variant": "confirm"},
        {"experience": 3, "wounds": 2, "morale": 2},
    ],
    "fire": [
        {"skill": 7},
        {"skill": 5, "modifier": -6},
        {"skill": 8, "weapon": "large_da_revolver", "shots": 4, "range": "medium"},
        {"skill": 6, "weapon": "blunderbuss", "range": "too_close", "cover": "half_solid"},
        {
            "skill": 9,
            "weapon": "long_bow",
            "range": "extreme",
            "target_armour": 2,
            "target_shield": "large",
        },
    ],
    "melee": [
        {"attack_skill": 7, "parry_skill": 6},
        {
            "attack_skill": 8,
            "parry_skill": 7,
            "riposte": True,
            "weapon": "sword",
            "defender_weapon": "axe",
            "attackers": 2,
        },
        {
            "attack_skill": 10,
            "parry_skill": 9,
            "aggressive": 3,
            "riposte": True,
            "attacker_armour": 3,
            "breakage": True,
        },
    ],
    "damage": [{"modifier": 0}, {"modifier": -3}, {"modifier": 4}],
    "improvement": [{"stat": "fire", "value": 7}, {"stat": "experience", "value": 4}],
    "aftermath": [
        {"wounds": 1},
        {"wounds": 5},
        {"wounds": 3, "care": "prompt"},
        {"wounds": 2, "hazard": 2},
    ],
    "morale": [
        {"experience": 4, "men_lost": 2, "leader_lost": True},
        {"experience": 5, "unit_eliminated": "within_12", "leader_steady": True},
    ],
    "duck_back": [{"experience": 4}, {"experience": 6, "wounds": 1}],
    "horsemanship": [
        {"horsemanship": 6, "rider_wounds": 1},
        {"horsemanship": 5, "jump": True, "modifier": 1},
    ],
    "hero": [{"experience": 4}, {"experience": 5, "threshold": 3}],
    "grenade": [{"distance": 2}, {"distance": 6, "experience": 3, "wounds": 1}],
    "grenade_fuse": [{}],
    "artillery": [{}, {"load": "grape", "range": 48, "quick_loaded": True}],
    "misfire": [{}],
    "weapon_stuck": [{"melee_skill": 7}, {"melee_skill": 9, "blunt": True}],
    "fall": [{"speed": 10}, {"speed": 40, "modifier": 1}],
    "direct_order": [{"wounds": 0}, {"wounds": 2}],
}
CASES = [(name, params) for name, samples in SAMPLES.items() for params in samples]


def _agree(name, params, rolls, standard_errors):
    check = CHECKS[name]
    odds = check.odds(params).as_floats()
    dice = SeededDice("agreement", f"{name}/{sorted(params.items())}")
    counts = dict.fromkeys(odds, 0)
    for _ in range(rolls):
        counts[check.resolve(params, dice).outcome] += 1
    for key, p in odds.items():
        error = math.sqrt(max(p * (1 - p), 1e-12) / rolls)
        assert abs(counts[key] / rolls - p) <= standard_errors * error + 1e-12, (key, p)


def test_every_check_has_samples():
    assert set(SAMPLES) == set(CHECKS)


@pytest.mark.parametrize(("name", "params"), CASES)
def test_odds_agree_with_seeded_rolls(name, params):
    _agree(name, params, 20_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize(("name", "params"), CASES)
def test_odds_agree_with_200000_seeded_rolls(name, params):
    _agree(name, params, 200_000, 4)


@pytest.mark.parametrize(("name", "params"), CASES)
def test_odds_sum_to_one_over_exactly_the_outcome_keys(name, params):
    odds = CHECKS[name].odds(params)

    assert set(odds.probabilities) == set(CHECKS[name].outcomes)
    assert math.isclose(sum(odds.as_floats().values()), 1.0, abs_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.text(max_size=8))
def test_given_dice_reproduce_a_seeded_result(case, seed):
    name, params = case
    seeded = CHECKS[name].resolve(params, SeededDice(seed, name))
    dice = GivenDice([roll.value for roll in seeded.dice])

    again = CHECKS[name].resolve(params, dice)

    assert (again.outcome, again.details) == (seeded.outcome, seeded.details)
    assert dice.unused == 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.text(max_size=8))
def test_outcomes_stay_in_the_key_set(case, seed):
    name, params = case

    assert CHECKS[name].resolve(params, SeededDice(seed, "keys")).outcome in CHECKS[name].outcomes


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=-30, max_value=30).filter(lambda n: not 2 <= n <= 12))
def test_a_skill_off_the_scale_is_refused(skill):
    with pytest.raises(ValidationError) as caught:
        CHECKS["fire"].odds({"skill": skill})

    assert "skill" in caught.value.errors


@pytest.mark.parametrize(
    ("name", "params", "field"),
    [
        ("action", {"experience": 4, "wounds": 6}, "wounds"),
        ("melee", {"attack_skill": 7, "parry_skill": 6, "aggressive": 2}, "aggressive"),
        ("fire", {"skill": 7, "weapon": "flintlock_musket", "shots": 2}, "shots"),
        ("improvement", {"stat": "experience", "value": 8}, "value"),
        ("aftermath", {"wounds": 2, "care": "prompt", "hazard": 1}, "care"),
        ("aftermath", {"wounds": 0}, "wounds"),
        ("damage", {"modifer": 1}, "modifer"),
    ],
)
def test_bad_parameters_name_the_field(name, params, field):
    with pytest.raises(ValidationError) as caught:
        CHECKS[name].resolve(params, SeededDice("bad"))

    assert field in caught.value.errors


def test_a_repeater_takes_a_cumulative_minus_one_per_extra_shot():
    resolution = CHECKS["fire"].resolve(
        {"skill": 8, "weapon": "large_da_revolver", "shots": 3}, GivenDice([12, 12, 12])
    )

    assert [shot["need"] for shot in resolution.details["shots"]] == [8, 7, 6]


def test_a_blunderbuss_too_close_hits_harder_and_at_extreme_softer():
    close = CHECKS["fire"].odds({"skill": 8, "weapon": "blunderbuss", "range": "too_close"})
    far = CHECKS["fire"].odds({"skill": 8, "weapon": "blunderbuss", "range": "extreme"})

    assert close.probabilities["dead"] > far.probabilities["dead"]


def test_a_good_shot_succeeding_by_3_rolls_damage_at_minus_1():
    good = CHECKS["fire"].resolve({"skill": 7}, GivenDice([4, 3]))
    plain = CHECKS["fire"].resolve({"skill": 7}, GivenDice([5, 3]))

    assert (good.outcome, plain.outcome) == ("dead", "crippling")


def test_a_miss_that_only_solid_cover_caused_calls_for_a_duck_back():
    resolution = CHECKS["fire"].resolve(
        {"skill": 7, "cover": "three_quarter_solid"}, GivenDice([6])
    )

    assert resolution.outcome == "miss"
    assert resolution.details["duck_back_due"] is True


@pytest.mark.parametrize(
    ("cover", "due"), [("leafy", True), ("obscuring", True), ("half_solid", True), ("none", False)]
)
def test_a_minor_wound_on_a_man_in_any_cover_calls_for_a_duck_back(cover, due):
    resolution = CHECKS["fire"].resolve({"skill": 7, "cover": cover}, GivenDice([5, 9]))

    assert resolution.outcome == "minor"
    assert resolution.details["duck_back_due"] is due


def test_a_miss_that_only_leafy_cover_caused_calls_for_no_duck_back():
    resolution = CHECKS["fire"].resolve({"skill": 7, "cover": "leafy"}, GivenDice([6]))

    assert resolution.outcome == "miss"
    assert resolution.details["duck_back_due"] is False


def test_a_riposte_wounds_the_attacker():
    resolution = CHECKS["melee"].resolve(
        {"attack_skill": 6, "parry_skill": 8, "riposte": True}, GivenDice([9, 4, 8])
    )

    assert resolution.outcome == "riposte"
    assert {(e.who, e.key) for e in resolution.effects} >= {("actor", "wounds")}


def test_hit_locations_add_a_d6_after_a_wound():
    resolution = CHECKS["damage"].resolve({"modifier": 0, "locations": True}, GivenDice([9, 6]))

    assert resolution.details["location"] == "head"


@pytest.mark.parametrize(
    ("speed", "modifier"), [(6, 6), (7, 4), (12, 4), (18, 2), (24, 0), (25, -1), (30, -1), (31, -2)]
)
def test_falls_hurt_less_the_faster_the_table_says(speed, modifier):
    resolution = CHECKS["fall"].resolve({"speed": speed}, GivenDice([6]))

    assert resolution.details["modifier"] == modifier


def test_a_man_with_a_serious_wound_obeys_a_direct_order_on_4_or_less():
    odds = CHECKS["direct_order"].odds({"wounds": 2})

    assert odds.probabilities["acts"] == Fraction(4, 6)
