"""House-rules packs over every system: the template changes nothing, edits change what they touch.

The system modules' own tests (tests/rules/test_<system>_house.py) show each system's edits
reaching its checks; these hold for every system with editable tables, whatever they are.
"""

from __future__ import annotations

import copy
import json
import threading
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from rules import house
from rules.dice import SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.system import RuleSystem, all_systems, get_system
from tests.rules.agreement import params_strategy

SYSTEMS = [system for system in all_systems() if system.house is not None]
IDS = [system.key for system in SYSTEMS]


def test_every_system_lets_a_club_edit_its_tables():
    assert {system.key for system in SYSTEMS} == {s.key for s in all_systems()}


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_template_holds_every_editable_table_and_loads(system: RuleSystem):
    document = house.template(system)

    assert document["system"] == system.key
    assert set(document["tables"]) == {table.name for table in system.house.tables}
    assert all(document["tables"][name] for name in document["tables"])
    pack = house.load(system, json.loads(json.dumps(document)))
    assert pack.changed_tables() == ()
    assert house.diff(system, None, pack) == []


def _defaults(check: Any) -> dict[str, Any]:
    """Each parameter's default; a required one without (Rencounter's skills) its first choice
    or its minimum."""
    given = {
        f.name: f.choices[0][0] if f.choices else f.min
        for f in check.params.fields
        if f.required and f.default is None
    }
    return check.params.validate(given)


def _outcomes(system: RuleSystem, check_name: str, params: dict[str, Any]) -> tuple[Any, ...]:
    check = system.check(check_name)
    odds = check.odds(params)
    seeded = check.resolve(params, SeededDice("house", check_name)).as_json()
    return dict(odds.probabilities), odds.exact, json.dumps(seeded, sort_keys=True, default=str)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_unmodified_template_leaves_tables_schemas_and_defaults_identical(system: RuleSystem):
    housed = system.with_house(house.template(system))
    options = system.options.validate({})

    assert housed.pack is not None
    assert json.dumps(housed.tables(options), default=str) == json.dumps(
        system.tables(options), default=str
    )
    assert housed.stats.as_json() == system.stats.as_json()
    assert set(housed.checks) == set(system.checks)
    for name, check in system.checks.items():
        assert housed.check(name).params.as_json() == check.params.as_json()
        params = _defaults(check)
        assert _outcomes(housed, name, params) == _outcomes(system, name, params)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_unmodified_template_leaves_every_checks_odds_and_results_byte_identical(data):
    system = data.draw(st.sampled_from(SYSTEMS), label="system")
    housed = system.with_house(house.template(system))
    name = data.draw(st.sampled_from(sorted(system.checks)), label="check")
    check = system.check(name)
    try:
        params = check.params.validate(data.draw(params_strategy(check), label="params"))
    except ValidationError:
        reject()

    assert _outcomes(housed, name, params) == _outcomes(system, name, params)


