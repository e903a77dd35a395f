"""Escarmouche's checks: worked examples, penalties, effects tables and exact odds."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.system import get_system
from rules.systems.escarmouche.checks import contest, penalised
from rules.systems.escarmouche.tables import BASE, hits_for

SYSTEM = get_system("escarmouche")


def resolve(check, params, dice):
    return SYSTEM.check(check).resolve(params, GivenDice(dice))


def dice_used(check, params):
    return len(SYSTEM.check(check).resolve(params, SeededDice("count", check)).dice)


def exhaustive(check, params):
    """Resolve every possible roll with given dice and fold the outcomes exactly."""
    n = dice_used(check, params)
    counts: dict[str, int] = {}
    for faces in product(range(1, 7), repeat=n):
        key = SYSTEM.check(check).resolve(params, GivenDice(faces)).outcome
        counts[key] = counts.get(key, 0) + 1
    return {key: Fraction(c, 6**n) for key, c in counts.items()}


# --- the text's worked examples ------------------------------------------------------------


def test_the_texts_opposed_roll_five_two_beats_three_two_one_by_two():
    result = resolve("opposed", {"active": 2, "defender_dice": 3}, [5, 2, 3, 2, 1])

    assert result.outcome == "roller_wins"
    assert result.details["diff"] == 2


@pytest.mark.parametrize(("dice", "score"), [([6, 3, 2], 6), ([6, 6, 2, 1], 7), ([6, 6, 6], 8)])
def test_the_pool_check_reports_the_texts_scores(dice, score):
    result = resolve("pool", {"active": len(dice)}, dice)

    assert result.details["score"] == score


def test_six_six_two_one_loses_the_figure_its_turn():
    assert resolve("pool", {"active": 4}, [6, 6, 2, 1]).outcome == "figure_ends"


def test_two_ones_in_one_roll_end_the_sides_turn():
    assert resolve("pool", {"active": 1, "passive": 2}, [4, 1, 1]).outcome == "side_ends"


def test_a_single_one_after_the_sides_first_ends_the_side():
    assert resolve("pool", {"active": 2, "ones_before": 1}, [1, 5]).outcome == "side_ends"


# --- ties and rating -----------------------------------------------------------------------


def test_a_tied_score_goes_to_the_higher_rating_with_difference_zero():
    assert contest(4, 2, 4, 3) == ("defender", 0)


def test_a_tied_score_between_equal_ratings_has_no_winner():
    assert contest(4, 3, 4, 3) == (None, 0)


# --- pools and penalties -------------------------------------------------------------------


def test_penalties_replace_active_dice_one_for_one():
    assert penalised(3, replaced=2) == penalised(3, replaced=2, skill=0)
    assert (penalised(3, replaced=2).active, penalised(3, replaced=2).passive) == (1, 2)


def test_penalties_never_replace_more_dice_than_are_active():
    pool = penalised(1, replaced=3)

    assert (pool.active, pool.passive) == (0, 1)


def test_skill_rolls_passive_dice_as_active():
    pool = penalised(1, replaced=1, added=4, skill=2)

    assert (pool.active, pool.passive) == (2, 3)


def test_a_musket_shot_adds_four_passive_dice_and_one_active():
    result = resolve("shoot", {"weapon": "musket"}, [5, 2, 3, 4, 6, 2, 2, 2])

    assert result.details["roll"]["active"] == [5]
    assert result.details["roll"]["passive"] == [2, 3, 4, 6]


def test_a_shaken_shooter_at_a_target_in_cover_rolls_two_active_as_passive():
    params = {"active": 2, "weapon": "thrown", "shaken": 1, "cover": True}

    result = resolve("shoot", params, [4, 3, 3, 2, 5, 1, 1, 1])

    assert len(result.details["roll"]["active"]) == 1
    assert len(result.details["roll"]["passive"]) == 3


def test_moving_adds_no_active_die_and_the_terrains_passive_dice():
    result = resolve("move", {"active": 1, "terrain": "heavy"}, [5, 2, 3, 4, 6])

    assert result.details["roll"]["active"] == [5]
    assert len(result.details["roll"]["passive"]) == 4


def test_volley_fire_adds_an_active_die_per_other_shooter():
    params = {"shooters": 2, "weapon": "musket", "leader": 1}

    result = resolve("volley", params, [1, 2, 3, 4, 5, 6, 2, 6, 6, 6])

    assert len(result.details["roll"]["active"]) == 4  # 1 + 2 shooters + 1 via Leader
    assert len(result.details["roll"]["passive"]) == 3


def test_artillery_adds_the_artillerists_skill_in_active_dice():
    result = resolve("artillery", {"artillerist": 2}, [6, 6, 2, 2, 2, 2, 2, 2, 1, 1, 1])

    assert result.details["score"] == 7
    assert result.outcome == "multiple_hits"
    assert result.details["hits"] == 5  # 7 against the target's 1: difference 6


# --- shooting effects ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("diff", "key", "hits"),
    [
        (0, "shaken", 0),
        (1, "cowered", 0),
        (2, "hit", 1),
        (3, "multiple_hits", 2),
        (4, "multiple_hits", 3),
    ],
)
def test_the_shooting_effects_table(diff, key, hits):
    from rules.systems.escarmouche.tables import effect_row

    assert (effect_row(BASE.SHOOTING_EFFECTS, diff).key, hits_for(BASE.SHOOTING_EFFECTS, diff)) == (
        key,
        hits,
    )


@pytest.mark.parametrize(
    ("diff", "key", "hits"),
    [
        (0, "pushed_back", 0),
        (1, "shaken", 0),
        (2, "disarmed", 0),
        (3, "hit", 1),
        (4, "multiple_hits", 2),
        (5, "multiple_hits", 3),
    ],
)
def test_the_fighting_effects_table(diff, key, hits):
    from rules.systems.escarmouche.tables import effect_row

    assert (effect_row(BASE.FIGHTING_EFFECTS, diff).key, hits_for(BASE.FIGHTING_EFFECTS, diff)) == (
        key,
        hits,
    )


def test_a_shot_that_wins_by_three_takes_two_wounds_and_shakes():
    result = resolve("shoot", {"weapon": "thrown", "target_rating": 1}, [5, 4, 2])

    effects = {(e.who, e.key): e.value for e in result.effects}
    assert result.outcome == "multiple_hits"
    assert effects == {("target", "wounds"): -2, ("target", "shaken"): 1}


def test_a_shot_that_ties_a_lower_rated_target_shakes_it():
    result = resolve("shoot", {"weapon": "thrown", "rating": 4, "target_rating": 1}, [3, 2, 3])

    assert result.outcome == "shaken"


def test_a_cowered_target_goes_prone_into_cover():
    result = resolve("shoot", {"weapon": "thrown", "target_rating": 1}, [4, 2, 3])

    assert {e.key: e.value for e in result.effects} == {"prone": True, "cover": True}


# --- fighting ------------------------------------------------------------------------------


def test_a_defender_who_wins_a_fight_applies_the_table_to_the_attacker():
    result = resolve("fight", {"defender_rating": 2}, [2, 5, 3])

    assert result.outcome == "attacker_hit"
    assert result.details["pushed_back"] == "attacker"
    assert {(e.who, e.key): e.value for e in result.effects} == {
        ("actor", "wounds"): -1,
        ("actor", "shaken"): 1,
    }


def test_outnumbering_gives_the_defending_side_a_die_per_extra_figure():
    result = resolve("fight", {"defenders": 3, "defender_rating": 2}, [4, 1, 1, 1, 1])

    assert result.details["defender_score"] == 1
    assert result.outcome == "defender_hit"


def test_many_against_many_is_refused():
    with pytest.raises(ValidationError, match="attackers"):
        SYSTEM.check("fight").odds({"attackers": 2, "defenders": 2})


def test_uphill_cover_weaponless_and_shaken_each_replace_an_attackers_die():
    params = {"active": 3, "uphill": True, "cover": True, "weaponless": True, "shaken": 1}

    result = resolve("fight", params, [2, 2, 2, 2, 3, 3, 3])

    assert (len(result.details["roll"]["active"]), len(result.details["roll"]["passive"])) == (0, 4)
    assert result.outcome.startswith("attacker_")


def test_a_disarming_blow_sets_the_disarmed_marker():
    result = resolve("fight", {"defender_rating": 1}, [5, 3])

    assert result.outcome == "defender_disarmed"
    assert [(e.key, e.value) for e in result.effects] == [("disarmed", True)]


def test_the_pike_wins_first_strike_and_keeps_the_horse_away():
    result = resolve("pike_vs_cavalry", {"pike_attacks": False, "defender_rating": 3}, [3, 5, 1, 1])

    assert result.outcome == "horse_disarmed"
    assert ("actor", "kept_away", True) in {(e.who, e.key, e.value) for e in result.effects}


def test_a_horsemans_win_against_the_pike_is_ignored_in_the_first_round():
    result = resolve("pike_vs_cavalry", {"pike_attacks": False, "defender_rating": 1}, [6, 2])

    assert result.outcome == "horse_win_ignored"
    assert result.effects == ()
    assert result.details["next_round_normal"] is True


def test_massed_pike_adds_a_die_per_supporting_pikeman_in_defence():
    result = resolve("massed_pike", {"supporting": 2, "defender_rating": 1}, [4, 2, 2, 6])

    assert result.details["defender_score"] == 6
    assert result.outcome == "horse_disarmed"


def test_horse_strikes_first_against_foot_without_pikes():
    result = resolve("horse_vs_foot", {"horse_attacks": True, "defender_rating": 1}, [1, 4])

    assert result.outcome == "foot_win_ignored"


def test_a_pike_fencer_who_wins_and_keeps_initiative_may_fight_on_without_pikes():
    result = resolve("pike_fencing", {"defender_rating": 1}, [6, 2])

    assert result.details["may_fight_on_without_pikes"] is True


# --- developing and reserving ----------------------------------------------------------------


def test_steadying_removes_a_shaken_marker_whatever_the_roll():
    result = resolve("develop", {"purpose": "remove_shaken", "shaken": 1}, [1, 1])

    assert result.outcome == "side_ends"
    assert [(e.key, e.value) for e in result.effects] == [("shaken", -1)]


def test_steadying_without_a_shaken_marker_is_refused():
    with pytest.raises(ValidationError, match="purpose"):
        SYSTEM.check("develop").odds({"purpose": "remove_shaken"})


def test_a_reserved_action_rolls_one_die_and_risks_no_initiative():
    result = resolve(
        "shoot", {"active": 4, "reserved": True, "weapon": "thrown", "target_rating": 1}, [6, 1, 2]
    )

    assert result.details["initiative"] == "not_at_stake"
    assert ("actor", "reserved", False) in {(e.who, e.key, e.value) for e in result.effects}


def test_reserving_sets_the_reserved_marker_without_dice():
    result = SYSTEM.check("reserve").resolve({"active": 3}, GivenDice([]))

    assert result.dice == () and result.outcome == "reserved"


@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ([3, 4, 5], "all_move"),
        ([1, 4, 5], "move_figure_ends"),
        ([1, 1, 5], "move_side_ends"),
        ([1, 1, 1], "no_move"),
    ],
)
def test_marshal_results_follow_the_ones_rolled(dice, outcome):
    params = {"terrain": "clear", "followers": 1}

    assert resolve("marshal", params, dice).outcome == outcome


# --- exact odds agree with every possible roll ---------------------------------------------

EXHAUSTIVE = [
    ("pool", {"active": 2, "passive": 2, "ones_before": 1}),
    ("opposed", {"active": 2, "passive": 1, "defender_dice": 2, "rating": 4}),
    ("move", {"active": 1, "terrain": "broken"}),
    ("marshal", {"followers": 2, "leader": 1}),
    ("develop", {"active": 2, "shaken": 1}),
    ("shoot", {"weapon": "short_bow", "skill": 1, "target_rating": 2}),
    ("volley", {"shooters": 1, "weapon": "thrown", "target_rating": 2, "rating": 2}),
    # A cannon alone costs five passive dice: 6**7 rolls, so this one runs with the big tests.
    pytest.param(
        "artillery",
        {"artillerist": 0, "reserved": True, "target_rating": 1, "rating": 2},
        marks=pytest.mark.statistical,
        id="artillery",
    ),
    ("fight", {"active": 1, "attackers": 2, "uphill": True, "defender_rating": 2}),
    ("pike_vs_cavalry", {"pike_attacks": True, "defender_rating": 2, "rating": 2}),
    ("massed_pike", {"supporting": 1, "defender_rating": 2}),
    ("horse_vs_foot", {"defenders": 2, "defender_rating": 1, "defender_skill": 2}),
    ("pike_fencing", {"cover": True, "skill": 1, "defender_rating": 2, "rating": 1}),
]


@pytest.mark.parametrize(("check", "params"), EXHAUSTIVE)
def test_odds_equal_the_outcomes_of_every_possible_roll(check, params):
    odds = SYSTEM.check(check).odds(params).probabilities

    assert {k: v for k, v in odds.items() if v} == exhaustive(check, params)
