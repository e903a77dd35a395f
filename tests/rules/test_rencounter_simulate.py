"""Rencounter auto-resolve: a seeded abstract battle that ends at a breakpoint."""

from rules.dice import SeededDice
from rules.simulate import SimFigure
from rules.systems.rencounter.simulate import MAX_TURNS, simulate
from rules.systems.rencounter.stats import OPTIONS, STATS


def _side(prefix, weapons, experience, count=6):
    stats = STATS.validate(
        {
            "experience": experience,
            "fire": 2 * experience,
            "melee": 2 * experience,
            "weapons": weapons,
        }
    )
    return [
        SimFigure(f"{prefix}{n}", f"{prefix} {n}", stats, unit=f"{prefix}-{n % 2}")
        for n in range(count)
    ]


def _battle(seed):
    sides = [_side("rifle", ["breechloader", "spear"], 5), _side("spear", ["spear"], 3, 8)]
    return simulate(sides, OPTIONS.validate({}), SeededDice(seed, "battle"))


def test_a_simulated_battle_ends_with_a_winner_or_at_the_turn_limit():
    result = _battle("s1")

    assert result.winner in (0, 1) or result.turns == MAX_TURNS
    assert result.events


def test_the_same_seed_fights_the_same_battle():
    first, second = _battle("s2"), _battle("s2")

    assert first.winner == second.winner
    assert [e.resolution.outcome for e in first.events] == [
        e.resolution.outcome for e in second.events
    ]


def test_skills_used_are_recorded_for_improvement_rolls():
    result = _battle("s3")

    used = set().union(*result.skills_used.values())
    assert "experience" in used and used <= {"experience", "fire", "melee"}


def test_the_loser_is_broken_by_its_own_breakpoint():
    result = _battle("s4")

    if result.winner is not None:
        loser = 1 - result.winner
        assert result.casualties[loser] >= 1
