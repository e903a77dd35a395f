"""Game the 90% under house rules: each edited table reaches exactly the checks that read it."""

from __future__ import annotations

import itertools
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
from rules.systems.game_the_90 import SYSTEM
from rules.systems.game_the_90 import reference as sheet_module
from rules.systems.game_the_90.tables import CONTACTS, DIE_CHOICES, SHOOTERS, UNIT_TYPES

UNITS = [key for key, _ in UNIT_TYPES]
DICE = [key for key, _ in DIE_CHOICES]


def _pack(**edits: Any) -> dict[str, Any]:
    """The template with `table=[(row index, column, value), ...]` edits made."""
    document = house.template(SYSTEM)
    for table, cells in edits.items():
        for index, column, value in cells:
            document["tables"][table][index][column] = value
    return document


def _odds(system: Any, check: str, **params: Any) -> dict[str, Any]:
    return dict(system.check(check).odds(params).probabilities)


def _all_params(check: str) -> list[dict[str, Any]]:
    """Every combination of the check's choice and bool parameters (numbers at their defaults)."""
    fields = [f for f in SYSTEM.check(check).params.fields if f.kind in ("choice", "bool")]
    values = [[v for v, _ in f.choices] if f.choices else [False, True] for f in fields]
    return [
        dict(zip([f.name for f in fields], combo, strict=True))
        for combo in itertools.product(*values)
    ]


def test_a_knights_melee_modifier_changes_only_the_melees_knights_fight():
    housed = SYSTEM.with_house(_pack(unit_types=[(0, "melee_modifier", 1)]))

    for params in _all_params("melee"):
        changed = _odds(housed, "melee", **params) != _odds(SYSTEM, "melee", **params)
        assert changed == (params["attacker"] == "knights"), params
    for check in ("shoot", "move", "charge", "rally"):
        for params in _all_params(check):
            assert _odds(housed, check, **params) == _odds(SYSTEM, check, **params)


def test_exact_odds_stay_fractions_under_the_pack():
    housed = SYSTEM.with_house(_pack(unit_types=[(0, "melee_modifier", 1)]))

    odds = housed.check("melee").odds({"attacker": "knights", "target": "serjeants"})

    assert odds.exact
    assert all(isinstance(p, Fraction) for p in odds.probabilities.values())
    assert {k: p for k, p in odds.probabilities.items() if p} == {
        f"hits_{n}": Fraction(1, 6) for n in range(2, 8)
    }
    assert sum(odds.probabilities.values()) == 1


def test_a_roll_under_the_pack_deals_the_packs_hits():
    housed = SYSTEM.with_house(_pack(unit_types=[(0, "melee_modifier", -1)]))
    params = {"attacker": "knights", "target": "serjeants", "contact": "rear"}

    assert housed.check("melee").resolve(params, GivenDice([6])).outcome == "hits_10"
    assert SYSTEM.check("melee").resolve(params, GivenDice([6])).outcome == "hits_16"


def test_the_comparison_prices_the_edited_unit_type_before_and_after():
    pack = house.load(SYSTEM, _pack(unit_types=[(0, "melee_modifier", 1)]))

    compared = {c.probe.label: c for c in house.compare(SYSTEM, None, pack)}

    knights = compared["Knights attack Serjeants"]
    assert knights.before["hits_8"] == Fraction(1, 6) and knights.after["hits_8"] == 0
    assert knights.after["hits_2"] == Fraction(1, 6)
    assert compared["Serjeants attack Knights"].before == compared["Serjeants attack Knights"].after


def test_armour_taken_off_foot_knights_stops_the_halving_on_them_only():
    housed = SYSTEM.with_house(_pack(unit_types=[(1, "armoured", False)]))

    assert _odds(housed, "shoot", target="foot_knights") == _odds(
        SYSTEM, "shoot", target="serjeants"
    )
    assert _odds(housed, "melee", target="serjeants") == _odds(SYSTEM, "melee", target="serjeants")
    assert "Foot Knights" not in housed.check("melee").description


def test_rally_bands_and_the_floor_reach_the_rally_odds():
    bands = [(0, "high", 3), (1, "low", 4), (1, "high", 5), (2, "low", 6)]
    housed = SYSTEM.with_house(_pack(rally_bands=bands, removal=[(0, "rally_floor", 3)]))

    assert _odds(housed, "rally", hits=5) == {
        "hits_off_0": 0,
        "hits_off_1": Fraction(1, 2),
        "hits_off_2": Fraction(1, 3),
        "hits_off_3": Fraction(1, 6),
    }
    assert _odds(housed, "rally", hits=4, passed_ten=True)["hits_off_1"] == 1
    assert _odds(SYSTEM, "rally", hits=4, passed_ten=True)["hits_off_0"] == 1
    assert housed.check("rally").description.startswith("Dx: 1-3 one Hit off, 4-5 two, 6 three")


