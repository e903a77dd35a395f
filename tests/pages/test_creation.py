"""The systems' creation rules on the new-figure form: squad creator, d12 tables, Wild Cards."""

from __future__ import annotations

import pytest

from pages.creation import DiceTyped, apply_recipe, creation_note, recipe, recipes_for
from rules.dice import GivenDice
from rules.systems.d12_skirmish.tables import BASE
from rules.systems.rencounter.squads import roll_figure


def test_the_squad_creator_rolls_a_novice_man_on_a_one():
    stats = roll_figure(GivenDice([1]))

    assert (stats["experience"], stats["fire"], stats["melee"]) == (3, 6, 6)


def test_the_squad_creator_rolls_a_hero_leader_on_a_six():
    stats = roll_figure(GivenDice([6]), leader=True)

    assert (stats["experience"], stats["fire"], stats["melee"]) == (6, 12, 12)


def test_varied_skills_add_the_variation_table_to_twice_the_experience():
    stats = roll_figure(GivenDice([4, 1, 6]), varied=True)  # Average; fire -2, melee +2

    assert (stats["experience"], stats["fire"], stats["melee"]) == (4, 6, 10)


def test_d12_troop_type_and_ability_come_from_the_players_own_dice():
    rolled = apply_recipe(recipe("d12_skirmish", "troop_and_ability"), {}, "12, 7, 5")

    assert rolled.values["troop"] == "elite"
    assert rolled.values["expertise"] == "shooting"
    assert rolled.values["ability"] == BASE.ABILITY_BY_ROLL[5]
    assert "your dice" in rolled.note and "troop type d12 12" in rolled.note


def test_server_dice_fill_every_value_the_recipe_names():
    rolled = apply_recipe(recipe("rencounter", "squad_leader"), {})

    assert set(rolled.values) == {"experience", "fire", "melee"}
    assert "Muster's dice" in rolled.note


@pytest.mark.parametrize("typed", ["", "13", "7, 7, 7, 7"])
def test_too_few_too_many_or_impossible_dice_are_refused_with_a_reason(typed):
    chosen = recipe("d12_skirmish", "troop_and_ability")

    with pytest.raises(DiceTyped):
        apply_recipe(chosen, {}, typed or "7")


def test_grits_and_glory_offers_wild_card_and_extras_without_dice():
    keys = [r.key for r in recipes_for("grits_and_glory")]
    wild = apply_recipe(recipe("grits_and_glory", "wild_card"), {})

    assert keys == ["wild_card", "extras"]
    assert wild.values == {"wild_card": True, "figures": 1}
    assert wild.note == "Started as Wild Card"


def test_the_record_says_a_roll_was_kept_or_changed_and_ignores_a_forged_token():
    rolled = apply_recipe(recipe("rencounter", "squad_man"), {}, "1")

    assert creation_note(rolled.token, {"experience": 3, "fire": 6, "melee": 6}).startswith(
        "Roll a man"
    )
    assert creation_note(rolled.token, {"experience": 3, "fire": 9, "melee": 6}).endswith(
        "then changed by hand"
    )
    assert creation_note(rolled.token + "x", {}) == ""
