"""Rencounter's campaign: post-battle rolls, heroes progression, breakpoint, squad creator."""

from datetime import date

from rules.campaign import FigureRecord
from rules.dice import GivenDice, SeededDice
from rules.systems.rencounter.campaign import one_month_later, post_battle, side_broken
from rules.systems.rencounter.squads import generate_force
from rules.systems.rencounter.stats import OPTIONS, STATS

GRIDLEY = STATS.validate({"experience": 4, "fire": 7, "melee": 6, "hero_threshold": 2})


def _given(values_by_step):
    return lambda procedure, index: GivenDice(values_by_step[(procedure, index)])


def _seeded(procedure, index):
    return SeededDice("battle-7", f"gridley/{procedure}/{index}")


def test_each_skill_used_gets_its_own_improvement_roll_in_a_fixed_order():
    record = FigureRecord("Gridley", GRIDLEY, skills_used=frozenset({"melee", "experience"}))
    dice_for = _given({("improvement", 0): [5], ("improvement", 1): [3]})

    rolls = post_battle(record, OPTIONS.validate({}), dice_for)

    assert [(r.procedure, r.index, r.subject, r.outcome) for r in rolls] == [
        ("improvement", 0, "experience", "improves"),
        ("improvement", 1, "melee", "unchanged"),
    ]
    assert rolls[0].changes[0].after == 5


def test_wounds_are_rolled_first_and_a_healed_point_recovers_a_month_later():
    record = FigureRecord("Gridley", GRIDLEY, wounds=2, campaign_date=date(1879, 1, 31))

    rolls = post_battle(record, OPTIONS.validate({}), _given({("aftermath", 0): [2, 5]}))

    kinds = [c.kind for c in rolls[0].changes]
    assert rolls[0].outcome == "permanent_1"
    assert kinds == ["permanent_wound", "recovers_on"]
    assert rolls[0].changes[1].after == "1879-02-28"


def test_a_figure_dying_of_sepsis_gets_no_improvement_rolls():
    record = FigureRecord("Gridley", GRIDLEY, wounds=3, skills_used=frozenset({"fire"}))
    # 2, 2 permanent, 1 sepsis -> 2, 1 sepsis -> 2, 1 sepsis -> 2, 2: six permanent points.
    dice = {("aftermath", 0): [2, 2, 1, 2, 1, 2, 1, 2, 2]}

    rolls = post_battle(record, OPTIONS.validate({}), _given(dice))

    assert [r.outcome for r in rolls] == ["dies"]
    assert rolls[0].changes[0].after == "DEAD"


def test_prompt_care_from_the_options_rerolls_a_bad_point():
    record = FigureRecord("Gridley", GRIDLEY, wounds=1)

    rolls = post_battle(
        record, OPTIONS.validate({"prompt_care": True}), _given({("aftermath", 0): [2, 6]})
    )

    assert rolls[0].outcome == "permanent_0"
    assert rolls[0].details["care"] == "prompt"


def test_permanent_wounds_take_their_locations_when_known():
    record = FigureRecord("Gridley", GRIDLEY, wounds=1, extra={"wound_locations": ["left arm"]})

    rolls = post_battle(record, OPTIONS.validate({}), _given({("aftermath", 0): [2]}))

    assert rolls[0].changes[0].after == "left arm"


def test_the_dead_have_no_post_battle_rolls():
    record = FigureRecord("Gridley", GRIDLEY, status="dead", skills_used=frozenset({"fire"}))

    assert post_battle(record, OPTIONS.validate({}), _seeded) == ()


def test_an_inspired_hero_widens_his_window_and_a_falter_narrows_it():
    heroes = OPTIONS.validate({"heroes": True})
    inspired = FigureRecord("Gridley", GRIDLEY, extra={"hero": "inspired"})
    faltered = FigureRecord("Gridley", GRIDLEY, extra={"hero": "falters"})

    up = post_battle(inspired, heroes, _seeded)
    down = post_battle(faltered, heroes, _seeded)

    assert up[-1].changes[0].after == 3
    assert down[-1].changes[0].after == 1


def test_hero_progress_carries_from_game_to_game_in_the_career():
    heroes = OPTIONS.validate({"heroes": True})
    veteran_hero = FigureRecord(
        "Gridley", GRIDLEY, career={"hero_threshold": 5}, extra={"hero": "inspired"}
    )

    step = post_battle(veteran_hero, heroes, _seeded)[-1]

    assert (step.changes[0].kind, step.changes[0].before, step.changes[0].after) == ("career", 5, 6)


def test_the_hero_rule_is_ignored_when_the_campaign_does_not_use_it():
    record = FigureRecord("Gridley", GRIDLEY, extra={"hero": "inspired"})

    assert post_battle(record, OPTIONS.validate({}), _seeded) == ()


def test_steps_are_unique_and_reproducible_from_the_seed():
    record = FigureRecord(
        "Gridley", GRIDLEY, wounds=3, skills_used=frozenset({"fire", "melee", "experience"})
    )
    options = OPTIONS.validate({})

    first, second = post_battle(record, options, _seeded), post_battle(record, options, _seeded)

    assert first == second
    steps = [(r.procedure, r.index) for r in first]
    assert len(steps) == len(set(steps))


def test_one_month_later_clamps_to_the_end_of_the_month():
    assert one_month_later(date(1880, 12, 15)) == date(1881, 1, 15)


def _men(healthy, hurt):
    return [{"status": "unhurt", "wounds": 0}] * healthy + [{"status": "dead"}] * hurt


def test_a_side_breaks_when_fewer_than_half_its_men_stand():
    assert not side_broken({"a": _men(3, 1), "b": _men(2, 2)}, "1/2")
    assert side_broken({"a": _men(2, 2), "b": _men(1, 3)}, "1/2")


def test_a_side_with_less_elan_breaks_at_a_quarter_lost():
    units = {"a": _men(5, 1), "b": _men(3, 3)}

    assert side_broken(units, "1/4")
    assert not side_broken(units, "1/3")


def test_a_side_breaks_when_no_unit_has_more_than_half_its_men_healthy():
    assert side_broken({"a": _men(2, 2), "b": _men(2, 2), "c": _men(9, 0)}, "1/2") is False
    assert side_broken({"a": _men(2, 2), "b": _men(3, 3)}, "1/2")


def test_the_squad_creator_gives_every_unit_the_same_size_and_double_skills():
    squads = generate_force(SeededDice("squads", "side A"), units=3, side="Zulu")

    sizes = {len(squad.figures) for squad in squads}
    assert len(sizes) == 1 and 5 <= sizes.pop() <= 10
    for figure in (f for squad in squads for f in squad.figures):
        assert figure["fire"] == figure["melee"] == 2 * figure["experience"]
        assert 3 <= figure["experience"] <= 6


def test_the_squad_creator_reads_its_tables():
    # size 1+4=5, leader roll 6 (hero), men 1,3,5,6 -> 3,4,5,5
    squads = generate_force(GivenDice([1, 6, 1, 3, 5, 6]), units=1)

    assert [f["experience"] for f in squads[0].figures] == [6, 3, 4, 5, 5]


def test_varied_skills_use_the_variation_table():
    # size 5; leader Average; four men; then fire and melee variation per figure in order.
    dice = GivenDice([1, 2, 1, 6, 3, 4, 1, 6, *[3] * 8])

    squads = generate_force(dice, units=1, varied=True)

    leader = squads[0].figures[0]
    assert (leader["fire"], leader["melee"]) == (6, 10)  # Average 4: 8 -2, 8 +2