def test_a_later_removal_lets_units_carry_more_hits_and_moves_the_card_track():
    housed = SYSTEM.with_house(_pack(removal=[(0, "removed_at", 20)]))
    state = {"hits": 17}

    assert housed.stats.validate({"type": "knights", "hits": 19})["hits"] == 19
    assert housed.card.track_boxes == 19
    housed.settle_state(state)
    assert "status" not in state
    melee = housed.check("melee").resolve(
        {"attacker": "knights", "target_hits": 19}, GivenDice([1])
    )
    assert melee.details["removed"] is True
    assert SYSTEM.card.track_boxes == 14


def _effects(resolution: Any) -> list[tuple[str, Any, str]]:
    return [(effect.key, effect.value, effect.note) for effect in resolution.effects]


def test_an_earlier_removal_and_fatigue_mark_show_in_a_melees_effects():
    housed = SYSTEM.with_house(
        _pack(removal=[(0, "removed_at", 12), (0, "rally_fatigue_past", 8), (0, "rally_floor", 4)])
    )
    params = {"attacker": "knights", "target_hits": 8}

    club = housed.check("melee").resolve(params, GivenDice([2]))
    written = SYSTEM.check("melee").resolve(params, GivenDice([2]))

    hits = club.details["hits"]
    assert hits == written.details["hits"] and 12 <= 8 + hits < 15
    assert ("status", "removed", f"{8 + hits} Hits") in _effects(club)
    assert ("passed_ten", True, "past eight Hits") in _effects(club)
    assert "removed" not in [value for _, value, _ in _effects(written)]
    assert ("passed_ten", True, "past ten Hits") in _effects(written)


def test_turns_per_move_is_printed_only_and_the_sheet_prints_the_clubs_number():
    column = SYSTEM.house.table("unit_types").column("turns_per_move")
    housed = SYSTEM.with_house(_pack(unit_types=[(4, "turns_per_move", 3)]))

    assert column.sheet_only and column.explained.endswith(
        "Printed only: the player turns the unit as it moves; no check rolls for a Turn."
    )
    lights = next(u for u in housed.tables({})["unit_types"] if u["type"] == "lights")
    assert lights["turns"] == 3
    notes = sheet_module.card_notes({"type": "lights"}, housed.tables({}))
    assert "3 turns a move" in " ".join(notes)


def test_quivers_and_fast_moves_follow_their_tables():
    housed = SYSTEM.with_house(
        _pack(out_of_missiles=[(4, "runs_out", False)], fast_bonus=[(2, "inches", 7)])
    )

    shoot = _odds(housed, "shoot", shooter="bowmen")
    assert shoot["hits_5"] == Fraction(1, 6) and shoot["hits_5_out_of_missiles"] == 0
    assert _odds(housed, "move", unit="knights", fast=True)["inches_13"] == Fraction(1, 6)
    assert _odds(housed, "move", unit="lights", fast=True) == _odds(
        SYSTEM, "move", unit="lights", fast=True
    )
    assert (
        housed.check("move").description == "Dx inches, plus 3/6/7 for a Fast move by class 1/2/3"
    )


def test_the_auto_resolver_rolls_under_the_pack():
    pack = _pack(removal=[(0, "removed_at", 30), (0, "rally_fatigue_past", 25)])
    housed = SYSTEM.with_house(pack)
    sides = [
        [SimFigure(f"a:{n}", "a", {"type": "knights", "hits": 20}) for n in range(2)],
        [SimFigure(f"d:{n}", "d", {"type": "serjeants"}) for n in range(2)],
    ]

    result = housed.simulate(sides, {"die": "d6"}, SeededDice("house", "sim"))

    assert result.events
    for state in result.states.values():
        assert (state["status"] == "removed") == (state["hits"] >= 30)
    with pytest.raises(ValidationError):
        SYSTEM.simulate(sides, {"die": "d6"}, SeededDice("house", "sim"))


def test_the_sheet_marks_only_the_sections_drawing_on_a_changed_table():
    housed = SYSTEM.with_house(_pack(rally_bands=[(0, "hits_off", 0)]))
    options = housed.options.validate({})

    sections = sheet_module.sheet(housed.tables(options), options, housed.changed_tables())
    plain = sheet_module.sheet(SYSTEM.tables(options), options)

    assert [s["title"] for s in sections if s.get("house")] == ["Rally (Dx)"]
    assert not any(s.get("house") for s in plain)
    rally = next(s for s in sections if s["title"] == "Rally (Dx)")
    assert rally["items"][0]["table"]["rows"][0] == ["1-2", "0"]


