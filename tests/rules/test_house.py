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
from rules.campaign import FigureRecord
from rules.dice import SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.simulate import SimFigure
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


# --- every editable cell is read by a check or a procedure, or says it is printed only -----


#: Seeded results per probe: enough that an effect row a probe reaches once in a while shows.
SEEDS = 24


def _signature(system: RuleSystem, probes: list[Any]) -> list[Any]:
    """What the probes' checks answer: exact odds and a seeded result, or the refusal."""
    answers: list[Any] = []
    for probe in probes:
        check = system.check(probe.check)
        try:
            params = check.params.validate(dict(probe.params))
        except ValidationError as exc:
            answers.append(("refused", str(exc)))
            continue
        odds = check.odds(params)
        seeded = [
            check.resolve(params, SeededDice(f"cell-{seed}", probe.check)).as_json()
            for seed in range(SEEDS)
        ]
        answers.append((odds.probabilities, json.dumps(seeded, sort_keys=True, default=str)))
    return answers


# What a table's cells reach beyond the checks: a figure's stats and starting state, its label,
# the auto-resolver and the campaign procedure, run under the pack (seeded where they roll).

#: Seeded auto-resolved battles per procedure probe: each is a whole battle, so fewer than SEEDS.
BATTLES = 4


def _validated(system: RuleSystem, stats: dict[str, Any]) -> Any:
    """A figure's stats as the system normalises them, or why it refuses them."""
    try:
        return system.stats.validate(stats)
    except ValidationError as exc:
        return ("refused", str(exc))


def _figure(system: RuleSystem, stats: dict[str, Any]) -> list[Any]:
    """A figure carrying the row: its stats, starting battle state and base label."""
    valid = _validated(system, stats)
    if isinstance(valid, tuple):
        return [valid]
    return [valid, system.initial_state(valid), system.label_text("Probe", valid)]


def _battles(system: RuleSystem, ours: dict[str, Any], theirs: dict[str, Any]) -> list[Any]:
    """Seeded auto-resolved battles of one figure (or unit) against another, event by event."""
    sides = [[SimFigure("a", "Ours", ours)], [SimFigure("b", "Theirs", theirs)]]
    assert system.simulate is not None
    fought = []
    for seed in range(BATTLES):
        try:
            result = system.simulate(sides, system.options.validate({}), SeededDice(f"b{seed}"))
        except ValidationError as exc:
            return [("refused", str(exc))]
        events = [(e.actor, e.target, e.resolution.as_json()) for e in result.events]
        fought.append((result.winner, json.dumps(events, sort_keys=True, default=str)))
    return fought


def _campaign(system: RuleSystem, options: dict[str, Any], **record: Any) -> list[Any]:
    """A figure's seeded post-battle procedure under the campaign options."""
    figure = FigureRecord(name="Probe", **record)
    rolls = system.post_battle(
        figure,
        system.options.validate(options),
        lambda procedure, index: SeededDice("campaign", f"{procedure}/{index}"),
    )
    return [json.dumps([roll.as_json() for roll in rolls], sort_keys=True, default=str)]


def _bayonet_probe(system: RuleSystem, row: dict[str, Any]) -> list[Any]:
    # Only a firearm that takes a bayonet lets a figure carry one.
    return _figure(system, {"weapons": [row["key"], "bayonet"]})


def _escarmouche_melee_probe(system: RuleSystem, row: dict[str, Any]) -> list[Any]:
    figure = {"rating": 3, "fighter": 1, "pike_trailer": 1, "melee": row["key"]}
    horseman = {"rating": 3, "rider": 1, "mounted": True}
    return [*_figure(system, figure), *_battles(system, figure, horseman)]


def _escarmouche_improvement_probe(system: RuleSystem, row: dict[str, Any]) -> list[Any]:
    stats = system.stats.validate({"rating": 2, "shooter": 1, "fighter": 1})
    options = {"house_campaign": True}
    return _campaign(system, options, stats=stats, skills_used=frozenset({"shooter", "fighter"}))


#: (system, table) -> the procedures a row of it reaches, beside its checks.
PROCEDURES: dict[tuple[str, str], Any] = {
    ("d12_skirmish", "firearms"): _bayonet_probe,
    ("escarmouche", "melee_weapons"): _escarmouche_melee_probe,
    ("escarmouche", "improvement"): _escarmouche_improvement_probe,
}


def _procedures(system: RuleSystem, table: Any, row: dict[str, Any]) -> list[Any]:
    probe = PROCEDURES.get((system.key, table.name))
    return probe(system, row) if probe else []


def _every_default_probe(system: RuleSystem) -> list[Any]:
    return [house.Probe(name, _defaults(check), name) for name, check in system.checks.items()]


def _probes(system: RuleSystem, table: Any, row: dict[str, Any]) -> list[Any]:
    return table.probes(row) if table.probes else _every_default_probe(system)


def _candidates(column: Any, value: Any) -> list[Any]:
    """Other values the cell may hold, nearest first."""
    if column.kind == "bool":
        return [not value]
    if column.kind == "choice":
        return [v for v, _ in column.choices if v != value]
    if column.kind == "text":
        return [f"{value}x"[: int(column.max or 120)] if value else "x"]
    if value is None:
        return [0, 1, -1]
    step = 0.5 if column.kind == "number" else 1
    nearby = [value + sign * step * n for n in (1, 2, 3, 6) for sign in (1, -1)]
    return [
        v
        for v in nearby
        if (column.min is None or v >= column.min) and (column.max is None or v <= column.max)
    ]


def _cells() -> list[Any]:
    cells = []
    for system in SYSTEMS:
        for table in system.house.tables:
            rows = house.template(system)["tables"][table.name]
            for index in sorted({0, len(rows) // 2, len(rows) - 1}):
                for column in table.columns:
                    cells.append(
                        pytest.param(
                            system,
                            table,
                            index,
                            column,
                            id=f"{system.key}-{table.name}-{index}-{column.name}",
                        )
                    )
    return cells


@pytest.mark.parametrize(("system", "table", "index", "column"), _cells())
def test_every_editable_cell_changes_a_check_or_says_it_is_printed_only(
    system: RuleSystem, table: Any, index: int, column: Any
):
    document = house.template(system)
    row = document["tables"][table.name][index]
    if table.sheet_only(row, column.name):
        return
    loaded = 0
    for candidate in _candidates(column, row[column.name]):
        edited = copy.deepcopy(document)
        edited_row = edited["tables"][table.name][index]
        edited_row[column.name] = candidate
        try:
            housed = system.with_house(edited)
        except PackError:
            continue
        loaded += 1
        # A row's key is how checks name it: the row's checks read the row by its new name
        # and no longer know the old one.
        was = housed if column.name == table.key else system
        before = [*_signature(was, _probes(was, table, row)), *_procedures(was, table, row)]
        after = [
            *_signature(housed, _probes(housed, table, edited_row)),
            *_procedures(housed, table, edited_row),
        ]
        if after != before:
            return
    if loaded == 0:
        # No pack takes this cell changed on its own (a fixed table's key, a band pinned by
        # its neighbours, a rule another row already names): there is no edit to honour.
        return
    pytest.fail(
        f"{system.key}: editing {table.name} row {index + 1} column {column.name} "
        f"({loaded} value(s) a pack takes) changes no check or probed procedure; read it in a "
        "check (or probe the procedure that reads it, PROCEDURES) or declare it sheet_only"
    )
