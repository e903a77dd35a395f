"""d12 skirmish house rules: a club's edited tables reach the checks, stats, cards and sheet."""

import copy
import json
from fractions import Fraction
from functools import partial

import pytest

from rules import house
from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.simulate import SimFigure
from rules.systems.d12_skirmish import SYSTEM
from rules.systems.d12_skirmish import reference as ref

SPENCER = {
    "key": "spencer",
    "name": "Spencer rifle",
    "close": 10,
    "medium": 20,
    "extreme": 30,
    "fires_every_turn": True,
    "bayonet": False,
}


def template():
    return house.template(SYSTEM)


def row(document, table, key):
    return next(r for r in document["tables"][table] if r.get("key") == key)


def edited(change):
    document = template()
    change(document)
    return document


def fire_odds(system, **params):
    return system.check("fire").odds({"troop": "regular", **params}).probabilities


def reaches(system):
    return {key: max(r for r in bands if r) for key, bands in system_firearms(system).items()}


def system_firearms(system):
    return dict(system.snapshot.FIREARMS)


def test_a_longer_carbine_changes_only_carbine_shots_between_its_old_and_new_medium_range():
    longer = SYSTEM.with_house(edited(lambda d: row(d, "firearms", "carbine").update(medium=15)))

    changed = []
    for firearm, reach in reaches(SYSTEM).items():
        for distance in range(1, reach + 1):
            params = {"firearm": firearm, "distance": distance}
            if fire_odds(longer, **params) != fire_odds(SYSTEM, **params):
                changed.append((firearm, distance))

    assert changed == [("carbine", 13), ("carbine", 14), ("carbine", 15)]
    assert fire_odds(longer, firearm="carbine", distance=14)["hit"] == Fraction(1, 2)
    assert fire_odds(SYSTEM, firearm="carbine", distance=14)["hit"] == Fraction(5, 12)
    for name, check in SYSTEM.checks.items():
        params = check.params.validate({})
        assert longer.check(name).odds(params) == check.odds(params), name


def test_an_added_firearm_is_a_choice_and_resolves_with_exact_odds():
    spencer = SYSTEM.with_house(edited(lambda d: d["tables"]["firearms"].append(SPENCER)))
    fire = spencer.check("fire")

    odds = fire.odds({"firearm": "spencer", "distance": 25})  # extreme: needs 8 on the d12
    shot = fire.resolve({"firearm": "spencer", "distance": 25}, GivenDice([8]))

    assert odds.exact
    assert odds.probabilities == {
        "hit": Fraction(5, 12),
        "miss": Fraction(1, 2),
        "misfire": Fraction(1, 12),
    }
    assert (shot.outcome, shot.params["range"], shot.effects) == ("hit", "extreme", ())
    assert spencer.stats.validate({"weapons": ["spencer"]})["weapons"] == ["spencer"]
    with pytest.raises(ValidationError):
        SYSTEM.check("fire").odds({"firearm": "spencer", "distance": 25})
    with pytest.raises(ValidationError):
        SYSTEM.stats.validate({"weapons": ["spencer"]})


def test_a_named_firearm_limits_the_range_and_the_distance():
    fire = SYSTEM.check("fire")

    with pytest.raises(ValidationError, match="no medium range"):
        fire.odds({"firearm": "shotgun", "range": "medium"})
    with pytest.raises(ValidationError, match="reaches 10 inches"):
        fire.odds({"firearm": "pistol", "distance": 11})
    with pytest.raises(ValidationError, match="name the firearm"):
        fire.odds({"distance": 11})
    assert fire.resolve({"firearm": "shotgun", "distance": 8}, GivenDice([8])).params["range"] == (
        "extreme"
    )


def test_an_edited_ability_table_changes_the_stats_choices_and_the_ability_roll():
    def swap_and_rename(document):
        abilities = document["tables"]["abilities"]
        abilities[0].update(roll=12, name="Skirmisher")
        abilities[11].update(roll=1)

    housed = SYSTEM.with_house(edited(swap_and_rename))

    choices = dict(housed.stats["ability"].choices)
    assert choices["expert_skirmisher"] == "Skirmisher"
    assert dict(SYSTEM.stats["ability"].choices)["expert_skirmisher"] == "Expert Skirmisher"
    assert housed.check("ability").resolve({}, GivenDice([12])).outcome == "expert_skirmisher"
    assert SYSTEM.check("ability").resolve({}, GivenDice([12])).outcome == "campaign_wound"
    stats = housed.stats.validate({"ability": "expert_skirmisher"})
    assert housed.label_text("Hale", stats)[-1] == "Skirmisher"


