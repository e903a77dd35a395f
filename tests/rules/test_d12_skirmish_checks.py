"""d12 skirmish: the text's tables and its worked example, check by check."""

import pytest

from rules.dice import GivenDice
from rules.systems.d12_skirmish import SYSTEM

CHECKS = SYSTEM.checks


def resolve(check, dice, **params):
    given = GivenDice(dice)
    result = CHECKS[check].resolve(params, given)
    given.ensure_all_used()
    return result


@pytest.mark.parametrize(
    ("troop", "face", "outcome"),
    [
        ("regular", 6, "hit"),
        ("regular", 5, "miss"),
        ("elite", 4, "hit"),
        ("veteran", 4, "miss"),
        ("raw", 6, "miss"),
        ("raw", 7, "hit"),
        ("elite", 1, "misfire"),
    ],
)
def test_shoot_hits_on_six_or_more_after_the_troop_modifier(troop, face, outcome):
    assert resolve("shoot", [face], troop=troop).outcome == outcome


def test_a_natural_one_misfires_whatever_the_modifier():
    assert resolve("shoot", [1], troop="elite", modifier=12).outcome == "misfire"


def test_shooting_over_three_fences_is_minus_three():
    over_fences = resolve("fire", [8], obstacles=3)
    clear = resolve("fire", [8])

    assert over_fences.details["modifier"] == -3
    assert (over_fences.outcome, clear.outcome) == ("miss", "hit")


def test_fire_adds_cover_range_movement_wounds_and_abilities():
    result = resolve(
        "fire",
        [12],
        troop="elite",
        cover="hard",
        range="extreme",
        crawling=True,
        running=True,
        wounds=1,
        ability="dead_eye",
        expert_skirmisher=True,
    )

    assert result.details["modifier"] == 2 - 2 - 2 - 2 - 2 - 1 + 1 - 1
    assert result.outcome == "miss"


def test_a_muzzle_loader_must_reload_after_firing_but_a_breechloader_need_not():
    muzzle = resolve("fire", [9])
    breech = resolve("fire", [9], loading="breechloader")

    assert [(e.key, e.value) for e in muzzle.effects] == [("loaded", False)]
    assert breech.effects == ()


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        (1, "explodes"),
        (2, "out_of_ammo"),
        (3, "out_of_ammo"),
        (4, "out_of_ammo"),
        (5, "jammed"),
        (8, "jammed"),
        (9, "bad_powder"),
        (12, "bad_powder"),
    ],
)
def test_misfire_table_reads_the_missing_four_as_out_of_ammo(face, outcome):
    assert resolve("misfire", [face]).outcome == outcome


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        (12, "dead"),
        (11, "two_wounds"),
        (10, "two_wounds"),
        (9, "one_wound"),
        (3, "one_wound"),
        (2, "pinned"),
        (1, "pinned"),
    ],
)
def test_foot_wound_table(face, outcome):
    assert resolve("wound", [face]).outcome == outcome


def test_close_range_adds_one_so_an_eleven_is_a_head_shot():
    assert resolve("wound", [11], close_range=True).outcome == "dead"
    assert resolve("wound", [2], close_range=True).outcome == "one_wound"


def test_a_twelve_always_kills_even_a_tough_figure():
    assert resolve("wound", [12], tough=True).outcome == "dead"
    assert resolve("wound", [3], tough=True).outcome == "pinned"


@pytest.mark.parametrize(
    ("dice", "outcome", "thrown"),
    [
        ([12], "dead", False),
        ([11, 10], "dead", True),  # chest hit, thrown, 10+ dead
        ([10, 9], "two_wounds", True),
        ([9, 10], "two_wounds", True),  # minor hit, thrown, 10+ one more wound
        ([5, 3], "one_wound", True),
        ([4], "one_wound", False),
        ([3], "one_wound", False),
        ([2], "pinned", False),
    ],
)
def test_cavalry_wound_table_and_thrown_riders(dice, outcome, thrown):
    result = resolve("wound", dice, mount="cavalry")

    assert result.outcome == outcome
    assert result.details["thrown"] is thrown
    assert (("mounted", False) in {(e.key, e.value) for e in result.effects}) is thrown


def test_a_wounded_figure_is_pinned_and_takes_its_wounds():
    result = resolve("wound", [10])

    assert {(e.key, e.value) for e in result.effects} == {("pinned", True), ("wounds", 2)}


@pytest.mark.parametrize(
    ("ours", "theirs", "outcome"),
    [
        (7, 6, "inflicts_1"),
        (8, 6, "inflicts_1"),
        (9, 6, "inflicts_2"),
        (10, 6, "inflicts_2"),
        (12, 5, "kills"),
        (6, 6, "draw"),
        (3, 5, "suffers_1"),
        (1, 12, "killed"),
    ],
)
def test_hand_to_hand_effects_by_difference(ours, theirs, outcome):
    assert resolve("hand_to_hand", [ours, theirs]).outcome == outcome


def test_winning_by_five_rolls_a_d12_six_or_more_kills():
    assert resolve("hand_to_hand", [11, 6, 6]).outcome == "kills"
    assert resolve("hand_to_hand", [11, 6, 5]).outcome == "inflicts_2"
    assert resolve("hand_to_hand", [1, 6, 12]).outcome == "killed"


def test_hand_to_hand_modifiers_add_up_for_each_side():
    result = resolve(
        "hand_to_hand",
        [6, 6],
        troop="elite",
        weapon="sword",
        charged=True,
        cavalry=True,
        extra_attackers=1,
        combat_expert=True,
        wounds=1,
        enemy_troop="raw",
        enemy_weapon="bayonet",
        enemy_in_cover=True,
    )

    assert result.details["our_total"] == 6 + 2 + 2 + 1 + 1 + 1 + 2 - 1
    assert result.details["enemy_total"] == 6 - 1 + 1 + 1


def test_a_figure_fighting_another_attacker_only_blocks_when_it_wins():
    assert resolve("hand_to_hand", [12, 1], defend_only=True).outcome == "blocks"
    assert resolve("hand_to_hand", [1, 12], defend_only=True).outcome == "killed"


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        (1, "panic"),
        (4, "panic"),
        (5, "retreat"),
        (6, "retreat"),
        (7, "continue"),
        (12, "continue"),
    ],
)
def test_morale_table(face, outcome):
    assert resolve("morale", [face]).outcome == outcome


def test_in_cover_a_three_or_four_rolls_again():
    assert resolve("morale", [2, 6], in_cover=True).outcome == "continue"  # 2 + 1 cover = 3
    assert resolve("morale", [3, 5], in_cover=True).outcome == "pinned"
    assert resolve("morale", [4], in_cover=True).outcome == "retreat"  # 5: no re-roll


def test_panic_or_retreat_in_combat_is_surrender():
    assert resolve("morale", [5], in_combat=True).outcome == "surrender"


def test_a_second_failed_test_in_a_row_removes_the_figure():
    assert resolve("morale", [5], failed_last=True).outcome == "removed"
    assert resolve("morale", [7], failed_last=True).outcome == "continue"


def test_morale_modifiers_add_up():
    result = resolve(
        "morale",
        [8],
        troop="raw",
        wounds=1,
        charged_by_cavalry=True,
        charged_unloaded=True,
        officer_killed=True,
        ability="yella",
    )

    assert result.details["score"] == 8 - 1 - 1 - 1 - 1 - 1 - 1
    assert result.outcome == "panic"


def test_a_kill_costs_the_officer_on_a_twelve():
    assert resolve("officer_loss", [12]).outcome == "officer_killed"
    assert resolve("officer_loss", [11]).outcome == "officer_safe"
