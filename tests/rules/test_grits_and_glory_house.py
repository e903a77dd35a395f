"""Grits & Glory's house rules: a club edits the weapon table, the modifiers and the settings.

An edit reaches exactly the checks that read it; a weapon the club adds is a choice of the
damage check and of a unit's stats, resolves and prices exactly, and shows on cards and the
reference sheet; a bad cell is refused naming its table, row and column.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest

from rules import house
from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.simulate import SimFigure
from rules.systems.grits_and_glory import SYSTEM, reference
from rules.systems.grits_and_glory import campaign as gg_campaign
from rules.systems.grits_and_glory import tables as t

#: What an organiser types to add a weapon: one more row of the weapon table.
BLUNDERBUSS = {
    "key": "blunderbuss",
    "name": "Blunderbuss",
    "kind": "ranged",
    "strength": False,
    "dice": 3,
    "die": 6,
    "bonus": 0,
    "short": 6,
    "medium": 12,
    "long": 24,
    "rof": 1,
    "reload": 2,
    "fanfire": False,
    "reach": 0,
    "pistol": False,
}


def _template() -> dict[str, Any]:
    return house.template(SYSTEM)


def _with_rows(table: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A pack setting one table (the rest stay as written)."""
    return {"format": house.FORMAT, "system": SYSTEM.key, "tables": {table: rows}}


def _blunderbuss_pack() -> dict[str, Any]:
    return _with_rows("weapons", [*_template()["tables"]["weapons"], dict(BLUNDERBUSS)])


def _edited(table: str, key: str, column: str, value: Any) -> dict[str, Any]:
    rows = copy.deepcopy(_template()["tables"][table])
    next(row for row in rows if row["key"] == key)[column] = value
    return _with_rows(table, rows)


def _default_odds(system) -> dict[str, Any]:
    return {n: c.odds(c.params.validate({})).probabilities for n, c in system.checks.items()}


# --- adding a weapon ------------------------------------------------------------------------


def test_an_added_weapon_is_a_choice_of_the_damage_check_under_the_pack_only():
    housed = SYSTEM.with_house(_blunderbuss_pack())

    weapon = housed.check("damage").params["weapon"]
    assert "blunderbuss" in weapon.choice_values()
    assert dict(weapon.choices)["blunderbuss"] == "Blunderbuss (3d6)"
    assert "blunderbuss" not in SYSTEM.check("damage").params["weapon"].choice_values()
    with pytest.raises(ValidationError):
        SYSTEM.check("damage").odds({"weapon": "blunderbuss"})


def test_an_added_weapon_prices_exactly_and_like_the_same_dice():
    housed = SYSTEM.with_house(_blunderbuss_pack())
    params = {"toughness": 5}

    odds = housed.check("damage").odds({**params, "weapon": "blunderbuss"})
    shotgun = SYSTEM.check("damage").odds({**params, "weapon": "shotgun"})

    assert odds.exact
    assert all(isinstance(p, Fraction) for p in odds.probabilities.values())
    assert sum(odds.probabilities.values()) == 1
    # Three d6 under 5 never ace: totals 3 and 4, four ways in 216.
    assert odds.probabilities["no_effect"] == Fraction(4, 216)
    assert odds.probabilities == shotgun.probabilities  # both 3d6, no Strength


def test_an_added_weapon_resolves_with_its_own_dice():
    damage = SYSTEM.with_house(_blunderbuss_pack()).check("damage")

    hit = damage.resolve({"weapon": "blunderbuss", "toughness": 5}, GivenDice([2, 3, 4]))
    glance = damage.resolve({"weapon": "blunderbuss", "toughness": 5}, GivenDice([1, 1, 2]))

    assert (hit.outcome, hit.details["total"]) == ("removed", 9)
    assert (glance.outcome, glance.details["total"]) == ("no_effect", 4)


def test_a_unit_may_carry_an_added_weapon_and_its_card_and_sheet_show_it():
    housed = SYSTEM.with_house(_blunderbuss_pack())
    options = housed.options.validate({})
    tables = housed.tables(options)

    assert housed.stats.validate({"weapons": ["blunderbuss"]})["weapons"] == ["blunderbuss"]
    with pytest.raises(ValidationError):
        SYSTEM.stats.validate({"weapons": ["blunderbuss"]})
    assert reference.weapon_profile("blunderbuss", tables) == (
        ('Range "', "6/12/24"),
        ("Damage", "3d6"),
        ("RoF", "1"),
        ("Reload", "2"),  # under the heading "Reload", no doubled word
    )
    sheet = reference.sheet(tables, options, housed.changed_tables())
    weapons = next(s for s in sheet if s["title"] == "Weapons")
    assert ["Blunderbuss", "6/12/24", "3d6", "1", "2"] in weapons["items"][0]["table"]["rows"]
    assert [s["title"] for s in sheet if s.get("house")] == ["Weapons"]
    assert not any(s.get("house") for s in reference.sheet(tables, options))  # nothing changed


