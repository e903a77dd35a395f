"""The post-game Vigor test for removed units, and victory points."""

from rules.campaign import FigureRecord
from rules.dice import GivenDice, SeededDice
from rules.systems.grits_and_glory.campaign import (
    UnitFate,
    is_removed,
    post_battle,
    victory_points,
    vigor_params,
)


def _dice_for(values):
    return lambda procedure, index: GivenDice(values)


def test_a_unit_still_standing_rolls_nothing():
    record = FigureRecord("Redcloaks", {"figures": 4}, extra={"figures_removed": 2})

    assert post_battle(record, {}, _dice_for([])) == ()


def test_a_removed_unit_rolls_a_group_vigor_test_with_one_per_figure_standing():
    stats = {"figures": 5, "vigor": 6, "wild_card": False}

    params = vigor_params(stats, removed=3)

    assert params == {"die": 6, "wild_card": True, "modifier": 2}


def test_a_failed_vigor_test_kills_the_unit():
    record = FigureRecord("Trooper Ames", {"vigor": 6}, status="out")

    (roll,) = post_battle(record, {}, _dice_for([3]))

    assert (roll.procedure, roll.index, roll.outcome) == ("vigor_test", 0, "killed")
    assert roll.changes[0].after == "DEAD"


def test_a_successful_vigor_test_is_a_knock_out():
    record = FigureRecord("Captain Lark", {"vigor": 8, "wild_card": True}, status="dead")

    (roll,) = post_battle(record, {}, _dice_for([2, 5]))

    assert roll.outcome == "survives"
    assert roll.changes[0].kind == "note"


def test_the_vigor_dice_come_from_the_procedure_step():
    record = FigureRecord("Natives", {"figures": 3}, extra={"figures_removed": 3})
    asked = []

    def dice_for(procedure, index):
        asked.append((procedure, index))
        return SeededDice("battle-seed", f"{procedure}/{index}")

    post_battle(record, {}, dice_for)

    assert asked == [("vigor_test", 0)]


def test_the_majority_of_figures_decides_whether_a_unit_is_removed():
    assert is_removed(3, 5)
    assert not is_removed(2, 4)


def test_victory_points_follow_the_text():
    own = [
        UnitFate("on_table"),
        UnitFate("ran_off"),
        UnitFate("ko"),
        UnitFate("killed"),
        UnitFate("killed", ally=True),
    ]
    enemy = ["killed", "ko", "on_table"]

    assert victory_points(own, enemy) == (4 + 0 + 0 - 4 - 1) + (2 + 1 + 0)
