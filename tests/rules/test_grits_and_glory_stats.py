"""Unit stats, labels, the card, the reference tables and the standard scenarios."""

import pytest

from rules.errors import ValidationError
from rules.systems.grits_and_glory import SYSTEM
from rules.systems.grits_and_glory.tables import SCENARIO_BY_ROLL, SCENARIOS


def test_parry_and_toughness_are_derived_when_not_given():
    stats = SYSTEM.stats.validate({"fighting": 8, "vigor": 10, "armour": 1})

    assert (stats["parry"], stats["toughness"]) == (6, 8)


def test_parry_and_toughness_given_by_hand_are_kept():
    stats = SYSTEM.stats.validate({"parry": 9, "toughness": 4})

    assert (stats["parry"], stats["toughness"]) == (9, 4)


def test_an_untrained_fighter_has_parry_two():
    assert SYSTEM.stats.validate({"fighting": 0})["parry"] == 2


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"agility": 7}, "agility"),
        ({"figures": 7}, "figures"),
        ({"weapons": ["blaster"]}, "weapons"),
        ({"wild_card": True, "figures": 3}, "figures"),
        ({"bennies": 2}, "bennies"),
    ],
)
def test_bad_stats_name_the_field(data, field):
    with pytest.raises(ValidationError) as caught:
        SYSTEM.stats.validate(data)

    assert field in caught.value.errors


def test_a_label_is_four_short_lines():
    lines = SYSTEM.label_text("Sgt. Gridley", {"agility": 8, "strength": 8, "wild_card": True})

    assert lines == ("* Sgt. Gridley", "Ag d8 Sm d6 Sp d6", "St d8 Vi d6 Fi d6", "P6 Pa5 T5")
    assert max(len(line) for line in lines) <= 24


def test_the_piece_is_the_unit():
    assert SYSTEM.piece == "unit"


def test_a_unit_starts_with_all_its_figures_loaded_and_steady():
    state = SYSTEM.initial_state({"figures": 5})

    assert state["figures"] == 5
    assert state["shaken"] == 0
    assert state["loaded"] is True


def test_the_twelve_scenarios_are_numbered_for_a_d12():
    assert sorted(SCENARIO_BY_ROLL) == list(range(1, 13))
    assert all(s.major and s.minor and s.draw and s.deployment for s in SCENARIOS)


def test_the_reference_tables_cover_weapons_events_and_scenarios():
    tables = SYSTEM.tables(SYSTEM.options.validate({}))

    assert {
        "weapons",
        "fortunes",
        "freak_events",
        "reserves",
        "sentries",
        "stealth",
        "victory_points",
        "scenarios",
    } <= set(tables)
    assert 16 not in [row["roll"] for row in tables["freak_events"]]
    assert next(w for w in tables["weapons"] if w["key"] == "sabre")["damage"] == "Str+d6"


def test_weapon_choices_come_from_the_weapon_table():
    choices = SYSTEM.stats["weapons"].choice_values()

    assert "six_shooter" in choices and "spear" in choices


def test_campaign_options_show_in_the_reference_tables():
    options = SYSTEM.options.validate({"victory_points": False, "scenario": "7"})

    tables = SYSTEM.tables(options)

    assert "victory_points" not in tables
    assert tables["campaign_scenario"]["name"] == "The High Ground"