def test_the_comparison_prices_an_added_weapon_after_and_not_before():
    pack = house.load(SYSTEM, _blunderbuss_pack())

    compared = {c.probe.label: c for c in house.compare(SYSTEM, None, pack)}

    damage = compared["Blunderbuss: damage against Toughness 5"]
    assert damage.before is None
    assert damage.after == SYSTEM.check("damage").odds({"weapon": "shotgun"}).probabilities
    shooting = compared["Shooting d8 at medium range"]
    assert shooting.before == shooting.after  # the weapon changes the damage, not the hit


def test_an_auto_resolved_battle_fires_an_added_weapon():
    housed = SYSTEM.with_house(_blunderbuss_pack())
    sides = [
        [SimFigure("blunder", "Blunderbussiers", {"figures": 4, "weapons": ["blunderbuss"]})],
        [SimFigure("foe", "Foes", {"figures": 4, "weapons": ["sabre"]})],
    ]

    result = housed.simulate(sides, {}, SeededDice("house", "battle"))

    fired = [e for e in result.events if e.resolution.check == "damage" and e.actor == "blunder"]
    assert fired
    assert {e.resolution.params["weapon"] for e in fired} == {"blunderbuss"}


# --- editing a weapon -----------------------------------------------------------------------


def test_changing_one_weapon_changes_only_the_damage_it_does():
    housed = SYSTEM.with_house(_edited("weapons", "shotgun", "dice", 2))
    damage = SYSTEM.check("damage")

    changed = {
        key
        for key in damage.params["weapon"].choice_values()
        if housed.check("damage").odds({"weapon": key}).probabilities
        != damage.odds({"weapon": key}).probabilities
    }

    assert changed == {"shotgun"}
    assert _default_odds(housed) == _default_odds(SYSTEM)  # the default weapon is the sabre
    assert dict(housed.check("damage").params["weapon"].choices)["shotgun"] == "Shotgun (2d6)"
    club = housed.snapshot
    assert club.WEAPONS["shotgun"].dice == club.DAMAGE_SOURCES["shotgun"].dice == (6, 6)
    assert t.BASE.WEAPONS["shotgun"].dice == (6, 6, 6)  # the pack never leaks into the text's


def test_an_edited_weapon_is_a_house_value_and_an_unchanged_one_keeps_its_source():
    housed = SYSTEM.with_house(_edited("weapons", "sabre", "bonus", 1))
    weapons = {w["key"]: w for w in housed.tables(housed.options.validate({}))["weapons"]}

    assert (weapons["sabre"]["damage"], weapons["sabre"]["source"]) == ("Str+d6+1", "house")
    assert weapons["spear"]["source"] == "text"


# --- modifiers and settings -----------------------------------------------------------------


def test_a_range_modifier_reaches_the_shots_at_that_range_and_their_labels():
    housed = SYSTEM.with_house(_edited("range_modifiers", "medium", "modifier", -1))
    shooting = SYSTEM.check("shooting")

    for range_key in ("short", "long"):
        params = {"die": 8, "range": range_key}
        assert housed.check("shooting").odds(params) == shooting.odds(params)
    assert housed.check("shooting").odds({"die": 8, "range": "medium"}) == shooting.odds(
        {"die": 8, "range": "medium", "modifier": 1}
    )
    labels = dict(housed.check("shooting").params["range"].choices)
    assert labels["medium"] == "medium (-1)"
    assert (
        "(-1, deviation x2)" in dict(housed.check("area_effect").params["range"].choices)["medium"]
    )


def test_a_situation_modifier_reaches_its_flag_and_its_help():
    housed = SYSTEM.with_house(_edited("situation_modifiers", "fog", "modifier", -3))
    shooting = SYSTEM.check("shooting")

    assert housed.check("shooting").odds({"fog": True}) == shooting.odds({"modifier": -3})
    assert housed.check("shooting").params["fog"].help == "Shooting into fog: -3."
    assert housed.check("fighting").params.as_json() == SYSTEM.check("fighting").params.as_json()


def test_the_gang_up_cap_is_a_setting():
    housed = SYSTEM.with_house(_edited("settings", "gang_up_max", "value", 2))
    fighting = SYSTEM.check("fighting")

    assert housed.check("fighting").odds({"gang_up": 6}) == fighting.odds({"gang_up": 2})
    assert housed.check("fighting").odds({"gang_up": 1}) == fighting.odds({"gang_up": 1})
    assert "max +2" in housed.check("fighting").params["gang_up"].help


