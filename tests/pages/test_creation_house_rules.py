"""Character creation rolls on the campaign's own tables: a club's ability table is the one used."""

from __future__ import annotations

from pages.creation import apply_recipe, recipe
from rules import house
from rules.system import get_system


def _swapped_abilities() -> house.Pack:
    """The d12 ability table with the abilities on faces 1 and 2 swapped."""
    system = get_system("d12_skirmish")
    document = house.template(system)
    rows = document["tables"]["abilities"]
    rows[0]["roll"], rows[1]["roll"] = rows[1]["roll"], rows[0]["roll"]
    return house.load(system, document)


def test_an_ability_roll_reads_the_campaigns_ability_table():
    ability = recipe("d12_skirmish", "ability")
    assert ability is not None
    housed = get_system("d12_skirmish").with_house(_swapped_abilities())
    as_written = apply_recipe(ability, {}, "1").values["ability"]

    under_pack = apply_recipe(ability, {}, "1", checks=housed.checks).values["ability"]

    assert as_written == "expert_skirmisher"
    assert under_pack == "combat_expert"
    assert apply_recipe(ability, {}, "1").values["ability"] == as_written  # the pack stays put
