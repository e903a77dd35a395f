"""House rules as data: a club's pack of edited tables, validated and applied to a rule system.

Each system declares which of its tables a club may edit (`HouseSpec`): for each table, its
columns with their types and limits, and its layout: which field of the tables snapshot its rows
live in, and in what shape (`records`, `tuples`, `keyed`, `by_key`, `scalars`), from which the
rows as they stand are read and edited rows are built back into the snapshot's fields. A *pack*
is a JSON document naming the system and giving, for some of those tables, every row: a table in
the pack replaces the base table, so adding a row extends it and the template (every table as it
stands) changes nothing.

How checks follow a pack: a system's editable tables are one frozen snapshot
(`RuleSystem.snapshot`, a frozen dataclass whose fields the tables' `build` set), and its
checks, sheets, procedures and simulation are built from a snapshot (`HouseSpec.built_from`).
`RuleSystem.with_house(pack)` builds the pack's snapshot with `dataclasses.replace`, once per
pack digest, and the system from it: the tables are a value handed down, never looked up.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.system import RuleSystem

#: The pack document's format marker; a later, incompatible layout gets a new number.
FORMAT = "muster-house-rules"
FORMAT_VERSION = 1
#: Hostile packs stop here: no table may hold more rows, no text cell more characters.
MAX_ROWS = 200
MAX_TEXT = 120

ColumnKind = Literal["int", "number", "text", "choice", "bool"]
#: Why a name column changes no check: checks know a row by its key (`Column.sheet_only`).
NAMES_THE_ROW = "it names the row; checks know the row by its key"
F = TypeVar("F", bound=Callable[..., Any])


class PackError(RulesError):
    """A pack that cannot be applied; names the table, row and column where it can."""

    def __init__(
        self, message: str, *, table: str = "", row: int | None = None, column: str = ""
    ) -> None:
        self.table, self.row, self.column, self.reason = table, row, column, message
        where = []
        if table:
            where.append(f"table {table}")
        if row is not None:
            where.append(f"row {row + 1}")
        if column:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "row": self.row,
            "column": self.column,
            "message": self.reason,
            "detail": str(self),
        }


@dataclass(frozen=True)
class Column:
    """One typed column of an editable table.

    kinds: `int` and `number` (min..max; `number` takes halves and the like, e.g. reload 0.5
    turns), `text` (up to `max` characters, default MAX_TEXT), `choice` (one of `choices`),
    `bool`. `required=False` lets a cell be empty (`null`), e.g. a weapon with no damage
    modifier of its own.
    """

    name: str
    kind: ColumnKind
    label: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[tuple[Any, str], ...] = ()
    required: bool = True
    help: str = ""
    #: Why no check reads this column (it names the row, or the player applies it at the
    #: table); empty for a column some check reads. The editor and the sheet say so.
    sheet_only: str = ""

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def explained(self) -> str:
        """The help a person reads: what the column means, and whether only the sheet shows it."""
        if not self.sheet_only:
            return self.help
        note = f"Printed only: {self.sheet_only}."
        return f"{self.help}. {note}" if self.help else note

    def normalise(self, raw: Any) -> Any:
        """Return the cell in its canonical type or raise ValueError with the reason."""
        if self.kind in ("int", "number") and raw is not None:
            return self._number(raw)
        if raw is None or (isinstance(raw, str) and not raw.strip() and self.kind != "text"):
            if self.required:
                raise ValueError("must be filled in")
            return None
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            raise ValueError(f"must be true or false, not {raw!r}")
        if self.kind == "choice":
            for value, _ in self.choices:
                if raw == value and type(raw) is type(value):
                    return value
            allowed = ", ".join(str(v) for v, _ in self.choices)
            raise ValueError(f"must be one of {allowed}, not {raw!r}")
        if not isinstance(raw, str):
            raise ValueError("must be text")
        text = raw.strip()
        if not text and self.required:
            raise ValueError("must be filled in")
        limit = int(self.max) if self.max is not None else MAX_TEXT
        if len(text) > limit:
            raise ValueError(f"must be at most {limit} characters")
        if any(ord(ch) < 32 for ch in text):
            raise ValueError("must not hold control characters")
        return text

    def _number(self, raw: Any) -> int | float:
        # Packs are read strictly: a JSON number only. Text such as "10", "1_0", full-width
        # digits or " 8 " is refused rather than guessed at (int() would take all of them), and
        # so is a boolean (JSON true is not 1). The web editor parses its own form text first.
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise ValueError(f"must be a number, not {raw!r}")
        if isinstance(raw, float) and not math.isfinite(raw):
            raise ValueError("must be a finite number")
        if self.kind == "int":
            if isinstance(raw, float) and not raw.is_integer():
                raise ValueError(f"must be a whole number, not {raw!r}")
            value: int | float = int(raw)
        else:
            value = int(raw) if float(raw).is_integer() else float(raw)
            if isinstance(value, float) and (value * 2) != int(value * 2):
                raise ValueError(f"must be a whole number or a half, not {raw!r}")
        if self.min is not None and value < self.min:
            raise ValueError(f"must be at least {_plain(self.min)}, not {_plain(value)}")
        if self.max is not None and value > self.max:
            raise ValueError(f"must be at most {_plain(self.max)}, not {_plain(value)}")
        return value

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "label": self.title,
            "min": self.min,
            "max": self.max,
            "choices": [[value, label] for value, label in self.choices],
            "required": self.required,
            "help": self.help,
            "sheet_only": self.sheet_only,
        }


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


Row = dict[str, Any]


@dataclass(frozen=True)
class Probe:
    """A check and parameters whose odds show what an edit to one row does."""

    check: str
    params: Mapping[str, Any]
    label: str


@dataclass(frozen=True)
class EditableTable:
    """One table a club may edit, with the limits its system sets.

    `rows()` gives the rows as they stand in the base rules (read from the text's snapshot,
    `BASE`); `build(rows)` turns validated rows into the fields of the system's tables snapshot
    they replace, as `{FIELD_NAME: value}`. `key` names the column that identifies a
    row (unique, and how checks refer to it, e.g. a weapon's key); None for a table whose rows
    are identified by position. `fixed_rows` forbids adding or removing rows (a table of
    thresholds, one per result). `validate(rows)` checks what spans rows (thresholds in order)
    and raises PackError. `probes(row)` names the checks whose odds an edit to the row changes.
    `sheet_only_cells(row, column)` says why no check reads that cell of the row (a modifier the
    player adds up himself), or "" when one does; with the columns' own `sheet_only`,
    `sheet_only(row, column)` tells which cells only the sheet prints (tests/rules/test_house.py
    holds every other cell to changing some check).
    """

    name: str
    title: str
    columns: tuple[Column, ...]
    rows: Callable[[], list[Row]]
    build: Callable[[list[Row]], dict[str, Any]]
    key: str | None = "key"
    fixed_rows: bool = False
    min_rows: int = 1
    max_rows: int = MAX_ROWS
    help: str = ""
    validate: Callable[[list[Row]], None] | None = None
    probes: Callable[[Row], list[Probe]] | None = None
    sheet_only_cells: Callable[[Row, str], str] | None = None

    def sheet_only(self, row: Row, column: str) -> str:
        """Why no check reads this cell, or "" when one does."""
        reason = self.column(column).sheet_only
        if not reason and self.sheet_only_cells is not None:
            reason = self.sheet_only_cells(row, column)
        return reason

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(name)

    def row_label(self, row: Row, index: int) -> str:
        """How the row is named to a person: its key, else its position."""
        if self.key and row.get(self.key) is not None:
            return str(row[self.key])
        return f"row {index + 1}"

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "help": self.help,
            "key": self.key,
            "fixed_rows": self.fixed_rows,
            "min_rows": self.min_rows,
            "max_rows": self.max_rows,
            "columns": [column.as_json() for column in self.columns],
        }


@dataclass(frozen=True)
class HouseSpec:
    """What a system lets a club edit: its editable tables and how the system is built from them.

    A table's `build` returns fields of the system's tables snapshot (`RuleSystem.snapshot`);
    `module` (the system's tables module) groups them in the pack. `built_from(snapshot,
    changed)` returns the RuleSystem fields that read the tables (checks, stats, reference
    tables, procedures, simulation), built from a pack's snapshot and the names of the tables
    it changes (which a system's reference tables may list), once per pack.
    """

    module: str
    tables: tuple[EditableTable, ...]
    built_from: Callable[[Any, tuple[str, ...]], dict[str, Any]]

    def table(self, name: str) -> EditableTable:
        for table in self.tables:
            if table.name == name:
                return table
        known = ", ".join(t.name for t in self.tables)
        raise PackError(f"is not an editable table; the editable tables are {known}", table=name)

    def as_json(self) -> dict[str, Any]:
        return {"tables": [table.as_json() for table in self.tables]}


@dataclass(frozen=True, eq=False)
class Pack:
    """A validated pack: the normalised rows of each table it sets, and the values built from them.

    `digest` identifies the pack's content (equal packs share their built tables and caches);
    `values` maps (module, field name) to the value a snapshot built for this pack holds.
    """

    system: str
    tables: Mapping[str, list[Row]]
    digest: str
    values: Mapping[tuple[str, str], Any] = field(repr=False)
    name: str = ""
    #: `values` by module, then field name: what `RuleSystem.with_house` replaces in a snapshot.
    by_module: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        grouped: dict[str, dict[str, Any]] = {}
        for (module, name), value in self.values.items():
            grouped.setdefault(module, {})[name] = value
        object.__setattr__(self, "by_module", grouped)

    def as_json(self) -> dict[str, Any]:
        return pack_document(self.system, self.tables, name=self.name)

    def changed_tables(self) -> tuple[str, ...]:
        """The tables whose rows differ from the base rules (the ones to mark as house rules)."""
        from rules.system import get_system

        spec = _spec(get_system(self.system))
        return tuple(
            name for name, rows in self.tables.items() if rows != _base_rows(spec.table(name))
        )


# --- where a table's rows live in the snapshot ---------------------------------------------------

#: Turns the fields a layout built into the fields a pack replaces: for a snapshot that keeps
#: lookups built with a table (weapons by key, a rally's Hits by face).
Then = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Layout:
    """Where an editable table's rows live in a tables snapshot: `read(snapshot)` gives its rows,
    `build(rows)` the snapshot fields that validated rows replace ({FIELD_NAME: value}). Made by
    `records`, `tuples`, `by_key` and `scalars` from the field's shape, so no table converts its
    own rows; `editable` makes the table."""

    read: Callable[[Any], list[Row]]
    build: Callable[[list[Row]], dict[str, Any]]


def _made(then: Then | None, built: dict[str, Any]) -> dict[str, Any]:
    return then(built) if then is not None else built


def records(
    field: str,
    record: Callable[..., Any],
    *,
    keyed: bool = True,
    spread: Mapping[str, tuple[str, ...]] | None = None,
    then: Then | None = None,
) -> Layout:
    """Records (frozen dataclasses), a row each and a column per field: `field` holds {key:
    record} (`keyed`: a weapons table) or a tuple of them. `spread` gives a tuple field's columns
    (range bands); a field with no column keeps its default."""
    names = [f.name for f in dataclasses.fields(record)]  # type: ignore[arg-type]  # a dataclass
    spread = spread or {}

    def cells(item: Any) -> Row:
        row: Row = {}
        for name in names:
            value = getattr(item, name)
            row.update(zip(spread[name], value, strict=True) if name in spread else {name: value})
        return row

    def make(row: Row) -> Any:
        values = {name: row[name] for name in names if name in row}
        return record(**values, **{n: tuple(row[c] for c in cs) for n, cs in spread.items()})

    def build(rows: list[Row]) -> dict[str, Any]:
        made = [make(row) for row in rows]
        return _made(then, {field: {r.key: r for r in made} if keyed else tuple(made)})

    def read(snapshot: Any) -> list[Row]:
        value = getattr(snapshot, field)
        return [cells(item) for item in (value.values() if keyed else value)]

    return Layout(read, build)


def tuples(field: str, cells: tuple[str, ...], *, then: Then | None = None) -> Layout:
    """A tuple of plain tuples, a row each, its cells in `cells` order (a band list)."""

    def build(rows: list[Row]) -> dict[str, Any]:
        return _made(then, {field: tuple(tuple(row[c] for c in cells) for row in rows)})

    return Layout(lambda s: [dict(zip(cells, i, strict=True)) for i in getattr(s, field)], build)


@dataclass(frozen=True)
class Stored:
    """Where columns of a `by_key` table live: a {key: value} field (a tuple for several
    columns; `omit_empty` leaves out empty cells), (key, value) pairs (`in_pairs`), or the set of
    keys whose cell is true (`in_set`)."""

    field: str
    columns: tuple[str, ...]
    shape: Literal["dict", "pairs", "set"] = "dict"
    omit_empty: bool = False

    def read(self, snapshot: Any, key: Any) -> Row:
        value = getattr(snapshot, self.field)
        if self.shape == "set":
            return {self.columns[0]: key in value}
        found: Any = (
            dict(value).get(key) if self.omit_empty or self.shape == "pairs" else value[key]
        )
        one = len(self.columns) == 1
        return {self.columns[0]: found} if one else dict(zip(self.columns, found, strict=True))

    def build(self, rows: list[Row], key: str) -> Any:
        if self.shape == "set":
            return frozenset(row[key] for row in rows if row[self.columns[0]])
        one = len(self.columns) == 1
        pairs = [
            (r[key], r[self.columns[0]] if one else tuple(r[c] for c in self.columns)) for r in rows
        ]
        if self.omit_empty:
            pairs = [(name, value) for name, value in pairs if value is not None]
        return tuple(pairs) if self.shape == "pairs" else dict(pairs)


def in_dict(field: str, *columns: str, omit_empty: bool = False) -> Stored:
    return Stored(field, columns, omit_empty=omit_empty)


def in_pairs(field: str, column: str) -> Stored:
    return Stored(field, (column,), "pairs")


def in_set(field: str, column: str) -> Stored:
    return Stored(field, (column,), "set")


def by_key(
    key: str, keys: str | Sequence[Any], *stores: Stored, then: Then | None = None
) -> Layout:
    """Columns kept in fields keyed alike (a firearm's ranges in one {key: ranges} field, its
    name in another, its bayonet in a set). `keys`, the rows' keys in order: a field of the
    snapshot ({key: ...} or (key, name) pairs), or the keys themselves."""

    def read(snapshot: Any) -> list[Row]:
        names = getattr(snapshot, keys) if isinstance(keys, str) else keys
        names = [n[0] if isinstance(n, tuple) else n for n in names]
        return [
            {key: n, **{c: v for s in stores for c, v in s.read(snapshot, n).items()}}
            for n in names
        ]

    def build(rows: list[Row]) -> dict[str, Any]:
        return _made(then, {stored.field: stored.build(rows, key) for stored in stores})

    return Layout(read, build)


def keyed(field: str, *columns: str, key: str = "key") -> Layout:
    """A {key: value} field, or {key: (values...)} for several columns (a range's to-hit,
    shields)."""
    return by_key(key, field, in_dict(field, *columns))


def scalars(fields: Mapping[str, str], *, key: str = "", then: Then | None = None) -> Layout:
    """Single numbers, each a snapshot field (`fields`: column, or row key, to field name): one
    row with a column each, or with `key` (its column) a row each, the number under "value"."""

    def read(snapshot: Any) -> list[Row]:
        if not key:
            return [{column: getattr(snapshot, name) for column, name in fields.items()}]
        return [{key: row, "value": getattr(snapshot, name)} for row, name in fields.items()]

    def build(rows: list[Row]) -> dict[str, Any]:
        if not key:
            return _made(then, {name: rows[0][column] for column, name in fields.items()})
        return _made(then, {fields[row[key]]: row["value"] for row in rows})

    return Layout(read, build)


def editable(
    name: str, title: str, columns: Sequence[Column], layout: Layout, *, base: Any, **options: Any
) -> EditableTable:
    """A table whose rows its layout reads from the text's snapshot `base` (in its columns'
    order) and builds back into a snapshot's fields; `options` are `EditableTable`'s."""
    names = [column.name for column in columns]

    def rows() -> list[Row]:
        return [{column: row[column] for column in names} for row in layout.read(base)]

    return EditableTable(name, title, tuple(columns), rows, layout.build, **options)


def key_column(
    label: str = "Key", *, max: int = 40, help: str = "How checks and rosters name it"
) -> Column:
    """The column naming a row as checks and rosters do (letters, digits, '_' and '-')."""
    return Column("key", "text", label, max=max, help=help)


def modifier_column(low: int, high: int, label: str = "Modifier", *, help: str = "") -> Column:
    """A modifier list's number: added to a roll, from `low` to `high`."""
    return Column("modifier", "int", label, min=low, max=high, help=help)


def name_column(name: str = "name", label: str = "Name", *, max: int = 60) -> Column:
    """The column a person reads a row by: printed only, as checks know the row by its key."""
    return Column(name, "text", label, max=max, sheet_only=NAMES_THE_ROW)


def pack_document(
    system: str, tables: Mapping[str, list[Row]], *, name: str = ""
) -> dict[str, Any]:
    """The pack as the JSON document a club keeps, exports and imports."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "system": system,
    }
    if name:
        document["name"] = name
    document["tables"] = {table: [dict(row) for row in rows] for table, rows in tables.items()}
    return document


__all__ = [
    "Change",
    "Column",
    "Comparison",
    "EditableTable",
    "HouseSpec",
    "Pack",
    "PackError",
    "Probe",
    "compare",
    "diff",
    "effective_rows",
    "load",
    "parse_pack_json",
    "read_pack_file",
    "template",
]


# --- reading and checking a pack -------------------------------------------------------------


def _spec(system: RuleSystem) -> HouseSpec:
    spec = system.house
    if spec is None:
        raise PackError(f"{system.name} has no editable tables")
    return spec


def _base_rows(table: EditableTable) -> list[Row]:
    return [dict(row) for row in table.rows()]


def template(system: RuleSystem) -> dict[str, Any]:
    """A pack holding every editable table of the system as it stands (applying it changes
    nothing)."""
    spec = _spec(system)
    return pack_document(system.key, {table.name: _base_rows(table) for table in spec.tables})


def load(system: RuleSystem, document: Any) -> Pack:
    """Validate a pack document for `system` and return the pack, or raise PackError."""
    if isinstance(document, Pack):
        return document
    if not isinstance(document, Mapping):
        raise PackError("a house-rules pack must be a JSON object")
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=True, allow_nan=False)
    return _load_canonical(system.key, canonical)


@lru_cache(maxsize=64)
def _load_canonical(system_key: str, canonical: str) -> Pack:
    from rules.system import get_system

    system = get_system(system_key)
    spec = _spec(system)
    document = json.loads(canonical)
    _check_header(system, document)
    tables = document.get("tables", {})
    if not isinstance(tables, Mapping):
        raise PackError("'tables' must be an object mapping each table's name to its rows")
    rows_by_table: dict[str, list[Row]] = {}
    for name in tables:
        table = spec.table(name)
        rows_by_table[name] = _table_rows(table, tables[name])
    ordered = {t.name: rows_by_table[t.name] for t in spec.tables if t.name in rows_by_table}
    import hashlib  # here, not at the top: a cold `odds` call imports this module, not packs

    digest = hashlib.sha256(json.dumps([system.key, ordered], sort_keys=True).encode()).hexdigest()[
        :16
    ]
    values: dict[tuple[str, str], Any] = {}
    for name, rows in ordered.items():
        try:
            built = spec.table(name).build(rows)
        except PackError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise PackError(f"cannot be used: {exc}", table=name) from None
        for field_name, value in built.items():
            values[(spec.module, field_name)] = value
    name = document.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise PackError(f"'name' must be text of at most {MAX_TEXT} characters")
    return Pack(system.key, ordered, digest, values, name.strip())


def _check_header(system: RuleSystem, document: Mapping[str, Any]) -> None:
    known = {"format", "format_version", "system", "name", "tables"}
    unknown = sorted(set(document) - known)
    if unknown:
        raise PackError(f"unknown key {unknown[0]!r}; a pack has {', '.join(sorted(known))}")
    if document.get("format", FORMAT) != FORMAT:
        raise PackError(f"'format' must be {FORMAT!r}")
    version = document.get("format_version", FORMAT_VERSION)
    if type(version) is not int or version != FORMAT_VERSION:
        raise PackError(f"'format_version' must be {FORMAT_VERSION}, not {version!r}")
    if document.get("system", system.key) != system.key:
        raise PackError(f"this pack is for {document.get('system')!r}, not {system.key!r}")


def _table_rows(table: EditableTable, raw: Any) -> list[Row]:
    if not isinstance(raw, list):
        raise PackError("must be a list of rows", table=table.name)
    if len(raw) > min(table.max_rows, MAX_ROWS):
        raise PackError(f"may hold at most {min(table.max_rows, MAX_ROWS)} rows", table=table.name)
    if len(raw) < table.min_rows:
        raise PackError(f"must hold at least {table.min_rows} row(s)", table=table.name)
    rows = [_row(table, index, cells) for index, cells in enumerate(raw)]
    if table.key:
        seen: set[Any] = set()
        for index, row in enumerate(rows):
            if row[table.key] in seen:
                raise PackError(
                    f"{row[table.key]!r} is used by two rows",
                    table=table.name,
                    row=index,
                    column=table.key,
                )
            seen.add(row[table.key])
    if table.fixed_rows:
        _check_fixed(table, rows)
    if table.validate is not None:
        try:
            table.validate(rows)
        except PackError as exc:
            if exc.table:
                raise
            # A table's own checks name the row and column; the table is the one being read.
            raise PackError(exc.reason, table=table.name, row=exc.row, column=exc.column) from None
    return rows


def _row(table: EditableTable, index: int, cells: Any) -> Row:
    if not isinstance(cells, Mapping):
        raise PackError("must be an object of column: value", table=table.name, row=index)
    names = {column.name for column in table.columns}
    for name in cells:
        if name not in names:
            raise PackError(
                f"is not a column; the columns are {', '.join(c.name for c in table.columns)}",
                table=table.name,
                row=index,
                column=str(name),
            )
    row: Row = {}
    for column in table.columns:
        try:
            row[column.name] = column.normalise(cells.get(column.name))
        except ValueError as exc:
            raise PackError(str(exc), table=table.name, row=index, column=column.name) from None
    if table.key:
        _check_key(table, index, row[table.key])
    return row


def _check_key(table: EditableTable, index: int, key: Any) -> None:
    if isinstance(key, str) and not all(ch.isalnum() or ch in "_-" for ch in key):
        raise PackError(
            "may hold only letters, digits, '_' and '-'",
            table=table.name,
            row=index,
            column=table.key or "",
        )


def _check_fixed(table: EditableTable, rows: list[Row]) -> None:
    base = _base_rows(table)
    if len(rows) != len(base):
        raise PackError(
            f"must keep its {len(base)} rows (rows cannot be added or removed)", table=table.name
        )
    if table.key:
        for index, (row, was) in enumerate(zip(rows, base, strict=True)):
            if row[table.key] != was[table.key]:
                raise PackError(
                    f"must be {was[table.key]!r} (rows cannot be renamed or reordered)",
                    table=table.name,
                    row=index,
                    column=table.key,
                )


# --- what a pack changes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One difference between two packs: a cell edited, a row added or removed."""

    table: str
    row: str
    kind: Literal["edited", "added", "removed"]
    column: str = ""
    before: Any = None
    after: Any = None

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "row": self.row,
            "kind": self.kind,
            "column": self.column,
            "before": self.before,
            "after": self.after,
        }

    def sentence(self, spec: HouseSpec) -> str:
        table = spec.table(self.table)
        if self.kind == "added":
            return f"{table.title}: added {self.row}"
        if self.kind == "removed":
            return f"{table.title}: removed {self.row}"
        column = table.column(self.column).title
        return f"{table.title}, {self.row}: {column} {_cell(self.before)} → {_cell(self.after)}"


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return _plain(value)
    return str(value)


def effective_rows(system: RuleSystem, pack: Pack | None) -> dict[str, list[Row]]:
    """Every editable table's rows under `pack` (the base rows for tables it does not set)."""
    spec = _spec(system)
    tables = pack.tables if pack is not None else {}
    return {t.name: [dict(r) for r in tables.get(t.name) or _base_rows(t)] for t in spec.tables}


def diff(system: RuleSystem, before: Pack | None, after: Pack | None) -> list[Change]:
    """What changes from `before` to `after` (None: the base rules), table by table."""
    spec = _spec(system)
    old, new = effective_rows(system, before), effective_rows(system, after)
    changes: list[Change] = []
    for table in spec.tables:
        changes.extend(_table_diff(table, old[table.name], new[table.name]))
    return changes


def _keyed(table: EditableTable, rows: Sequence[Row]) -> dict[str, Row]:
    return {table.row_label(row, index): row for index, row in enumerate(rows)}


def _table_diff(table: EditableTable, old: list[Row], new: list[Row]) -> Iterator[Change]:
    before, after = _keyed(table, old), _keyed(table, new)
    for label, row in after.items():
        was = before.get(label)
        if was is None:
            yield Change(table.name, label, "added")
            continue
        for column in table.columns:
            if was.get(column.name) != row.get(column.name):
                yield Change(
                    table.name,
                    label,
                    "edited",
                    column.name,
                    was.get(column.name),
                    row.get(column.name),
                )
    for label in before:
        if label not in after:
            yield Change(table.name, label, "removed")


@dataclass(frozen=True)
class Comparison:
    """A probe's odds before and after an edit; `before` is None where the check did not exist."""

    probe: Probe
    before: Mapping[str, Any] | None
    after: Mapping[str, Any] | None

    def as_json(self) -> dict[str, Any]:
        return {
            "label": self.probe.label,
            "check": self.probe.check,
            "params": dict(self.probe.params),
            "before": dict(self.before) if self.before is not None else None,
            "after": dict(self.after) if self.after is not None else None,
        }


def compare(
    system: RuleSystem, before: Pack | None, after: Pack | None, *, limit: int = 24
) -> list[Comparison]:
    """The odds of the checks an edit touches, before and after, computed exactly by the engine.

    For each changed row, its table's probes name checks and parameters; each is priced under
    both packs. A probe the old rules cannot take (a weapon just added) has `before` None.
    """
    spec = _spec(system)
    old_rows, new_rows = effective_rows(system, before), effective_rows(system, after)
    probes: list[Probe] = []
    for change in diff(system, before, after):
        table = spec.table(change.table)
        if table.probes is None:
            continue
        rows = _keyed(table, new_rows[table.name]) | {}
        row = rows.get(change.row) or _keyed(table, old_rows[table.name]).get(change.row)
        for probe in table.probes(dict(row or {})):
            if probe not in probes:
                probes.append(probe)
    housed_before = system.with_house(before)
    housed_after = system.with_house(after)
    return [
        Comparison(probe, _odds(housed_before, probe), _odds(housed_after, probe))
        for probe in probes[:limit]
    ]


def _odds(system: RuleSystem, probe: Probe) -> Mapping[str, Any] | None:
    try:
        odds = system.check(probe.check).odds(probe.params)
    except RulesError:
        return None
    return odds.probabilities


def read_pack_file(path: str, max_bytes: int) -> Any:
    """Read a pack's JSON from a file (`-`: stdin), refusing what is not one: one clear error."""
    import sys

    try:
        if path == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise PackError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise PackError(f"{path} is larger than {max_bytes // 1000} kB: not a house-rules pack")
    return parse_pack_json(data, source=path)


def parse_pack_json(data: bytes | str, *, source: str = "the pack") -> Any:
    """Parse a pack's JSON text strictly: UTF-8, no NaN, no nesting deeper than a pack has."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise PackError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    if _depth(data) > 8:
        raise PackError(f"{source} is nested deeper than a house-rules pack can be")

    def refuse(constant: str) -> Any:
        raise PackError(f"{source} holds {constant}, which is not a number JSON allows")

    def finite(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):  # 1e400 parses as infinity
            raise PackError(f"{source} holds {text[:40]}, too large a number for any table")
        return value

    try:
        document = json.loads(data, parse_constant=refuse, parse_float=finite)
    except json.JSONDecodeError as exc:
        raise PackError(f"{source} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    _refuse_unencodable(document, source)
    return document


def _refuse_unencodable(document: Any, source: str) -> None:
    """A lone surrogate ("\\ud800") parses into a str no file, page or database can hold."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                problem = "holds an unpaired surrogate, which is not text"
                raise PackError(f"{source} {problem}") from None
            if "\x00" in value:
                raise PackError(f"{source} holds a NUL character, which is not text")


def _depth(text: str) -> int:
    """The deepest bracket nesting in JSON text, counted without parsing (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