def _edited_cell(system: RuleSystem) -> tuple[dict[str, Any], str] | None:
    """A template with one numeric cell moved within its limits, and the table it is in."""
    document = house.template(system)
    for table in system.house.tables:
        for column in table.columns:
            if column.kind != "int" or column.name == table.key:
                continue
            for row in document["tables"][table.name]:
                value = row[column.name]
                if value is None:
                    continue
                for candidate in (value + 1, value - 1):
                    if (column.min is None or candidate >= column.min) and (
                        column.max is None or candidate <= column.max
                    ):
                        edited = copy.deepcopy(document)
                        edited["tables"][table.name][document["tables"][table.name].index(row)][
                            column.name
                        ] = candidate
                        try:
                            house.load(system, edited)
                        except PackError:
                            continue
                        return edited, table.name
    return None


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_exact_odds_stay_exact_under_an_edited_pack(system: RuleSystem):
    edited = _edited_cell(system)
    assert edited is not None, "every system has a numeric cell a club can change"
    housed = system.with_house(edited[0])
    for name, check in system.checks.items():
        params = _defaults(check)
        base, under_pack = check.odds(params), housed.check(name).odds(params)
        assert under_pack.exact == base.exact
        if under_pack.exact:
            assert all(isinstance(p, Fraction) for p in under_pack.probabilities.values())
            assert sum(under_pack.probabilities.values()) == 1


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_pack_never_leaks_into_the_base_rules_or_another_thread(system: RuleSystem):
    edited = _edited_cell(system)
    assert edited is not None
    housed = system.with_house(edited[0])
    before = {n: c.odds(_defaults(c)).probabilities for n, c in system.checks.items()}
    seen: dict[str, Any] = {}

    def base_in_another_thread() -> None:
        seen.update({n: c.odds(_defaults(c)).probabilities for n, c in system.checks.items()})

    for check in housed.checks.values():
        check.odds(_defaults(check))
        worker = threading.Thread(target=base_in_another_thread)
        worker.start()
        worker.join()
    assert seen == before
    assert {n: c.odds(_defaults(c)).probabilities for n, c in system.checks.items()} == before
    assert house.active() is None


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_pack_is_built_once_per_version(system: RuleSystem):
    document = house.template(system)

    assert system.with_house(document) is system.with_house(json.loads(json.dumps(document)))
    assert system.with_house(document).with_house(None) is get_system(system.key)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_bad_cell_is_named_by_table_row_and_column(system: RuleSystem):
    document = house.template(system)
    table = system.house.tables[0]
    column = next(c for c in table.columns if c.name != table.key and c.required)
    document["tables"][table.name][0][column.name] = {"not": "a value"}

    with pytest.raises(PackError) as caught:
        house.load(system, document)

    assert caught.value.table == table.name
    assert caught.value.row == 0
    assert caught.value.column == column.name
    assert str(caught.value).startswith(f"table {table.name}, row 1, column {column.name}: ")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(system="nonesuch"), "this pack is for"),
        (lambda d: d.update(format_version=2.0), "format_version"),
        (lambda d: d.update(format_version=True), "format_version"),
        (lambda d: d.update(extra=1), "unknown key"),
        (lambda d: d.update(tables=[]), "'tables' must be an object"),
        (lambda d: d["tables"].update(nonesuch=[]), "is not an editable table"),
    ],
)
def test_a_bad_pack_document_is_refused_with_one_line(change, words):
    system = SYSTEMS[0]
    document = house.template(system)
    change(document)

    with pytest.raises(PackError) as caught:
        house.load(system, document)

    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_keyed_rows_may_not_share_a_key_and_fixed_tables_keep_their_rows(system: RuleSystem):
    for table in system.house.tables:
        rows = house.template(system)["tables"][table.name]
        document = house.template(system)
        if table.key and not table.fixed_rows and len(rows) < table.max_rows:
            document["tables"][table.name] = [*rows, dict(rows[0])]
            with pytest.raises(PackError, match="is used by two rows"):
                house.load(system, document)
        if table.fixed_rows and len(rows) > 1:
            document["tables"][table.name] = rows[:-1]
            with pytest.raises(PackError, match="must keep its"):
                house.load(system, document)


def test_hostile_pack_text_is_refused_clearly():
    with pytest.raises(PackError, match="nested deeper"):
        house.parse_pack_json("[" * 3000 + "]" * 3000)
    with pytest.raises(PackError, match="not UTF-8"):
        house.parse_pack_json(b"\xff\xfe{}")
    with pytest.raises(PackError, match="not a number JSON allows"):
        house.parse_pack_json('{"x": NaN}')
    with pytest.raises(PackError, match="not valid JSON"):
        house.parse_pack_json("{")


def _first_number_cell(system: RuleSystem) -> tuple[str, str]:
    """The first numeric cell of the system's editable tables: (table, column)."""
    for table in system.house.tables:
        for column in table.columns:
            if column.kind in ("int", "number") and column.required:
                return table.name, column.name
    raise AssertionError(f"{system.key} has no numeric cell")


NOT_NUMBERS = ["10", "1_0", "\uff11\uff10", " 8 ", "8.0", "", True, False, [8], {"n": 8}]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
@pytest.mark.parametrize("raw", NOT_NUMBERS, ids=repr)
def test_a_number_cell_takes_a_json_number_only(system: RuleSystem, raw: Any):
    document = house.template(system)
    table, column = _first_number_cell(system)
    document["tables"][table][0][column] = raw

    with pytest.raises(PackError) as caught:
        house.load(system, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == (table, 0, column)
    assert str(caught.value) == (
        f"table {table}, row 1, column {column}: must be a number, not {raw!r}"
    )
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_number_cell_takes_a_whole_json_float_as_its_number(system: RuleSystem):
    document = house.template(system)
    table, column = _first_number_cell(system)
    value = document["tables"][table][0][column]
    document["tables"][table][0][column] = float(value)

    pack = house.load(system, document)

    assert pack.changed_tables() == ()
