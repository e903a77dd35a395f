"""Escarmouche auto-resolve: a seeded abstract battle fought with the real checks."""

import pytest

from rules.dice import SeededDice
from rules.errors import ValidationError
from rules.simulate import SimFigure
from rules.system import get_system
from rules.systems.escarmouche.simulate import _battle
from rules.systems.escarmouche.tables import BASE

SYSTEM = get_system("escarmouche")


def sides():
    shot = [
        SimFigure(f"m{i}", f"Musketeer {i}", {"rating": 3, "weapons": ["musket"], "shooter": 1})
        for i in range(3)
    ]
    pike = [SimFigure("p", "Pikeman", {"rating": 3, "melee": "pike", "pike_trailer": 2})]
    horse = [
        SimFigure(f"h{i}", f"Cuirassier {i}", {"rating": 4, "mounted": True, "rider": 2})
        for i in range(3)
    ]
    foot = [SimFigure("f", "Sergeant", {"rating": 3, "fighter": 2})]
    return [shot + pike, horse + foot]


def test_a_battle_ends_with_one_side_having_no_figure_standing():
    result = SYSTEM.simulate(sides(), {}, SeededDice("battle", "1"))

    beaten = 1 - result.winner
    assert result.casualties[beaten] == 4
    assert result.events


def test_the_same_seed_fights_the_same_battle():
    first = SYSTEM.simulate(sides(), {}, SeededDice("battle", "2"))
    second = SYSTEM.simulate(sides(), {}, SeededDice("battle", "2"))

    assert [e.resolution.as_json() for e in first.events] == [
        e.resolution.as_json() for e in second.events
    ]


def test_every_event_is_a_check_of_the_system():
    result = SYSTEM.simulate(sides(), {}, SeededDice("battle", "3"))

    assert {e.resolution.check for e in result.events} <= set(SYSTEM.checks)


def test_special_fights_are_used_when_horse_meets_pike_and_foot():
    checks = set()
    for seed in range(5):
        result = SYSTEM.simulate(sides(), {}, SeededDice("battle", f"many{seed}"))
        checks |= {e.resolution.check for e in result.events}

    assert {"pike_vs_cavalry", "horse_vs_foot", "shoot", "move"} <= checks


def test_skills_used_are_reported_for_the_campaign():
    result = SYSTEM.simulate(sides(), {}, SeededDice("battle", "4"))

    assert set().union(*result.skills_used.values()) <= {
        "shooter",
        "fighter",
        "rider",
        "pike_trailer",
        "artillerist",
        "leader",
    }
    assert result.skills_used


def test_three_sides_are_refused():
    with pytest.raises(ValidationError, match="two sides"):
        SYSTEM.simulate([*sides(), sides()[0]], {}, SeededDice("x"))


def test_a_batch_validates_a_figures_stats_once_and_again_when_they_change():
    stats = {"rating": 3, "weapons": ["musket"]}

    def fielded():
        return _battle(
            [[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]],
            BASE,
            SYSTEM.checks,
            SYSTEM.stats,
        )

    first, again = fielded(), fielded()
    assert (
        again.fighters["a"].stats is first.fighters["a"].stats
    )  # the same answer, not validated again

    stats["weapons"] = []  # the caller changes the figure between battles
    disarmed = fielded()
    assert (first.fighters["a"].kit.lightest, disarmed.fighters["a"].kit.lightest) == (
        "musket",
        None,
    )

    stats["rating"] = 1
    fielded()
    stats["rating"] = True  # equal to 1, but not a rating: validated afresh
    with pytest.raises(ValidationError):
        fielded()