def test_each_face_of_the_d12_gives_one_ability():
    document = edited(lambda d: d["tables"]["abilities"][3].update(roll=1))

    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == ("abilities", 3, "roll")


@pytest.mark.parametrize(
    ("table", "edits", "where"),
    [
        ("misfire", {1: {"high": 3}}, (2, "low")),  # 4 falls in no band
        ("misfire", {2: {"low": 4}}, (2, "low")),  # 4 in two bands
        ("foot_wounds", {0: {"low": 11, "high": 11}, 1: {"high": 10}}, (0, "high")),  # no 12
        ("cavalry_wounds", {3: {"low": 4, "high": 3}}, (3, "high")),
        ("firearms", {1: {"medium": 5}}, (1, "medium")),  # shorter than its close range
    ],
)
def test_bands_must_cover_the_die_once_and_ranges_must_grow(table, edits, where):
    def edit(document):
        for index, cells in edits.items():
            document["tables"][table][index].update(cells)

    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, edited(edit))

    assert (caught.value.table, caught.value.row, caught.value.column) == (table, *where)


def test_moved_wound_bands_and_a_thrown_rider_follow_the_pack():
    def harsher(document):
        foot = document["tables"]["foot_wounds"]
        foot[1].update(low=9)  # 9-11 two wounds
        foot[2].update(high=8)
        cavalry = document["tables"]["cavalry_wounds"]
        cavalry[2].update(thrown="dead")  # a thrown rider on 5-9 dies

    housed = SYSTEM.with_house(edited(harsher))
    wound = housed.check("wound")

    assert wound.resolve({}, GivenDice([9])).outcome == "two_wounds"
    assert SYSTEM.check("wound").resolve({}, GivenDice([9])).outcome == "one_wound"
    assert wound.resolve({"mount": "cavalry"}, GivenDice([7, 10])).outcome == "dead"
    assert wound.odds({}).probabilities["two_wounds"] == Fraction(3, 12)
    sheet = _sheet(housed)
    assert sheet["Wounding (d12 per hit)"]["house"] is True
    assert "after 5\u20139: dead" in sheet["Wounding (d12 per hit)"]["items"][1]["text"]


def test_a_weapon_key_names_one_weapon():
    def sabre_twice(document):
        document["tables"]["firearms"].append({**SPENCER, "key": "sabre"})
        document["tables"]["melee_weapons"].append({"key": "sabre", "name": "Sabre", "bonus": 2})

    with pytest.raises(PackError) as caught:
        SYSTEM.with_house(edited(sabre_twice))

    assert (caught.value.table, caught.value.row, caught.value.column) == (
        "melee_weapons",
        2,
        "key",
    )


def test_troop_type_range_cover_and_hit_on_edits_reach_the_fire_check():
    def steadier(document):
        row(document, "troop_types", "raw").update(name="Green", modifier=0)
        row(document, "ranges", "extreme").update(modifier=-3)
        row(document, "cover", "soft").update(name="Light cover")
        document["tables"]["to_hit"][0]["hit_on"] = 7

    housed = SYSTEM.with_house(edited(steadier))

    assert dict(housed.check("fire").params["troop"].choices)["raw"] == "Green"
    assert dict(housed.stats["troop"].choices)["raw"] == "Green"
    assert fire_odds(housed, troop="raw")["hit"] == Fraction(6, 12)
    assert fire_odds(housed, range="extreme")["hit"] == Fraction(3, 12)
    assert housed.check("shoot").description.startswith("d12 + troop + modifier: 7+ hits")
    assert "light cover" in housed.tables({})["to_hit"]["modifiers"]