def test_the_untrained_penalty_reaches_every_untrained_roll_and_its_words():
    housed = SYSTEM.with_house(_edited("settings", "untrained_penalty", "value", -1))
    tables = housed.tables(housed.options.validate({}))

    assert housed.check("trait").odds({"untrained": True}) == SYSTEM.check("trait").odds(
        {"untrained": True, "modifier": 1}
    )
    assert housed.check("notice").odds({"die": 0}) == SYSTEM.check("notice").odds(
        {"die": 0, "modifier": 1}
    )
    assert tables["modifiers"]["untrained"] == "d4-1"
    assert "d4-1" in housed.check("fighting").params["die"].help
    assert "d4\u22121" in reference.card_notes({"fighting": 0}, tables)[-1]


def test_a_question_prepared_as_written_and_under_a_pack_rolls_each_with_its_own_tables():
    housed = SYSTEM.with_house(_edited("settings", "gang_up_max", "value", 2))
    question = {"die": 8, "gang_up": 4, "parry": 6}

    # A simulation asks the same question again and again: each rules set plans it once.
    written = SYSTEM.check("fighting").prepared(question)
    under_pack = housed.check("fighting").prepared(question)
    rolled = [
        (blow.details["modifier"], blow.outcome)
        for blow in (p.roll(GivenDice([3])) for p in (written, under_pack, written, under_pack))
    ]

    assert rolled == [(4, "hit"), (2, "miss"), (4, "hit"), (2, "miss")]
    assert housed.check("fighting").prepared(question) is under_pack
    # A plain resolve plans the same question once per rules set too.
    resolved = [
        check.resolve(question, GivenDice([3])).outcome
        for check in (SYSTEM.check("fighting"), housed.check("fighting")) * 2
    ]
    assert resolved == ["hit", "miss", "hit", "miss"]


def test_the_jokers_bonus_reaches_the_deck_drawn_under_the_pack():
    housed = SYSTEM.with_house(_edited("settings", "joker_bonus", "value", 3))
    deck = housed.activation["action_deck"]
    state = deck.start(["a"], {}, SeededDice("deck", "joker"))
    state["deck"] = ["RJ", *state["deck"]]  # the first card dealt is a Joker

    drawn = deck.draw(state, SeededDice("deck", "draw"))

    assert drawn.result["joker"] and drawn.result["bonus"] == 3
    assert "at +3" in deck.description
    assert (
        SYSTEM.activation["action_deck"].draw(state, SeededDice("deck", "draw")).result["bonus"]
        == 2
    )


def test_victory_points_are_scored_and_printed_from_the_pack():
    pack = house.load(SYSTEM, _edited("victory_points", "enemy_killed", "points", 3))
    housed = SYSTEM.with_house(pack)
    options = housed.options.validate({})

    scored = gg_campaign.victory_points([], ["killed"], tables=housed.snapshot)
    sheet = reference.sheet(housed.tables(options), options, housed.changed_tables())
    assert (scored, gg_campaign.victory_points([], ["killed"])) == (3, 2)
    points = next(s for s in sheet if s["title"] == "Victory points")
    assert points["house"] is True
    assert ["Each enemy unit killed", "+3"] in points["items"][0]["table"]["rows"]


def _reloads(system: Any, seeds: int = 8) -> list[dict[str, Any]]:
    """The reload checks musketeers make in seeded auto-resolved battles against swordsmen."""
    sides = [
        [SimFigure("muskets", "Musketeers", {"figures": 4, "weapons": ["musket"]})],
        [SimFigure("swords", "Swordsmen", {"figures": 4, "weapons": ["sabre"]})],
    ]
    reloads = []
    for seed in range(seeds):
        result = system.simulate(sides, {}, SeededDice("reload", str(seed)))
        reloads += [e.resolution for e in result.events if e.resolution.check == "reload"]
    return [{**r.params, **r.details, "outcome": r.outcome} for r in reloads]


def test_a_slower_musket_reloads_for_longer_in_the_check_and_the_auto_resolver():
    housed = SYSTEM.with_house(_edited("weapons", "musket", "reload", 4))

    club = housed.check("reload").resolve(
        housed.check("reload").params.validate({"reload": 4}), GivenDice([])
    )
    reloads = _reloads(housed)

    assert club.details["rounds_left"] == 4
    assert reloads and {r["reload"] for r in reloads} == {4}
    assert {r["reload"] for r in _reloads(SYSTEM)} == {2}
    # A reload begun goes on: 4 rounds after the action under the club's musket, 2 as written.
    assert max(r["rounds_left"] for r in reloads) == 4


