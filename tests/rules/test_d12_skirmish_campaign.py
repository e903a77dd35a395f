"""d12 skirmish: Muster's house campaign rules (off unless the campaign switches them on)."""

import pytest

from rules.campaign import FigureRecord
from rules.dice import GivenDice, SeededDice
from rules.systems.d12_skirmish import SYSTEM

HOUSE = SYSTEM.options.validate({"house_campaign": True})


def given_per_step(values):
    """Dice for each (procedure, index) from a dict of given values."""
    return lambda procedure, index: GivenDice(values[(procedure, index)])


def record(troop="regular", **kwargs):
    return FigureRecord("Gridley", SYSTEM.stats.validate({"troop": troop}), **kwargs)


def test_the_system_declares_house_rules():
    assert SYSTEM.house_rules is True


def test_nothing_is_rolled_unless_the_campaign_switches_house_rules_on():
    rolls = SYSTEM.post_battle(
        record(wounds=1, skills_used=frozenset({"troop"})),
        SYSTEM.options.validate({}),
        lambda p, i: SeededDice("s", p),
    )

    assert rolls == ()


@pytest.mark.parametrize(
    ("troop", "roll", "after"),
    [
        ("raw", 2, "regular"),
        ("regular", 10, "veteran"),
        ("regular", 9, None),
        ("veteran", 12, "elite"),
        ("veteran", 11, None),
        ("elite", 12, None),
    ],
)
def test_troop_type_steps_up_on_a_d12_over_its_band(troop, roll, after):
    (improvement,) = SYSTEM.post_battle(
        record(troop, skills_used=frozenset({"troop"})),
        HOUSE,
        given_per_step({("improvement", 0): [roll]}),
    )

    assert improvement.house_rule is True
    assert improvement.outcome == ("improves" if after else "unchanged")
    assert [(c.field, c.after) for c in improvement.changes] == (
        [("troop", after)] if after else []
    )


def test_a_figure_that_did_not_shoot_or_fight_rolls_no_improvement():
    assert SYSTEM.post_battle(record(), HOUSE, lambda p, i: SeededDice("s", p)) == ()


def test_each_wound_rolls_its_aftermath():
    (aftermath,) = SYSTEM.post_battle(
        record(wounds=2), HOUSE, given_per_step({("aftermath", 0): [2, 5]})
    )

    assert aftermath.house_rule is True
    assert aftermath.outcome == "permanent_1"
    assert [c.kind for c in aftermath.changes] == ["permanent_wound"]


def test_a_figure_killed_in_battle_rolls_nothing():
    dead = record(wounds=2, status="dead", skills_used=frozenset({"troop"}))

    assert SYSTEM.post_battle(dead, HOUSE, lambda p, i: SeededDice("s", p)) == ()


def test_procedure_steps_are_unique_and_seeded_per_step():
    rolls = SYSTEM.post_battle(
        record(wounds=3, skills_used=frozenset({"troop"})),
        HOUSE,
        lambda p, i: SeededDice("battle-7", f"gridley/{p}/{i}"),
    )

    assert len({(r.procedure, r.index) for r in rolls}) == len(rolls) == 2
    assert all(r.house_rule for r in rolls)
