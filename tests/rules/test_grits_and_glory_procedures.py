"""Grits & Glory procedures: difficult ground, area effect, into melee, Reload N, Bennies."""

from fractions import Fraction

import pytest

from rules.dice import GivenDice
from rules.errors import DiceError
from rules.systems.grits_and_glory import SYSTEM
from tests.rules.agreement import case_id, first_case_of_each, odds_agree

GROUND = SYSTEM.check("difficult_ground")
AREA = SYSTEM.check("area_effect")
INTO_MELEE = SYSTEM.check("into_melee")
RELOAD = SYSTEM.check("reload")
BENNY = SYSTEM.check("benny_reroll")
PROCEDURES = ("difficult_ground", "area_effect", "into_melee", "reload", "benny_reroll")

#: The first case of each check is the cheap one run by default; all run under `statistical`.
CASES = [
    ("difficult_ground", {}),
    ("difficult_ground", {"pace": 4, "running": True, "figures": 3}),
    ("area_effect", {"die": 8, "wild_card": True, "range": "medium"}),
    ("area_effect", {"die": 0, "delivery": "fired", "range": "long", "distance": 9}),
    ("into_melee", {"foes": 2, "friends": 3}),
    ("reload", {"reload": 2}),
    ("benny_reroll", {"die": 6, "bennies": 2}),
    ("benny_reroll", {"die": 8, "wild_card": True, "bennies": 3, "goal": "raise", "tn": 6}),
    ("benny_reroll", {"die": 10, "untrained": True, "bennies": 1, "goal": "raise"}),
]
FAST_CASES = first_case_of_each(CASES)


