"""Auto-resolve: a seeded abstract battle between two forces of units."""

import pytest

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.simulate import SimFigure
from rules.systems.grits_and_glory import SYSTEM
from rules.systems.grits_and_glory.simulate import _setup, _shoot
from rules.systems.grits_and_glory.tables import BASE

POSSE = [
    SimFigure(
        "hero", "Marshal Reed", {"wild_card": True, "shooting": 10, "weapons": ["six_shooter"]}
    ),
    SimFigure("deputies", "Deputies", {"figures": 4, "weapons": ["rifle"]}),
]
GANG = [
    SimFigure("outlaws", "Outlaws", {"figures": 5, "weapons": ["six_shooter"]}),
    SimFigure("braves", "Braves", {"figures": 6, "fighting": 8, "weapons": ["spear"]}),
    SimFigure("boss", "Black Bart", {"wild_card": True, "fighting": 10, "weapons": ["sabre"]}),
]


def _battle(seed):
    return SYSTEM.simulate([POSSE, GANG], {}, SeededDice(seed, "auto-resolve"))


def test_the_same_seed_fights_the_same_battle():
    first, second = _battle("s1"), _battle("s1")

    assert first.winner == second.winner
    assert [e.resolution.dice for e in first.events] == [e.resolution.dice for e in second.events]


def test_a_battle_ends_with_a_broken_force_or_the_end_game_roll():
    result = _battle("s2")
    broken = [
        sum(1 for ref in refs if result.states[ref]["status"] != "active") * 2 >= len(refs)
        for refs in (["hero", "deputies"], ["outlaws", "braves", "boss"])
    ]

    assert any(broken) or result.events[-1].resolution.check == "end_game"


def test_the_log_holds_only_the_systems_own_checks():
    result = _battle("s3")

    assert {e.resolution.check for e in result.events} <= set(SYSTEM.checks)
    assert result.events


def test_every_seed_gives_a_result_within_the_turn_limit():
    for seed in range(10):
        result = _battle(f"many{seed}")
        assert result.winner in (0, 1, None)
        assert 1 <= result.turns <= 40


def test_a_jammed_musket_spends_three_actions_reloading_before_it_fires_again():
    musketeers = SimFigure("muskets", "Musketeers", {"figures": 2, "weapons": ["musket"]})
    battle = _setup([[musketeers], [SimFigure("foe", "Foe", {})]], BASE, SYSTEM.checks)
    battle.states["muskets"]["loaded"] = False  # jammed last action
    dice = GivenDice([])  # reloading rolls nothing

    for _ in range(3):
        _shoot(battle, battle.units["muskets"], battle.units["foe"], "musket", False, dice)

    assert [e.resolution.outcome for e in battle.events] == ["reloading", "reloading", "loaded"]
    assert battle.states["muskets"]["loaded"] is True
    assert battle.states["muskets"]["reloading"] == 0


def test_a_jammed_rifle_reloads_in_one_action():
    riflemen = SimFigure("rifles", "Riflemen", {"weapons": ["rifle"]})
    battle = _setup([[riflemen], [SimFigure("foe", "Foe", {})]], BASE, SYSTEM.checks)
    battle.states["rifles"]["loaded"] = False

    _shoot(battle, battle.units["rifles"], battle.units["foe"], "rifle", False, GivenDice([]))

    assert [e.resolution.check for e in battle.events] == ["reload"]
    assert battle.states["rifles"]["loaded"] is True


def test_a_batch_validates_a_units_stats_once_and_again_when_they_change():
    stats = {"figures": 3, "weapons": ["rifle"]}
    first = _setup([[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]], BASE, SYSTEM.checks)
    again = _setup([[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]], BASE, SYSTEM.checks)
    assert again.stats["a"] is first.stats["a"]  # the same answer, not validated again

    stats["weapons"].append("sabre")  # the caller changes the unit between battles
    changed = _setup([[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]], BASE, SYSTEM.checks)
    assert changed.stats["a"]["weapons"] == ["rifle", "sabre"]
    assert changed.units["a"].melee == "sabre" and first.units["a"].melee == "unarmed"

    stats["figures"] = 1
    _setup([[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]], BASE, SYSTEM.checks)
    stats["figures"] = True  # equal to 1, but not a number of figures: validated afresh
    with pytest.raises(ValidationError):
        _setup([[SimFigure("a", "A", stats)], [SimFigure("b", "B", {})]], BASE, SYSTEM.checks)