def test_the_template_applied_unchanged_marks_nothing_and_keeps_the_text():
    housed = SYSTEM.with_house(house.template(SYSTEM))
    options = housed.options.validate({})

    sections = sheet_module.sheet(housed.tables(options), options, housed.changed_tables())

    assert sections == sheet_module.sheet(SYSTEM.tables(options), options)
    assert {n: c.description for n, c in housed.checks.items()} == {
        n: c.description for n, c in SYSTEM.checks.items()
    }
    assert housed.card == SYSTEM.card


@pytest.mark.parametrize(
    ("edits", "where", "words"),
    [
        ({"rally_bands": [(1, "low", 2)]}, "table rally_bands, row 2, column low", "overlaps"),
        ({"rally_bands": [(1, "low", 4)]}, "table rally_bands, row 2, column low", "in no band"),
        ({"rally_bands": [(2, "high", 5)]}, "table rally_bands, row 3, column high", "highest"),
        ({"unit_types": [(0, "melee_modifier", 3)]}, "table unit_types, row 1, column", "at most"),
        (
            {"unit_types": [(3, "shooting_modifier", None)]},
            "table unit_types, row 4, column shooting_modifier",
            "carry missiles",
        ),
        (
            {"unit_types": [(0, "shooting_modifier", 0)]},
            "table unit_types, row 1, column shooting_modifier",
            "carry no missiles",
        ),
        (
            {"removal": [(0, "rally_fatigue_past", 15)]},
            "table removal, row 1, column rally_fatigue_past",
            "less than",
        ),
        ({"fast_bonus": [(0, "inches", 10)]}, "table fast_bonus, row 1, column inches", "at most"),
    ],
)
def test_a_bad_cell_is_refused_naming_its_table_row_and_column(edits, where, words):
    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, _pack(**edits))

    assert str(caught.value).startswith(f"{where}")
    assert words in str(caught.value)


def test_every_limit_keeps_the_checks_outcomes():
    """The strongest modifiers and bonuses a pack may set still land on the checks' outcomes."""
    strongest = _pack(
        unit_types=[(i, "melee_modifier", 2) for i in range(len(UNITS))]
        + [(UNITS.index(k), "shooting_modifier", 0) for k in SHOOTERS],
        fast_bonus=[(i, "inches", 9) for i in range(3)],
    )
    housed = SYSTEM.with_house(strongest)

    for check in ("shoot", "melee", "move"):
        for params in _all_params(check):
            assert sum(housed.check(check).odds(params).probabilities.values()) == 1


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_prices_an_edited_template(capsys, tmp_path):
    code, out, _ = _cli(capsys, "house-template", "game_the_90")
    document = json.loads(out)
    document["tables"]["unit_types"][0]["melee_modifier"] = 1
    pack_file = tmp_path / "knights.json"
    pack_file.write_text(json.dumps(document))

    code, out, _ = _cli(
        capsys, "odds", "game_the_90", "melee", "attacker=knights", "--house", str(pack_file)
    )
    plain = json.loads(_cli(capsys, "odds", "game_the_90", "melee", "attacker=knights")[1])
    tables = json.loads(_cli(capsys, "tables", "game_the_90", "--house", str(pack_file))[1])

    assert code == 0
    assert json.loads(out)["exact"]["hits_2"] == "1/6"
    assert plain["exact"]["hits_2"] == "0/1"
    assert tables["house_rules"]["changed"] == ["unit_types"]
    assert tables["tables"]["melee"]["modifiers"]["Knights"] == 1


def test_the_cli_refuses_overlapping_rally_bands_in_one_line(capsys, tmp_path):
    document = house.template(SYSTEM)
    document["tables"]["rally_bands"][1]["low"] = 2
    pack_file = tmp_path / "bands.json"
    pack_file.write_text(json.dumps(document))

    code, out, err = _cli(capsys, "odds", "game_the_90", "rally", "--house", str(pack_file))

    assert code == 2
    assert out == ""
    assert err.startswith("error: table rally_bands, row 2, column low: ")
    assert err.count("\n") == 1


def test_every_die_and_contact_is_covered_by_the_parameter_sweep():
    combos = _all_params("melee")

    assert {p["die"] for p in combos} == set(DICE)
    assert {p["contact"] for p in combos} == {key for key, _ in CONTACTS}