@pytest.mark.parametrize("case", FAST_CASES, ids=case_id)
def test_odds_agree_with_ten_thousand_seeded_rolls(case):
    odds_agree(SYSTEM.check(case[0]), case[1], 10_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_odds_agree_with_two_hundred_thousand_seeded_rolls(case):
    odds_agree(SYSTEM.check(case[0]), case[1], 200_000, 4)


# --- difficult ground ------------------------------------------------------------------------


def test_the_lowest_of_two_d6_is_the_most_inches_moved():
    result = GROUND.resolve({}, GivenDice([5, 3]))

    assert result.outcome == "slowed"
    assert result.details["inches"] == 3
    assert result.effects == ()


def test_the_move_is_never_more_than_the_pace():
    result = GROUND.resolve({"pace": 4}, GivenDice([6, 5]))

    assert result.outcome == "full_pace"
    assert result.details["inches"] == 4


def test_running_rolls_a_third_die_and_moves_the_lowest_two():
    result = GROUND.resolve({"running": True}, GivenDice([5, 2, 4]))

    assert result.outcome == "slowed"
    assert result.details["inches"] == 6


def test_a_one_while_running_hinders_and_shakes_the_whole_unit():
    result = GROUND.resolve({"running": True, "figures": 4}, GivenDice([6, 1, 3]))

    assert result.outcome == "hindered"
    assert result.details["inches"] == 4
    assert [(e.key, e.value) for e in result.effects] == [("shaken", 4)]


def test_a_one_while_walking_only_slows():
    assert GROUND.resolve({}, GivenDice([1, 6])).outcome == "slowed"


def test_difficult_ground_odds_count_every_face():
    walking = GROUND.odds({}).probabilities
    running = GROUND.odds({"running": True, "pace": 1}).probabilities

    assert walking == {"full_pace": Fraction(1, 36), "slowed": Fraction(35, 36), "hindered": 0}
    assert running == {"full_pace": Fraction(125, 216), "slowed": 0, "hindered": Fraction(91, 216)}


# --- area effect -----------------------------------------------------------------------------


def test_a_successful_throw_centres_the_template_and_rolls_no_deviation():
    result = AREA.resolve({}, GivenDice([4]))

    assert result.outcome == "on_target"
    assert len(result.dice) == 1


def test_a_missed_grenade_at_medium_range_deviates_a_d6_times_two_towards_the_clock():
    result = AREA.resolve({"range": "medium", "distance": 20}, GivenDice([5, 3, 7]))

    assert result.details["total"] == 3
    assert result.outcome == "deviates"
    assert (result.details["inches"], result.details["direction"]) == (6, "7 o'clock")
    assert [r.die for r in result.dice] == ["d6", "d6", "d12"]


def test_a_fired_projectile_deviates_a_d10_times_three_at_long_range():
    params = {"delivery": "fired", "range": "long", "distance": 40}

    result = AREA.resolve(params, GivenDice([2, 4, 12]))

    assert [r.die for r in result.dice] == ["d6", "d10", "d12"]
    assert result.details["inches"] == 12


def test_a_blast_never_deviates_more_than_half_the_distance_to_the_target():
    result = AREA.resolve({"range": "long", "distance": 9}, GivenDice([1, 6, 3]))

    assert result.details["capped"] is True
    assert result.details["inches"] == 4.5


def test_a_fired_area_weapon_jams_on_a_natural_one_a_thrown_one_does_not():
    fired = AREA.resolve({"delivery": "fired"}, GivenDice([1, 2, 3]))
    thrown = AREA.resolve({"delivery": "thrown"}, GivenDice([1, 2, 3]))

    assert fired.details["jammed"] and fired.effects[0].key == "loaded"
    assert not thrown.details["jammed"] and thrown.effects == ()


def test_the_area_attack_misses_as_often_as_a_trait_test_at_the_same_modifier():
    area = AREA.odds({"die": 8, "range": "long"}).probabilities
    trait = SYSTEM.check("trait").odds({"die": 8, "modifier": -4}).probabilities

    assert area["deviates"] == trait["failure"]


# --- firing into melee -----------------------------------------------------------------------


def test_each_figure_in_the_melee_is_equally_likely_to_be_hit():
    odds = INTO_MELEE.odds({"foes": 1, "friends": 2}).probabilities

    assert odds == {
        "hits_target": Fraction(1, 4),
        "hits_other_foe": Fraction(1, 4),
        "hits_friend": Fraction(2, 4),
    }


def test_the_die_reads_target_then_other_foes_then_friends():
    params = {"foes": 1, "friends": 2}

    rolled = [INTO_MELEE.resolve(params, GivenDice([face])).outcome for face in (1, 2, 3, 4)]

    assert rolled == ["hits_target", "hits_other_foe", "hits_friend", "hits_friend"]


def test_with_nobody_else_in_contact_the_target_is_hit_without_a_roll():
    result = INTO_MELEE.resolve({"friends": 0}, GivenDice([]))

    assert result.outcome == "hits_target"
    assert result.dice == ()


def test_a_face_outside_the_melee_is_refused():
    with pytest.raises(DiceError, match="d3"):
        INTO_MELEE.resolve({"foes": 1, "friends": 1}, GivenDice([4]))


# --- Reload N --------------------------------------------------------------------------------


def _reload(state, reload=2):
    result = RELOAD.resolve({"reload": reload, "reloading": state["reloading"]}, GivenDice([]))
    for effect in result.effects:
        effect.apply(state)
    return result.outcome


def test_a_musket_with_reload_two_takes_three_actions_to_reload():
    state = {"loaded": False, "reloading": 0}

    outcomes = [_reload(state) for _ in range(3)]

    assert outcomes == ["reloading", "reloading", "loaded"]
    assert state == {"loaded": True, "reloading": 0}


def test_a_modern_firearm_reloads_in_one_action_that_may_be_combined():
    result = RELOAD.resolve({"reload": 0}, GivenDice([]))

    assert result.outcome == "loaded"
    assert result.details["sole_action"] is False


def test_limited_ammunition_forbids_reloading():
    result = RELOAD.resolve({"limited_ammunition": True}, GivenDice([]))

    assert result.outcome == "cannot_reload"
    assert result.effects == ()


# --- Bennies ---------------------------------------------------------------------------------


def test_a_benny_rerolls_a_failure_and_the_best_roll_counts():
    result = BENNY.resolve({"bennies": 2}, GivenDice([2, 5]))

    assert result.outcome == "success"
    assert result.details == {"totals": [2, 5], "bennies_spent": 1, "best": 5}
    assert [r.label for r in result.dice] == ["trait", "benny 1"]


def test_spending_bennies_until_they_run_out():
    result = BENNY.resolve({"bennies": 2}, GivenDice([1, 2, 3]))

    assert result.outcome == "failure"
    assert result.details["bennies_spent"] == 2


def test_rerolling_for_a_raise_keeps_the_earlier_success_when_the_reroll_is_worse():
    result = BENNY.resolve({"bennies": 1, "goal": "raise"}, GivenDice([5, 1]))

    assert result.outcome == "success"
    assert result.details["totals"] == [5, 1]


def test_a_wild_card_rerolls_both_dice():
    result = BENNY.resolve({"wild_card": True}, GivenDice([1, 2, 4, 1]))

    assert result.outcome == "success"
    assert [r.label for r in result.dice] == [
        "trait",
        "trait: wild die",
        "benny 1",
        "benny 1: wild die",
    ]


def test_one_benny_on_a_d6_halves_the_chance_of_failing():
    odds = BENNY.odds({"die": 6, "bennies": 1}).probabilities

    assert odds == {
        "failure": Fraction(1, 4),
        "success": Fraction(13, 24),
        "raise": Fraction(5, 24),
    }
