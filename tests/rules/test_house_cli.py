"""The house-rules CLI (a contract): `house-template SYSTEM`, and `--house FILE` on the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import house
from rules.cli import main
from rules.system import all_systems

SYSTEMS = [system for system in all_systems() if system.house is not None]
IDS = [system.key for system in SYSTEMS]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_template_applied_unchanged_prints_the_same_tables_and_odds(system, capsys, tmp_path):
    code, out, _ = _run(capsys, "house-template", system.key)
    assert code == 0
    pack_file = tmp_path / "pack.json"
    pack_file.write_text(out)
    assert json.loads(out) == house.template(system)

    code, plain, _ = _run(capsys, "tables", system.key)
    code_house, housed, _ = _run(capsys, "tables", system.key, "--house", str(pack_file))

    assert code == code_house == 0
    housed_json = json.loads(housed)
    assert housed_json.pop("house_rules")["changed"] == []
    assert housed_json == json.loads(plain)
    check = next(iter(system.checks))
    assert (
        _run(capsys, "odds", system.key, check)[1]
        == _run(capsys, "odds", system.key, check, "--house", str(pack_file))[1]
    )
    seeded = ("roll", system.key, check, "--seed", "house")
    assert _run(capsys, *seeded)[1] == _run(capsys, *seeded, "--house", str(pack_file))[1]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_bad_cell_is_one_line_naming_table_row_and_column(system, capsys, tmp_path):
    document = house.template(system)
    table = system.house.tables[0]
    column = next(c for c in table.columns if c.name != table.key and c.required)
    document["tables"][table.name][0][column.name] = [1, 2]
    pack_file = tmp_path / "bad.json"
    pack_file.write_text(json.dumps(document))

    code, out, err = _run(capsys, "tables", system.key, "--house", str(pack_file))

    assert code == 2
    assert out == ""
    assert err.startswith(f"error: table {table.name}, row 1, column {column.name}: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[" * 5000 + b"]" * 5000, "nested deeper"),
        (b"{", "not valid JSON"),
        (b"[]", "must be a JSON object"),
        (b'{"system": "rencounter", "tables": {"x": Infinity}}', "not a number JSON allows"),
    ],
)
def test_a_file_that_is_not_a_pack_is_one_line_and_exit_2(content, words, capsys, tmp_path):
    system = SYSTEMS[0]
    pack_file = tmp_path / "pack.json"
    pack_file.write_bytes(content)

    code, out, err = _run(capsys, "tables", system.key, "--house", str(pack_file))

    assert (code, out) == (2, "")
    assert words in err
    assert err.count("\n") == 1


def test_a_missing_or_huge_file_is_one_line_and_exit_2(capsys, tmp_path: Path):
    system = SYSTEMS[0]
    code, _, err = _run(capsys, "tables", system.key, "--house", str(tmp_path / "none.json"))
    assert code == 2
    assert "cannot read" in err

    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 1_000_001)
    code, _, err = _run(capsys, "tables", system.key, "--house", str(huge))
    assert code == 2
    assert "not a house-rules pack" in err


def test_a_pack_for_another_system_is_refused(capsys, tmp_path):
    first, second = SYSTEMS[0], SYSTEMS[1]
    pack_file = tmp_path / "pack.json"
    pack_file.write_text(json.dumps(house.template(first)))

    code, _, err = _run(capsys, "tables", second.key, "--house", str(pack_file))

    assert code == 2
    assert f"this pack is for {first.key!r}" in err


def test_house_template_of_an_unknown_system_is_exit_2(capsys):
    code, _, err = _run(capsys, "house-template", "nonesuch")
    assert code == 2
    assert "no rule system 'nonesuch'" in err


@pytest.mark.parametrize("raw", ["10", "1_0", "\uff11\uff10", " 8 ", "8.0", True])
def test_a_number_cell_given_as_text_or_a_flag_is_one_line_and_exit_2(raw, capsys, tmp_path):
    system = SYSTEMS[0]
    document = house.template(system)
    table = next(t for t in system.house.tables if any(c.kind == "int" for c in t.columns))
    column = next(c for c in table.columns if c.kind == "int")
    document["tables"][table.name][0][column.name] = raw
    pack_file = tmp_path / "pack.json"
    pack_file.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")

    for argv in (("tables", system.key), ("odds", system.key, next(iter(system.checks)))):
        code, out, err = _run(capsys, *argv, "--house", str(pack_file))

        assert (code, out) == (2, "")
        assert err == (
            f"error: table {table.name}, row 1, column {column.name}: "
            f"must be a number, not {raw!r}\n"
        )
