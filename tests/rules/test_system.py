"""The registry and what every system provides."""

import pytest

from rules.errors import UnknownCheck, UnknownSystem
from rules.system import CardLayout, all_systems, get_system

SYSTEM_KEYS = {"rencounter", "grits_and_glory", "escarmouche", "game_the_90", "d12_skirmish"}


def test_all_five_systems_are_registered():
    assert {system.key for system in all_systems()} == SYSTEM_KEYS


def test_an_unknown_system_names_the_known_ones():
    with pytest.raises(UnknownSystem, match="rencounter"):
        get_system("warhammer")


def test_an_unknown_check_names_the_systems_checks():
    with pytest.raises(UnknownCheck, match="fire"):
        get_system("rencounter").check("spellcasting")


@pytest.mark.parametrize("key", sorted(SYSTEM_KEYS))
def test_every_system_labels_a_figure_with_default_stats(key):
    system = get_system(key)
    required = {f.name: f.choices[0][0] for f in system.stats.fields if f.required}
    stats = system.stats.validate(required)
    lines = system.label_text("Sgt. Gridley", stats)
    assert lines[0] == "Sgt. Gridley" and all(isinstance(line, str) for line in lines)


@pytest.mark.parametrize("key", sorted(SYSTEM_KEYS))
def test_every_systems_card_names_only_its_own_stats(key):
    system = get_system(key)
    named = {name for _, names in system.card.sections for name in names}
    assert named <= set(system.stats.names)


def test_card_track_boxes_come_from_the_named_stat_when_there_is_one():
    layout = CardLayout(sections=(), track_size="wounds", track_boxes=6)
    assert layout.boxes_for({"wounds": 3}) == 3
    assert layout.boxes_for({}) == 6
    assert layout.boxes_for({"wounds": True}) == 6


def test_rencounter_cards_draw_five_wound_boxes():
    assert get_system("rencounter").card.boxes_for({}) == 5


@pytest.mark.parametrize("key", sorted(SYSTEM_KEYS))
def test_every_system_starts_a_battle_from_a_snapshot_with_permanent_wounds(key):
    # A battle snapshots the stats with the character's permanent wounds beside them.
    system = get_system(key)
    required = {f.name: f.choices[0][0] for f in system.stats.fields if f.required}
    snapshot = {**system.stats.validate(required), "permanent_wounds": ["left arm"]}

    state = system.initial_state(snapshot)

    assert isinstance(state, dict)
    assert system.stats.validate_snapshot(snapshot)["permanent_wounds"] == ["left arm"]


def test_a_snapshot_key_is_still_refused_as_a_stat():
    with pytest.raises(Exception, match="permanent_wounds"):
        get_system("rencounter").stats.validate({"permanent_wounds": ["left arm"]})


@pytest.mark.parametrize("key", sorted(SYSTEM_KEYS))
def test_every_status_a_system_puts_in_battle_state_is_one_of_its_statuses(key):
    # A status outside `statuses` would make the battle impossible to finish.
    from rules.dice import SeededDice
    from rules.simulate import SimFigure

    system = get_system(key)
    required = {f.name: f.choices[0][0] for f in system.stats.fields if f.required}
    stats = system.stats.validate(required)
    assert system.initial_state(stats)["status"] in system.statuses
    sides = [
        [SimFigure(f"{s}-{i}", f"F{s}{i}", stats, unit=f"u{s}") for i in range(4)] for s in range(2)
    ]
    for run in range(10):
        result = system.simulate(sides, system.options.validate({}), SeededDice("st", str(run)))
        for state in result.states.values():
            assert state.get("status", "unhurt") in system.statuses


def test_six_rencounter_wound_points_kill_and_fifteen_hits_remove_a_unit():
    rencounter, ninety = get_system("rencounter"), get_system("game_the_90")
    dying, hurt, broken = {"wounds": 6, "status": "wounded"}, {"wounds": 5}, {"hits": 15}

    rencounter.settle_state(dying)
    rencounter.settle_state(hurt)
    ninety.settle_state(broken)

    assert dying["status"] == "dead" and "status" not in hurt and broken["status"] == "removed"
