"""Every worked example in the Rencounter text, as a test."""

from fractions import Fraction

import pytest

from rules.dice import GivenDice
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.checks import CHECKS
from rules.systems.rencounter.combat import breakage
from rules.systems.rencounter.melee import PARAMS as MELEE_PARAMS
from rules.systems.rencounter.melee import plan as melee_plan

FIRE, MELEE, ACTION = CHECKS["fire"], CHECKS["melee"], CHECKS["action"]
IMPROVEMENT = CHECKS["improvement"]


def _hit_chance(params):
    return 1 - FIRE.odds(params).probabilities["miss"]


def test_private_wilton_needing_minus_one_hits_on_a_1_confirmed_by_7_or_less():
    wilton = {"skill": 5, "modifier": -6}

    confirmed = FIRE.resolve(wilton, GivenDice([1, 7, 9]))
    unconfirmed = FIRE.resolve(wilton, GivenDice([1, 8]))

    assert confirmed.outcome == "minor"
    assert unconfirmed.outcome == "miss"
    assert _hit_chance(wilton) == Fraction(7, 144)  # "about a 5% chance"


def test_wilton_at_minus_four_needs_snake_eyes():
    params = {"skill": 5, "modifier": -9}

    snake_eyes = FIRE.resolve(params, GivenDice([1, 1, 9]))
    one_and_two = FIRE.resolve(params, GivenDice([1, 2]))

    assert snake_eyes.outcome == "minor"
    assert one_and_two.outcome == "miss"
    assert _hit_chance(params) == Fraction(1, 144)


def test_at_minus_five_a_shot_cannot_hit_and_no_die_is_rolled():
    params = {"skill": 5, "modifier": -10}

    resolution = FIRE.resolve(params, GivenDice([]))

    assert resolution.outcome == "miss"
    assert resolution.dice == ()
    assert _hit_chance(params) == 0


def test_a_natural_12_misses_even_a_shot_needing_more_than_12():
    resolution = FIRE.resolve({"skill": 12, "modifier": 5}, GivenDice([12]))

    assert resolution.outcome == "miss"


def _musketeer(attackers, master=False):
    params = MELEE_PARAMS.validate(
        {"attack_skill": 8, "parry_skill": 8, "attackers": attackers, "defender_master": master}
    )
    return melee_plan(t.BASE, tuple(params[name] for name in MELEE_PARAMS.names))


def test_guards_rolling_3_5_1_give_two_active_attackers():
    rolls = [ACTION.resolve({"experience": 4}, GivenDice([roll])).outcome for roll in (3, 5, 1)]

    assert rolls.count("acts") == 2


def test_two_active_guards_each_get_plus_one_and_the_musketeer_parries_at_minus_one():
    alone, two = _musketeer(1), _musketeer(2)

    assert two.attack_target == alone.attack_target + 1
    assert two.parry_target == alone.parry_target - 1


def test_milady_at_his_back_makes_it_plus_two_and_minus_two():
    alone, three = _musketeer(1), _musketeer(3)

    assert three.attack_target == alone.attack_target + 2
    assert three.parry_target == alone.parry_target - 2


def test_musashi_as_a_master_parries_at_full_value_against_a_crowd():
    alone, crowd = _musketeer(1, master=True), _musketeer(5, master=True)

    assert crowd.attack_target == alone.attack_target
    assert crowd.parry_target == alone.parry_target


def test_axe_parrying_a_sword_breaks_the_sword_and_not_the_axe():
    sword, axe = 0, -1

    defender_broken, attacker_broken = breakage(4, 3, sword, axe)

    assert (defender_broken, attacker_broken) == (False, True)


def test_the_sword_vs_axe_example_through_the_melee_check():
    params = {
        "attack_skill": 7,
        "parry_skill": 6,
        "weapon": "sword",
        "defender_weapon": "axe",
        "breakage": True,
    }

    resolution = MELEE.resolve(params, GivenDice([4, 3]))

    assert resolution.outcome == "no_hit"
    assert resolution.details["attacker_weapon_broken"] is True
    assert resolution.details["defender_item_broken"] is None


def test_a_metal_rimmed_shield_parrying_instead_saves_the_sword():
    params = {
        "attack_skill": 7,
        "parry_skill": 6,
        "weapon": "sword",
        "defender_weapon": "axe",
        "defender_shield": "small_medium",
        "defender_shield_make": "rimmed",
        "breakage": True,
    }

    resolution = MELEE.resolve(params, GivenDice([4, 3]))

    assert resolution.details["attacker_weapon_broken"] is False
    assert resolution.details["defender_item_broken"] is None


@pytest.mark.parametrize(
    ("total", "outcome"),
    [
        (7, "falls_back"),
        (8, "falls_back"),
        (9, "falls_back"),
        (10, "routs"),
        (11, "routs"),
    ],
)
def test_a_veteran_runs_on_7_to_9_and_for_good_on_10(total, outcome):
    natural = 4

    resolution = ACTION.resolve({"experience": 5, "morale": total - natural}, GivenDice([natural]))

    assert resolution.outcome == outcome


@pytest.mark.parametrize(("experience", "first_permanent"), [(1, 8), (3, 8), (4, 9), (6, 11)])
def test_the_permanent_failure_number_rises_with_quality(experience, first_permanent):
    natural = 6

    below = ACTION.resolve(
        {"experience": experience, "morale": first_permanent - 1 - natural}, GivenDice([natural])
    )
    at = ACTION.resolve(
        {"experience": experience, "morale": first_permanent - natural}, GivenDice([natural])
    )

    assert (below.outcome, at.outcome) == ("falls_back", "routs")


def test_a_seriously_wounded_man_rolling_8_is_overcome_by_his_wounds():
    resolution = ACTION.resolve({"experience": 5, "wounds": 2, "morale": 2}, GivenDice([4]))

    assert resolution.outcome == "collapses"


def test_a_seriously_wounded_man_still_acts_on_a_natural_1():
    resolution = ACTION.resolve({"experience": 3, "wounds": 2, "morale": 6}, GivenDice([1]))

    assert resolution.outcome == "acts"


def test_a_crippled_man_gets_no_natural_1_grace():
    resolution = ACTION.resolve({"experience": 4, "wounds": 3, "morale": 1}, GivenDice([1]))

    assert resolution.outcome == "hesitates"


def test_a_fallible_master_fails_on_a_6_confirmed_by_4_to_6():
    master = {"experience": 6, "master_variant": "confirm"}

    assert ACTION.resolve(master, GivenDice([6, 4])).outcome == "hesitates"
    assert ACTION.resolve(master, GivenDice([6, 3])).outcome == "acts"
    assert ACTION.resolve({"experience": 6}, GivenDice([6])).outcome == "acts"


@pytest.mark.parametrize(("roll", "outcome"), [(4, "unchanged"), (5, "improves"), (6, "improves")])
def test_an_experience_4_figure_improves_on_5_or_6(roll, outcome):
    resolution = IMPROVEMENT.resolve({"stat": "experience", "value": 4}, GivenDice([roll]))

    assert resolution.outcome == outcome
    assert IMPROVEMENT.odds({"stat": "experience", "value": 4}).probabilities[
        "improves"
    ] == Fraction(1, 3)


def test_a_master_cannot_improve_his_experience():
    odds = IMPROVEMENT.odds({"stat": "experience", "value": 6})

    assert odds.probabilities["improves"] == 0
