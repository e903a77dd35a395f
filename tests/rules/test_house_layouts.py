"""The shared layouts an editable table declares (rules/house.py): rows read from a snapshot field,
and a pack's rows built back into it, with no converter written per table."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import pytest

from rules import house
from rules.house import Column, PackError
from rules.system import RuleSystem, all_systems

SYSTEMS = [system for system in all_systems() if system.house is not None]


def _tables(system: RuleSystem) -> list[house.EditableTable]:
    assert system.house is not None
    return list(system.house.tables)


@pytest.mark.parametrize("system", SYSTEMS, ids=[s.key for s in SYSTEMS])
def test_every_table_builds_the_texts_rows_back_into_the_texts_snapshot(system: RuleSystem):
    """Each field a table's rows build equals the field as the text has it (lookups included)."""
    base = system.snapshot
    for table in _tables(system):
        for name, value in table.build(table.rows()).items():
            assert value == getattr(base, name), (table.name, name)


@pytest.mark.parametrize("system", SYSTEMS, ids=[s.key for s in SYSTEMS])
def test_every_table_covers_the_snapshot_fields_it_builds_and_no_two_share_one(
    system: RuleSystem,
):
    names = {f.name for f in fields(system.snapshot)}
    seen: dict[str, str] = {}
    for table in _tables(system):
        for name in table.build(table.rows()):
            assert name in names, (table.name, name)
            assert name not in seen, f"{name} is built by {seen.get(name)} and {table.name}"
            seen[name] = table.name


# --- each layout on a small snapshot of its own ------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    key: str
    ranges: tuple[int, int]
    heavy: bool = False


@dataclass(frozen=True)
class Tables:
    weapons: dict[str, Weapon] = field(default_factory=dict)
    bands: tuple[tuple[int, str], ...] = ()
    to_hit: dict[str, int] = field(default_factory=dict)
    names: tuple[tuple[str, str], ...] = ()
    armoured: frozenset[str] = frozenset()
    shooting: dict[str, int] = field(default_factory=dict)
    hit_on: int = 0
    max_hits: int = 0


SNAPSHOT = Tables(
    weapons={"bow": Weapon("bow", (6, 12)), "gun": Weapon("gun", (8, 24), heavy=True)},
    bands=((2, "dead"), (6, "wounded")),
    to_hit={"short": 0, "long": -2},
    names=(("knights", "Knights"), ("lights", "Lights")),
    armoured=frozenset({"knights"}),
    shooting={"lights": -2},
    hit_on=6,
    max_hits=5,
)


def test_records_spread_a_tuple_field_over_columns_and_keep_unshown_defaults():
    layout = house.records("weapons", Weapon, spread={"ranges": ("short", "long")})

    rows = layout.read(SNAPSHOT)
    built = layout.build([{"key": "bow", "short": 4, "long": 10}])

    assert rows[1] == {"key": "gun", "short": 8, "long": 24, "heavy": True}
    assert built == {"weapons": {"bow": Weapon("bow", (4, 10))}}


def test_tuples_keyed_and_scalars_read_and_build_their_fields():
    bands = house.tuples("bands", ("up_to", "result"))
    to_hit = house.keyed("to_hit", "modifier", key="band")
    numbers = house.scalars({"hit_on": "hit_on"}, then=lambda f: {**f, "max_hits": 11})

    assert bands.read(SNAPSHOT) == [
        {"up_to": 2, "result": "dead"},
        {"up_to": 6, "result": "wounded"},
    ]
    assert bands.build(bands.read(SNAPSHOT)) == {"bands": SNAPSHOT.bands}
    assert to_hit.read(SNAPSHOT)[1] == {"band": "long", "modifier": -2}
    assert to_hit.build([{"band": "long", "modifier": -3}]) == {"to_hit": {"long": -3}}
    assert numbers.build([{"hit_on": 7}]) == {"hit_on": 7, "max_hits": 11}


def test_by_key_spreads_a_row_over_pairs_sets_and_an_optional_dict():
    layout = house.by_key(
        "key",
        "names",
        house.in_pairs("names", "name"),
        house.in_set("armoured", "armoured"),
        house.in_dict("shooting", "shooting", omit_empty=True),
    )

    rows = layout.read(SNAPSHOT)
    rows[1]["armoured"] = True
    built = layout.build(rows)

    assert rows[0] == {"key": "knights", "name": "Knights", "armoured": True, "shooting": None}
    assert built == {
        "names": SNAPSHOT.names,
        "armoured": frozenset({"knights", "lights"}),
        "shooting": {"lights": -2},
    }


def test_settings_rows_hold_one_number_each_under_value():
    layout = house.scalars({"hit_on": "hit_on", "max_hits": "max_hits"}, key="key")

    assert layout.read(SNAPSHOT) == [{"key": "hit_on", "value": 6}, {"key": "max_hits", "value": 5}]
    assert layout.build([{"key": "max_hits", "value": 9}]) == {"max_hits": 9}


def _refuse_long_bows(rows: list[house.Row]) -> None:
    for index, row in enumerate(rows):
        if row["long"] > 20:
            raise PackError("must be at most 20 for this club", row=index, column="long")


def test_an_editable_table_reads_its_rows_in_its_columns_order_and_names_itself_in_errors():
    table = house.editable(
        "weapons",
        "Weapons",
        (
            house.key_column(),
            Column("long", "int", min=1, max=99),
            Column("short", "int", min=1, max=99),
        ),
        house.records("weapons", Weapon, spread={"ranges": ("short", "long")}),
        base=SNAPSHOT,
        validate=_refuse_long_bows,
    )

    assert [list(row) for row in table.rows()] == [["key", "long", "short"]] * 2
    with pytest.raises(PackError) as refused:
        house._table_rows(table, [{"key": "bow", "short": 6, "long": 30}])
    assert (
        str(refused.value) == "table weapons, row 1, column long: must be at most 20 for this club"
    )