def test_the_pistol_and_victory_point_cells_say_they_are_printed_only():
    weapons, points = SYSTEM.house.table("weapons"), SYSTEM.house.table("victory_points")

    assert weapons.column("pistol").explained.startswith(
        "May be fired in close combat (at the defender's Parry). Printed only: the player fires "
    )
    assert "Printed only: the players score the battle" in points.column("points").explained


def test_the_sheet_marks_the_weapons_the_club_lets_fire_in_close_combat():
    housed = SYSTEM.with_house(_edited("weapons", "derringer", "pistol", False))
    options = housed.options.validate({})

    def weapon_names(system: Any) -> list[str]:
        sheet = reference.sheet(system.tables(options), options)
        section = next(s for s in sheet if s["title"] == "Weapons")
        return [row[0] for row in section["items"][0]["table"]["rows"]]

    club = weapon_names(housed)
    assert "Derringer (pistol \u2020)" in weapon_names(SYSTEM)
    assert "Derringer" in club and "Six-shooter (pistol \u2020)" in club


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        ({"kind": "melee"}, "column short", "must be empty for a melee weapon"),
        ({"medium": None}, "column medium", "must be filled in for a ranged weapon"),
        ({"medium": 30}, "column long", "must be longer than the range before it (30)"),
        ({"die": None}, "column die", "must be filled in when the weapon has damage dice"),
        ({"dice": 0, "die": None}, "column dice", "does not add Strength"),
        ({"key": "fire"}, "column key", "is a hazard's key"),
        ({"reach": 1}, "column reach", "must be 0 for a ranged weapon"),
        ({"rof": 7}, "column rof", "must be at most 6"),
        ({"die": 7}, "column die", "must be one of"),
    ],
)
def test_a_bad_weapon_row_is_refused_naming_its_row_and_column(change, where, words):
    rows = [*_template()["tables"]["weapons"], {**BLUNDERBUSS, **change}]

    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, _with_rows("weapons", rows))

    assert str(caught.value).startswith(f"table weapons, row {len(rows)}, {where}: ")
    assert words in str(caught.value)


def test_a_melee_weapon_strikes_once_and_unarmed_stays():
    rows, unchanged = _template()["tables"]["weapons"], _template()["tables"]["weapons"]
    sabre = next(i for i, row in enumerate(rows) if row["key"] == "sabre")
    rows[sabre]["rof"] = 2

    with pytest.raises(PackError, match=f"table weapons, row {sabre + 1}, column rof: must be 1"):
        house.load(SYSTEM, _with_rows("weapons", rows))
    with pytest.raises(PackError, match="must keep 'unarmed'"):
        house.load(SYSTEM, _with_rows("weapons", [r for r in unchanged if r["key"] != "unarmed"]))


def test_a_setting_keeps_within_its_own_limits():
    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, _edited("settings", "joker_bonus", "value", 7))

    assert (
        str(caught.value)
        == "table settings, row 4, column value: must be from 0 to 6 for joker_bonus, not 7"
    )


# --- the command line -----------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_template_edited_to_add_a_weapon_prices_it_on_the_command_line(capsys, tmp_path):
    code, out, _ = _run(capsys, "house-template", SYSTEM.key)
    document = json.loads(out)
    document["tables"]["weapons"].append(dict(BLUNDERBUSS))
    pack_file = tmp_path / "blunderbuss.json"
    pack_file.write_text(json.dumps(document))

    code, out, err = _run(
        capsys, "odds", SYSTEM.key, "damage", "weapon=blunderbuss", "--house", str(pack_file)
    )
    _, shotgun, _ = _run(capsys, "odds", SYSTEM.key, "damage", "weapon=shotgun")
    _, tables, _ = _run(capsys, "tables", SYSTEM.key, "--house", str(pack_file))

    assert (code, err) == (0, "")
    assert json.loads(out)["exact"] == json.loads(shotgun)["exact"]
    housed = json.loads(tables)
    assert housed["house_rules"]["changed"] == ["weapons"]
    assert "blunderbuss" in [w["key"] for w in housed["tables"]["weapons"]]


def test_a_bad_cell_on_the_command_line_is_one_line_and_exit_2(capsys, tmp_path):
    document = _template()
    document["tables"]["weapons"].append({**BLUNDERBUSS, "long": "far"})
    pack_file = tmp_path / "bad.json"
    pack_file.write_text(json.dumps(document))

    code, out, err = _run(capsys, "odds", SYSTEM.key, "damage", "--house", str(pack_file))

    assert (code, out) == (2, "")
    row = len(document["tables"]["weapons"])
    assert err == f"error: table weapons, row {row}, column long: must be a number, not 'far'\n"