def test_a_club_weapon_reaches_hand_to_hand_the_auto_resolver_and_the_card():
    def armoury(document):
        document["tables"]["firearms"].append(SPENCER)
        document["tables"]["melee_weapons"].append({"key": "sabre", "name": "Sabre", "bonus": 3})

    housed = SYSTEM.with_house(edited(armoury))
    stats = housed.stats.validate({"weapons": ["spencer", "sabre"]})

    assert housed.check("hand_to_hand").odds({"weapon": "sabre"}).exact
    profile = partial(ref.weapon_profile, snapshot=housed.snapshot)
    assert profile("spencer", {}, stats)[-1] == ("Reload", "every turn")
    assert profile("sabre", {}, stats) == (("Hand to hand", "+3"),)
    sides = [
        [SimFigure(f"a{i}", f"Blue {i}", {"weapons": ["spencer"]}) for i in range(3)],
        [SimFigure(f"b{i}", f"Grey {i}", {"weapons": ["sabre"]}) for i in range(3)],
    ]
    # The battle's seed is pinned: one in which both sides get to act before it ends.
    battle = housed.simulate(sides, {}, SeededDice("club", "muster"))
    shots = [e.resolution for e in battle.events if e.resolution.check == "fire"]
    swings = [e for e in battle.events if e.resolution.check == "hand_to_hand"]
    assert shots and swings
    assert {e.resolution.params["weapon"] for e in swings if e.actor.startswith("b")} == {"sabre"}
    assert all(effect.key != "loaded" for shot in shots for effect in shot.effects)


def _sheet(system):
    options = system.options.validate({})
    sheet = ref.sheet(system.tables(options), options, system.changed_tables())
    return {s["title"]: s for s in sheet}


def test_the_bayonet_flag_decides_which_firearms_a_figure_may_fix_a_bayonet_to():
    pack = edited(
        lambda d: (
            row(d, "firearms", "shotgun").update(bayonet=True),
            row(d, "firearms", "rifled_musket").update(bayonet=False),
        )
    )
    housed = SYSTEM.with_house(pack)

    shotgun = housed.stats.validate({"weapons": ["shotgun", "bayonet"]})
    with pytest.raises(ValidationError, match="a bayonet needs a carbine"):
        housed.stats.validate({"weapons": ["rifled_musket", "bayonet"]})
    with pytest.raises(ValidationError, match="a bayonet needs a rifled musket or a carbine"):
        SYSTEM.stats.validate({"weapons": ["shotgun", "bayonet"]})
    assert shotgun["weapons"] == ["shotgun", "bayonet"]


def test_the_sheet_marks_only_the_sections_a_pack_changes():
    housed = SYSTEM.with_house(edited(lambda d: row(d, "melee_weapons", "sword").update(bonus=3)))

    marked = {title for title, section in _sheet(housed).items() if section.get("house")}
    unmarked = {title for title, section in _sheet(SYSTEM).items() if section.get("house")}

    assert marked == {"Hand to hand"}
    assert unmarked == set()
    assert _sheet(SYSTEM) == _sheet(SYSTEM.with_house(template()))


def test_the_sheet_reads_a_packs_changes_from_its_tables_without_the_pack_applied():
    housed = SYSTEM.with_house(edited(lambda d: d["tables"]["misfire"][0].update(result="jammed")))
    options = housed.options.validate({})

    tables = housed.tables(options)
    sections = {s["title"]: s for s in ref.sheet(tables, options)}

    assert tables["house_tables"] == ["misfire"]
    assert sections["Shooting (d12)"].get("house") is True


def test_cli_house_template_then_odds_under_an_edited_pack(tmp_path, capsys):
    assert main(["house-template", "d12_skirmish"]) == 0
    document = json.loads(capsys.readouterr().out)
    row(document, "troop_types", "regular")["modifier"] = 1
    pack = tmp_path / "club.json"
    pack.write_text(json.dumps(document))

    assert main(["odds", "d12_skirmish", "shoot", "troop=regular", "--house", str(pack)]) == 0
    under_pack = json.loads(capsys.readouterr().out)
    assert main(["odds", "d12_skirmish", "shoot", "troop=regular"]) == 0
    as_written = json.loads(capsys.readouterr().out)

    assert under_pack["exact"] == {"hit": "2/3", "miss": "1/4", "misfire": "1/12"}
    assert as_written["exact"] == {"hit": "7/12", "miss": "1/3", "misfire": "1/12"}


def test_cli_a_bad_cell_is_one_line_naming_table_row_and_column(tmp_path, capsys):
    document = copy.deepcopy(template())
    document["tables"]["firearms"][1]["close"] = 0
    pack = tmp_path / "bad.json"
    pack.write_text(json.dumps(document))

    code = main(["odds", "d12_skirmish", "fire", "--house", str(pack)])

    err = capsys.readouterr().err
    assert code == 2
    assert err == "error: table firearms, row 2, column close: must be at least 1, not 0\n"
