"""Escarmouche as a registered system: stats, options, tables, labels, card and state."""

import pytest

from rules.errors import ValidationError
from rules.system import get_system
from rules.systems.escarmouche.tables import BASE

SYSTEM = get_system("escarmouche")


def test_the_system_is_registered_with_house_rules_flagged():
    assert SYSTEM.key == "escarmouche"
    assert SYSTEM.house_rules is True


def test_the_contract_pool_check_has_its_params_and_outcomes():
    pool = SYSTEM.check("pool")

    assert {"active", "passive"} <= set(pool.params.names)
    assert pool.params["passive"].default == 0
    assert pool.outcomes == ("keeps_initiative", "figure_ends", "side_ends")


def test_every_listed_check_is_there():
    assert set(SYSTEM.checks) == {
        "pool",
        "opposed",
        "move",
        "marshal",
        "develop",
        "reserve",
        "shoot",
        "volley",
        "artillery",
        "fight",
        "pike_vs_cavalry",
        "massed_pike",
        "horse_vs_foot",
        "pike_fencing",
    }


def test_default_stats_are_an_average_trooper_with_wounds_equal_to_rating():
    stats = SYSTEM.stats.validate({})

    assert (stats["rating"], stats["wounds"], stats["fighter"]) == (3, 3, 0)


def test_wounds_may_be_one_instead_of_the_rating():
    assert SYSTEM.stats.validate({"rating": 4, "wounds": 1})["wounds"] == 1


def test_wounds_other_than_one_or_the_rating_are_refused():
    with pytest.raises(ValidationError, match="wounds"):
        SYSTEM.stats.validate({"rating": 4, "wounds": 2})


@pytest.mark.parametrize(
    ("field", "value"),
    [("rating", 6), ("rating", 0), ("leader", 4), ("shooter", -1), ("weapons", ["arquebus"])],
)
def test_out_of_range_stats_name_the_bad_field(field, value):
    with pytest.raises(ValidationError) as error:
        SYSTEM.stats.validate({field: value})

    assert field in error.value.errors


def test_weapon_choices_come_from_the_weapon_table():
    assert SYSTEM.stats["weapons"].choice_values() == tuple(row.key for row in BASE.WEAPONS)


def test_tables_carry_every_table_of_the_text():
    tables = SYSTEM.tables(SYSTEM.options.validate({}))

    assert [row["passive_dice"] for row in tables["move_terrain"]] == [2, 3, 4, 5]
    assert [row["passive_dice"] for row in tables["weapons"]] == [1, 2, 3, 4, 5]
    assert [row["result"] for row in tables["fighting_effects"]][-1] == "multiple_hits"
    assert "house_rules" not in tables


def test_switching_on_the_house_campaign_shows_its_labelled_table():
    tables = SYSTEM.tables(SYSTEM.options.validate({"house_campaign": True}))

    assert tables["house_rules"]["label"].startswith("House rules")


def test_the_one_wound_option_shows_in_the_tables():
    tables = SYSTEM.tables(SYSTEM.options.validate({"wounds_rule": "one"}))

    assert tables["wounds"]["rule"] == "one"


def test_the_label_is_short_and_names_rating_skills_and_arms():
    stats = SYSTEM.stats.validate(
        {"rating": 4, "shooter": 2, "weapons": ["musket"], "mounted": True}
    )

    lines = SYSTEM.label_text("Capt. Vasse", stats)

    assert lines == ("Capt. Vasse", "R4 W4", "Sh2", "Musket, Horse")  # names, never keys
    assert all(len(line) <= 20 for line in lines)


def test_the_card_tracks_wounds_sized_by_the_wounds_stat():
    assert (SYSTEM.card.track, SYSTEM.card.track_size) == ("wounds", "wounds")


def test_a_weaponless_figure_starts_the_battle_disarmed():
    state = SYSTEM.initial_state(SYSTEM.stats.validate({"melee": "none", "rating": 2}))

    assert state == {
        "wounds": 2,
        "shaken": 0,
        "disarmed": True,
        "prone": False,
        "cover": False,
        "kept_away": False,
        "reserved": False,
        "status": "unhurt",
    }
