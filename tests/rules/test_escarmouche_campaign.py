"""Escarmouche's house campaign rules: off by default, labelled, aftermath then improvement."""

from datetime import date

from rules.aftermath import improvement_odds
from rules.campaign import FigureRecord
from rules.dice import GivenDice, SeededDice
from rules.system import get_system
from rules.systems.escarmouche.campaign import healed_by, improvable

SYSTEM = get_system("escarmouche")
ON = {"house_campaign": True, "wounds_rule": "rating"}


def record(**overrides):
    stats = SYSTEM.stats.validate(overrides.pop("stats", {"rating": 3, "shooter": 1}))
    return FigureRecord(name="Jacques", stats=stats, **overrides)


def given(*values_per_step):
    """Dice for each (procedure, index) step in the order the procedure asks for them."""
    steps = iter(values_per_step)
    return lambda procedure, index: GivenDice(next(steps))


def seeded(procedure, index):
    return SeededDice("battle-7", f"Jacques/{procedure}/{index}")


def test_nothing_is_rolled_unless_the_campaign_switches_the_house_rules_on():
    assert SYSTEM.post_battle(record(wounds=2), {"house_campaign": False}, seeded) == ()


def test_every_roll_is_marked_as_a_house_rule():
    rolls = SYSTEM.post_battle(record(wounds=1, skills_used=frozenset({"shooter"})), ON, seeded)

    assert rolls and all(roll.house_rule for roll in rolls)


def test_a_dead_figure_rolls_nothing():
    assert SYSTEM.post_battle(record(status="dead", wounds=3), ON, seeded) == ()


def test_the_rating_improves_on_a_d6_roll_over_it_and_wounds_follow():
    rolls = SYSTEM.post_battle(record(), ON, given([4]))

    assert rolls[0].outcome == "improves"
    assert [(c.field, c.before, c.after) for c in rolls[0].changes] == [
        ("rating", 3, 4),
        ("wounds", 3, 4),
    ]


def test_in_a_one_wound_campaign_wounds_stay_at_one_when_the_rating_improves():
    stats = {"rating": 2, "wounds": 1}
    options = {**ON, "wounds_rule": "one"}

    rolls = SYSTEM.post_battle(record(stats=stats), options, given([6]))

    assert [(c.field, c.after) for c in rolls[0].changes] == [("rating", 3)]


def test_a_used_skill_improves_on_a_d4_roll_over_it():
    rolls = SYSTEM.post_battle(record(skills_used=frozenset({"shooter"})), ON, given([1], [2]))

    assert [(r.procedure, r.index, r.outcome) for r in rolls] == [
        ("improvement", 0, "unchanged"),
        ("improvement", 1, "improves"),
    ]
    assert rolls[1].dice[0].die == "d4"


def test_skills_at_zero_are_not_rolled():
    rows = improvable(record(skills_used=frozenset({"fighter", "shooter"})))

    assert [stat for stat, *_ in rows] == ["rating", "shooter"]


def test_maximum_rating_and_skill_cannot_improve():
    assert improvement_odds(value=5, sides=6, maximum=5)["improves"] == 0
    assert improvement_odds(value=3, sides=4, maximum=3)["improves"] == 0


def test_wounds_are_rolled_for_before_improvement_with_a_d6_each():
    rolls = SYSTEM.post_battle(
        record(wounds=2, campaign_date=date(2026, 1, 31)), ON, given([2, 5], [1])
    )

    aftermath = rolls[0]
    assert (aftermath.procedure, aftermath.outcome) == ("aftermath", "permanent_1")
    kinds = [(c.kind, c.after) for c in aftermath.changes]
    assert ("recovers_on", "2026-03-01") in kinds
    assert kinds[0][0] == "permanent_wound"


def test_a_figure_that_dies_of_its_wounds_does_not_roll_to_improve():
    rolls = SYSTEM.post_battle(record(wounds=6), ON, given([2, 2, 2, 2, 2, 2]))

    assert [r.outcome for r in rolls] == ["dies"]
    assert rolls[0].changes[0].after == "DEAD"


def test_healed_wounds_are_gone_after_more_than_a_calendar_month():
    assert healed_by(date(2026, 12, 15)) == date(2027, 1, 16)


def test_procedure_and_index_are_unique_per_figure():
    rolls = SYSTEM.post_battle(record(wounds=1, skills_used=frozenset({"shooter"})), ON, seeded)

    keys = [(r.procedure, r.index) for r in rolls]
    assert len(keys) == len(set(keys))


def test_the_same_seed_rederives_the_same_rolls():
    figure = record(wounds=2, skills_used=frozenset({"shooter"}))

    assert SYSTEM.post_battle(figure, ON, seeded) == SYSTEM.post_battle(figure, ON, seeded)
