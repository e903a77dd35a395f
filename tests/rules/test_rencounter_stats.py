"""Rencounter figure stats, campaign options, base labels and reference tables."""

import pytest

from rules.errors import ValidationError
from rules.systems.rencounter import reference_tables
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.stats import OPTIONS, STATS, initial_state, label_text


def test_horsemanship_defaults_to_experience_plus_two():
    stats = STATS.validate({"experience": 5})

    assert stats["horsemanship"] == 7


def test_an_explicit_horsemanship_is_kept():
    assert STATS.validate({"experience": 5, "horsemanship": 3})["horsemanship"] == 3


def test_the_validator_names_each_bad_field_once():
    with pytest.raises(ValidationError) as caught:
        STATS.validate({"experience": 7, "fire": 1, "armour": 5, "weapons": ["ray gun"]})

    assert set(caught.value.errors) == {"experience", "fire", "armour", "weapons"}


def test_weapons_come_from_both_weapon_tables():
    stats = STATS.validate({"weapons": ["flintlock_musket", "spear"]})

    assert stats["weapons"] == ["flintlock_musket", "spear"]
    choices = set(STATS["weapons"].choice_values())
    assert set(t.BASE.missile_weapons) | set(t.BASE.melee_weapons) == choices


def test_a_shield_with_only_two_handed_melee_weapons_is_refused():
    with pytest.raises(ValidationError) as caught:
        STATS.validate({"weapons": ["pike"], "shield": "large"})

    assert "shield" in caught.value.errors


def test_the_label_reads_like_sergeant_gridleys():
    stats = STATS.validate({"experience": 4, "fire": 7, "melee": 6})

    assert label_text("Sgt. Gridley", stats) == ("Sgt. Gridley", "F 7 M 6", "Ex 4")


def test_permanent_wounds_start_the_battle_as_wound_points():
    # The battle's snapshot carries the character's permanent wounds in beside the stats.
    snapshot = {**STATS.validate({}), "permanent_wounds": ["left arm"]}

    assert initial_state(snapshot)["wounds"] == 1


def test_permanent_wounds_are_the_characters_record_not_a_stat():
    assert "permanent_wounds" not in STATS


def test_options_default_to_the_plain_rules():
    options = OPTIONS.validate({})

    assert options["master_variant"] == "always"
    assert options["breakpoint"] == "1/2"
    assert options["hit_locations"] is False


def test_prompt_care_and_a_hazardous_default_exclude_each_other():
    with pytest.raises(ValidationError):
        OPTIONS.validate({"prompt_care": True, "hazard": 1})


def test_the_missile_table_holds_every_row_of_the_text():
    assert len(t.BASE.missile_weapons) == 27
    assert t.BASE.missile_weapons["heavy_crossbow"].ranges == (15, 30, 40, 60)
    assert t.BASE.missile_weapons["submachinegun"].repeat == "Fx3"


def test_hit_locations_appear_on_the_sheet_only_when_the_option_is_on():
    off = reference_tables(OPTIONS.validate({}))
    on = reference_tables(OPTIONS.validate({"hit_locations": True}))

    assert "hit_locations" not in off
    assert on["hit_locations"]["6"] == "head"
