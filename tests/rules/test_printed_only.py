"""Printed-only cells: an editable number no check reads is marked on the reference sheet and
named by `python -m rules tables` (`rules.printed`), as the editor says "Printed only"."""

from __future__ import annotations

import json
from importlib import import_module

import pytest

from rules import house, printed
from rules.cli import main
from rules.system import all_systems, get_system

DECLARED = [
    (system.key, entry)
    for system in all_systems()
    for entry in getattr(import_module(f"rules.systems.{system.key}.reference"), "PRINTED_ONLY", ())
]


def _tables(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["tables", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_cells_no_check_reads_are_the_ones_the_sheet_marks():
    assert {(key, e.house_table, e.house_column) for key, e in DECLARED} == {
        ("game_the_90", "unit_types", "turns_per_move"),
        ("grits_and_glory", "weapons", "pistol"),
        ("grits_and_glory", "victory_points", "points"),
    }


@pytest.mark.parametrize(("key", "entry"), DECLARED, ids=[e.path for _, e in DECLARED])
def test_a_marked_cell_is_one_the_editor_calls_printed_only(key, entry):
    system = get_system(key)
    column = system.house.table(entry.house_table).column(entry.house_column)

    assert column.sheet_only, "the sheet marks a cell some check reads"
    assert "Printed only" in column.explained
    assert entry.table in system.tables(system.options.validate({}))


def test_tables_under_a_pack_name_the_printed_only_cells_with_the_legend(capsys, tmp_path):
    system = get_system("game_the_90")
    document = house.template(system)
    document["tables"]["unit_types"][0]["turns_per_move"] = 3
    pack_file = tmp_path / "pack.json"
    pack_file.write_text(json.dumps(document))

    result = _tables(capsys, "game_the_90", "--house", str(pack_file))

    assert result["tables"]["unit_types"][0]["turns"] == 3
    assert result["house_rules"]["changed"] == ["unit_types"]
    assert result["printed_only"] == {
        "mark": "\u2020",
        "legend": "\u2020 Printed only: the table assistant does not apply this; the players do.",
        "cells": ["unit_types[].turns"],
    }


def test_a_printed_only_table_left_off_the_sheet_is_not_named(capsys):
    scored = _tables(capsys, "grits_and_glory")
    unscored = _tables(capsys, "grits_and_glory", "victory_points=false")

    assert scored["printed_only"]["cells"] == ["weapons[].pistol", "victory_points.*"]
    assert unscored["printed_only"]["cells"] == ["weapons[].pistol"]


def test_a_system_with_no_printed_only_cell_says_nothing(capsys):
    assert "printed_only" not in _tables(capsys, "rencounter")


@pytest.mark.parametrize("key", ["game_the_90", "grits_and_glory", "rencounter"])
def test_a_sheet_section_explains_the_mark_exactly_when_it_shows_one(key):
    system = get_system(key)
    module = import_module(f"rules.systems.{key}.reference")
    options = system.options.validate({})
    legend = {"text": printed.LEGEND}

    for section in module.sheet(system.tables(options), options):
        rest = [item for item in section["items"] if item != legend]
        marks = printed.MARK in json.dumps(rest, ensure_ascii=False)
        assert (legend in section["items"]) == marks, section["title"]


def test_the_sheet_marks_the_pistols_and_the_points_heading():
    system = get_system("grits_and_glory")
    module = import_module("rules.systems.grits_and_glory.reference")
    options = system.options.validate({})
    sections = {s["title"]: s for s in module.sheet(system.tables(options), options)}

    assert sections["Victory points"]["items"][0]["table"]["header"] == ["Event", "Points \u2020"]
    names = [row[0] for row in sections["Weapons"]["items"][0]["table"]["rows"]]
    assert "Derringer (pistol \u2020)" in names
    assert "Musket" in names


def test_the_units_turns_heading_is_marked():
    system = get_system("game_the_90")
    module = import_module("rules.systems.game_the_90.reference")
    options = system.options.validate({})
    units = next(s for s in module.sheet(system.tables(options), options) if s["title"] == "Units")

    assert units["items"][0]["table"]["header"][3] == "Turns \u2020"
