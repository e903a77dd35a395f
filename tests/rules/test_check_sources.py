"""Where each check parameter comes from: declared by each system next to its checks.

The table fills a check from these declarations and never from a parameter's name, so every
parameter of every check is declared (under a club's house rules too), and the declarations
say what the seed texts say: the defender's skill parries, the target's Parry is hit against.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from rules.checks import (
    JUDGED,
    FigureView,
    FromActor,
    FromEquipment,
    FromState,
    FromTarget,
    declare,
    filled_params,
    kept_per_figure,
    undeclared,
)
from rules.dice import SeededDice
from rules.errors import RulesError, ValidationError
from rules.house import template
from rules.system import all_systems, get_system
from tests.rules.agreement import params_strategy

CHECKS = [(s.key, check) for s in all_systems() for check in s.checks.values()]


def _values(system: str, **stats: Any) -> dict[str, Any]:
    return get_system(system).stats.validate(stats)


def _figure(
    system: str, name: str, state: dict[str, Any] | None = None, **stats: Any
) -> FigureView:
    values = _values(system, **stats)
    return FigureView(name, values, state or dict(get_system(system).initial_state(values)))


def _filled(system: str, check: str, actor: FigureView, target: FigureView | None) -> dict:
    found = filled_params(get_system(system).check(check), actor, target)
    return {name: (f.value, f.source) for name, f in found.items()}


@pytest.mark.parametrize(("system", "check"), CHECKS, ids=lambda v: getattr(v, "name", v))
def test_every_parameter_of_every_check_says_where_it_comes_from(system, check):
    assert undeclared(check) == []
    assert set(check.sources) == {f.name for f in check.params.fields}


@pytest.mark.parametrize("system", [s for s in all_systems() if s.house is not None])
def test_a_check_rebuilt_under_house_rules_keeps_its_declarations(system):
    housed = system.with_house(template(system))

    for name, check in housed.checks.items():
        assert undeclared(check) == [], name
        assert check.sources == system.checks[name].sources
        assert check.takes_target == system.checks[name].takes_target


def test_a_declaration_that_leaves_a_parameter_out_is_refused():
    melee = get_system("rencounter").checks["melee"]
    partial = {"melee": {"attack_skill": FromActor("melee")}}

    with pytest.raises(RulesError, match="parry_skill"):
        declare({"melee": melee}, partial)


def test_a_declaration_naming_an_unknown_parameter_is_refused():
    misfire = get_system("rencounter").checks["misfire"]

    with pytest.raises(RulesError, match="luck"):
        declare({"misfire": misfire}, {"misfire": {"luck": JUDGED}})


def test_rencounter_melee_is_the_attackers_melee_against_the_defenders():
    gridley = _figure("rencounter", "Sgt. Gridley", melee=9, weapons=["matchlock_musket", "sword"])
    vane = _figure("rencounter", "Ezra Vane", melee=8, armour=2, weapons=["pike"])

    filled = _filled("rencounter", "melee", gridley, vane)

    assert filled["attack_skill"] == (9, "melee 9 — Sgt. Gridley")
    assert filled["parry_skill"] == (8, "melee 8 — Ezra Vane")
    assert filled["weapon"][0] == "sword"  # the melee weapon he carries, not the musket
    assert filled["defender_weapon"][0] == "pike"
    assert filled["defender_armour"][0] == 2


def test_rencounter_fire_uses_the_fire_skill_and_the_musket_carried():
    gridley = _figure("rencounter", "Sgt. Gridley", fire=7, weapons=["matchlock_musket", "sword"])
    vane = _figure("rencounter", "Ezra Vane", armour=1)

    filled = _filled("rencounter", "fire", gridley, vane)

    assert filled["skill"][0] == 7
    assert filled["weapon"] == ("matchlock_musket", "carries Matchlock musket — Sgt. Gridley")
    assert filled["target_armour"][0] == 1
    assert "range" not in filled  # the range band is the player's call


def test_grits_and_glory_shooting_rolls_the_shooters_die():
    marshal = _figure("grits_and_glory", "The Marshal", shooting=8, wild_card=True)

    filled = _filled("grits_and_glory", "shooting", marshal, None)

    assert filled["die"] == (8, "shooting d8 — The Marshal")
    assert filled["wild_card"][0] is True


def test_grits_and_glory_melee_is_hit_against_the_defenders_parry_not_the_attackers():
    marshal = _figure("grits_and_glory", "The Marshal", fighting=10, parry=7)
    outlaw = _figure("grits_and_glory", "Black Bart", fighting=4, parry=4)

    filled = _filled("grits_and_glory", "fighting", marshal, outlaw)

    assert filled["die"][0] == 10
    assert filled["parry"] == (4, "parry 4 — Black Bart")


def test_escarmouche_a_musket_man_shoots_his_musket():
    musketeer = _figure("escarmouche", "Jacques", weapons=["musket"], shooter=2, rating=4)
    pikeman = _figure("escarmouche", "Pierre", rating=2)

    filled = _filled("escarmouche", "shoot", musketeer, pikeman)

    assert filled["weapon"][0] == "musket"
    assert filled["skill"][0] == 2
    assert (filled["rating"][0], filled["target_rating"][0]) == (4, 2)


def test_game_the_90_foot_knights_fight_as_foot_knights():
    knights = _figure("game_the_90", "The Saxons", type="foot_knights", missiles="none")
    bowmen = _figure("game_the_90", "Archers", {"hits": 6}, type="bowmen", missiles="bows")

    filled = _filled("game_the_90", "melee", knights, bowmen)

    assert filled["attacker"][0] == "foot_knights"
    assert filled["target"][0] == "bowmen"
    assert filled["target_hits"][0] == 6  # from the battle state, not the roster


def test_d12_hand_to_hand_reads_both_sides_and_their_wounds():
    veteran = _figure(
        "d12_skirmish",
        "Cpl. Hale",
        {"wounds": 1},
        troop="veteran",
        wounds=3,
        weapons=["rifled_musket", "bayonet"],
        ability="combat_expert",
    )
    raw = _figure("d12_skirmish", "Pvt. Ames", troop="raw", wounds=3)

    filled = _filled("d12_skirmish", "hand_to_hand", veteran, raw)

    assert filled["troop"][0] == "veteran"
    assert filled["weapon"][0] == "bayonet"
    assert filled["wounds"][0] == 1
    assert filled["combat_expert"][0] is True
    assert filled["enemy_troop"][0] == "raw"
    weapon, source = filled["enemy_weapon"]
    assert weapon == "none" and source.endswith("none carried — Pvt. Ames")


def test_a_check_that_takes_no_target_reads_nothing_from_one():
    action = get_system("rencounter").checks["action"]
    gridley = _figure("rencounter", "Sgt. Gridley", experience=5)
    vane = _figure("rencounter", "Ezra Vane", experience=2)

    filled = filled_params(action, gridley, vane)

    assert not action.takes_target
    assert filled["experience"].value == 5
    assert all(f.who == "actor" for f in filled.values())


def test_a_value_the_parameter_cannot_take_is_left_to_the_default():
    untrained = _figure("grits_and_glory", "Greenhorn", intimidation=0)

    filled = _filled("grits_and_glory", "intimidate", untrained, None)

    assert "die" not in filled  # intimidation rolls a d4 or better; untrained is not offered


def test_the_player_keeps_judgement_and_the_actors_weapon_not_the_figures_stats():
    melee = get_system("rencounter").checks["melee"]

    kept = kept_per_figure(melee)

    assert "weapon" in kept and "attack_modifier" in kept
    assert "attack_skill" not in kept and "defender_weapon" not in kept


def test_the_kinds_of_source_name_their_figure():
    assert FromActor("melee").who == "actor"
    assert FromTarget("melee").who == "target"
    assert FromEquipment("weapons", of="target").who == "target"
    assert FromState("wounds").who == "actor"
    assert JUDGED.who is None


ALONE = [(key, check) for key, check in CHECKS if not check.takes_target]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_check_declared_without_a_target_never_strikes_one(data):
    _, check = data.draw(st.sampled_from(ALONE), label="check")
    params = data.draw(params_strategy(check), label="params")
    try:
        resolution = check.resolve(params, SeededDice("alone", repr(sorted(params.items()))))
    except (ValidationError, RulesError):
        reject()
    assert all(effect.who == "actor" for effect in resolution.effects), check.name
