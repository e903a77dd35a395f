"""The typed-row editor of a campaign's house rules, shared by the organiser's page and the admin.

Each editable table of the campaign's system (`rules.house.EditableTable`) is drawn as rows of
typed inputs made from its columns: a number input with the column's limits, a select for a
choice, a checkbox for a flag, a text input with its length cap. Never a JSON box: the engine
states every limit once, and the form follows it.

What the browser sends is read back into a pack document (`read_submission`), validated by the
rules engine, and either previewed (the exact odds before and after, the changes in sentences)
or saved as the campaign's next version (`editor_post`). A bad cell comes back as the engine's
`PackError`, which names the table, row and column: the editor draws that message on that cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.http import QueryDict

from campaigns.models import Campaign, HouseRules
from campaigns.services.house_rules import (
    NOTE_MAX,
    house_rules_changes,
    house_rules_check,
    house_rules_current,
    house_rules_preview,
    house_rules_save,
    pack_of,
)
from common.users import Visitor
from rules import house
from rules.house import Column, Comparison, EditableTable, HouseSpec, Pack, PackError, Row
from rules.narrate import humanise, outcome_label
from rules.system import RuleSystem, get_system

#: Form field names: `t-<table>-<row>-<column>`, `t-<table>-<row>-remove`, `t-<table>-rows`.
PREFIX = "t"


def cell_name(table: str, index: int, column: str) -> str:
    return f"{PREFIX}-{table}-{index}-{column}"


def remove_name(table: str, index: int) -> str:
    return f"{PREFIX}-{table}-{index}-remove"


def rows_name(table: str) -> str:
    return f"{PREFIX}-{table}-rows"


def add_name(table: str) -> str:
    """The name of a table's "Add a row" button (one name per table, so each is its own button)."""
    return f"add-{table}"


# --- what the template draws ----------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class Cell:
    """One input of the editor: a column of one row."""

    name: str
    id: str
    widget: Literal["number", "select", "checkbox", "text", "fixed"]
    label: str
    value: str
    checked: bool
    options: tuple[Option, ...]
    min: str | None
    max: str | None
    step: str
    maxlength: int | None
    width: str
    error: str
    #: The cell differs from the version the campaign plays (shown after a preview).
    changed: bool = False
    #: The cell the engine refused: the browser puts the cursor (and the screen) there.
    focus: bool = False
    #: A fixed row's key as words ("armour or packs"); the form still sends the key itself.
    words: str = ""

    @property
    def error_id(self) -> str:
        return f"{self.id}-error"


@dataclass(frozen=True)
class Heading:
    """A column's heading, with the help that says what it means."""

    title: str
    help: str
    kind: str


@dataclass(frozen=True)
class EditorRow:
    index: int
    label: str
    cells: tuple[Cell, ...]
    #: The remove checkbox's name ("" in a table whose rows are fixed).
    remove: str
    removed: bool
    new: bool
    error: str


@dataclass(frozen=True)
class EditorTable:
    name: str
    title: str
    help: str
    headings: tuple[Heading, ...]
    rows: tuple[EditorRow, ...]
    fixed_rows: bool
    count_name: str
    add: str
    #: The table differs from the rules as written (marked as a house rule).
    house: bool
    open: bool
    error: str

    @property
    def id(self) -> str:
        return f"table-{self.name}"

    @property
    def row_count(self) -> int:
        return sum(1 for row in self.rows if not row.new)

    @property
    def column_help(self) -> tuple[Heading, ...]:
        return tuple(h for h in self.headings if h.help)


@dataclass(frozen=True)
class Editor:
    tables: tuple[EditorTable, ...]
    #: The engine's complaint, in words, and the id of the cell it is about ("" if none).
    error: str = ""
    error_cell: str = ""
    note: str = ""
    #: The version the form was filled from (0: the rules as written): a save checks that
    #: nobody saved another meanwhile, which the form would silently undo.
    based_on: int = 0


# --- reading what the browser sent ------------------------------------------------------------


@dataclass(frozen=True)
class SubmittedRow:
    """One row of the form as typed: raw strings (a flag as a bool), and whether it is kept."""

    raw: Mapping[str, Any]
    removed: bool = False

    @property
    def blank(self) -> bool:
        """Nothing typed in: the row to fill that the form always offers, left empty."""
        return all(value in ("", False) for value in self.raw.values())


@dataclass(frozen=True)
class Submission:
    """Every row the form sent, table by table; `document()` is the pack they make."""

    system: RuleSystem
    rows: Mapping[str, tuple[SubmittedRow, ...]]
    note: str = ""
    #: The version the form was filled from, if it said (None: not sent).
    based_on: int | None = None

    def kept(self, table: str) -> list[SubmittedRow]:
        """The rows of `table` that go into the pack, in order: the pack's row numbers."""
        return [row for row in self.rows.get(table, ()) if not row.removed and not row.blank]

    def document(self) -> dict[str, Any]:
        spec = _spec(self.system)
        tables = {
            t.name: [_typed_row(t, row.raw) for row in self.kept(t.name)]
            for t in spec.tables
            if t.name in self.rows
        }
        return house.pack_document(self.system.key, tables)


def read_submission(system: RuleSystem, data: QueryDict) -> Submission:
    """Read the editor's rows from a POST; a table the form did not send is left out."""
    spec = _spec(system)
    rows: dict[str, tuple[SubmittedRow, ...]] = {}
    for table in spec.tables:
        count = _count(data.get(rows_name(table.name)))
        if count is None:
            continue
        rows[table.name] = tuple(_submitted_row(table, data, i) for i in range(count))
    note = (data.get("note") or "").strip()[:NOTE_MAX]
    return Submission(system, rows, note, _count(data.get("based_on")))


def _count(raw: str | None) -> int | None:
    try:
        count = int(raw or "")
    except ValueError:
        return None
    # A few more than a table may hold: the blank rows to fill are drawn too.
    return max(0, min(count, house.MAX_ROWS + 10))


def _submitted_row(table: EditableTable, data: QueryDict, index: int) -> SubmittedRow:
    raw: dict[str, Any] = {}
    for column in table.columns:
        name = cell_name(table.name, index, column.name)
        if column.kind == "bool":
            raw[column.name] = data.get(name) in ("true", "on", "1")
        else:
            raw[column.name] = (data.get(name) or "").strip()
    removed = not table.fixed_rows and data.get(remove_name(table.name, index)) in ("true", "on")
    return SubmittedRow(raw, removed)


def _typed_row(table: EditableTable, raw: Mapping[str, Any]) -> Row:
    return {column.name: _typed(column, raw.get(column.name)) for column in table.columns}


def _typed(column: Column, raw: Any) -> Any:
    """A cell as the engine reads it: the choice's own value, None for an empty cell, a number
    for a number input's decimal text.

    The engine reads packs strictly (a JSON number only), so the form turns what a number input
    sends into a number here; anything else stays text, and the engine says "must be a number,
    not 'x'".
    """
    if column.kind == "bool":
        return bool(raw)
    if raw is None or raw == "":
        return None
    if column.kind == "choice":
        for value, _ in column.choices:
            if _text(value) == raw:
                return value
    if column.kind in ("int", "number") and isinstance(raw, str):
        return _decimal(raw)
    return raw


#: What a browser's number input sends: ASCII digits, a sign, at most one decimal point.
DECIMAL = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?", re.ASCII)


def _decimal(text: str) -> int | float | str:
    stripped = text.strip()
    if not DECIMAL.fullmatch(stripped):
        return text
    return float(stripped) if "." in stripped else int(stripped)


# --- drawing the editor -----------------------------------------------------------------------


def editor_from_rows(
    system: RuleSystem,
    rows: Mapping[str, Sequence[Row]],
    *,
    house_tables: Sequence[str] = (),
    open_tables: Sequence[str] = (),
    note: str = "",
    based_on: int = 0,
) -> Editor:
    """The editor holding `rows` (each table's rows as the engine holds them)."""
    spec = _spec(system)
    drawn = tuple(
        _table(
            table,
            _as_sent(table, rows.get(table.name, ())),
            blanks=1,
            house=table.name in house_tables,
            open_=table.name in open_tables or len(spec.tables) == 1,
        )
        for table in spec.tables
    )
    return Editor(drawn, note=note, based_on=based_on)


def _as_sent(table: EditableTable, rows: Sequence[Row]) -> list[SubmittedRow]:
    return [
        SubmittedRow({c.name: _shown(c, row.get(c.name)) for c in table.columns}) for row in rows
    ]


def editor_from_submission(
    submission: Submission,
    *,
    error: PackError | None = None,
    add: str = "",
    house_tables: Sequence[str] = (),
    open_tables: Sequence[str] = (),
    current: Mapping[str, Sequence[Row]] | None = None,
    based_on: int | None = None,
) -> Editor:
    """The editor as the browser sent it (a bad cell keeps what was typed), with the engine's
    complaint on its cell and, for `add`, one more blank row in that table. With `current` (the
    rows the campaign plays now), the cells an edit changes are marked."""
    spec = _spec(submission.system)
    drawn, message, cell = [], "", ""
    for table in spec.tables:
        sent = submission.rows.get(table.name)
        if sent is None:  # not sent: the rules as written
            sent = tuple(_as_sent(table, house.effective_rows(submission.system, None)[table.name]))
        filled = [row for row in sent if not row.blank]
        here = error if error is not None and error.table == table.name else None
        bad = _bad_row(submission, here)
        if here is not None:
            message, cell = _error_words(table, filled, bad, here)
        drawn.append(
            _table(
                table,
                filled,
                blanks=max(1, len(sent) - len(filled)) + (table.name == add),
                house=table.name in house_tables,
                open_=table.name in open_tables
                or here is not None
                or table.name == add
                or len(spec.tables) == 1,
                error=here,
                bad=bad,
                was=None if current is None else _as_sent(table, current.get(table.name, ())),
            )
        )
    if error is not None and not message:
        message = _sentence(str(error) if error.table else error.reason)
    if based_on is None:
        based_on = submission.based_on or 0
    return Editor(
        tuple(drawn), error=message, error_cell=cell, note=submission.note, based_on=based_on
    )


def _bad_row(submission: Submission, error: PackError | None) -> SubmittedRow | None:
    """The form row a PackError's row number names (the pack leaves out removed and blank rows,
    so the two count differently)."""
    if error is None or error.row is None:
        return None
    kept = submission.kept(error.table)
    return kept[error.row] if 0 <= error.row < len(kept) else None


def _table(
    table: EditableTable,
    rows: Sequence[SubmittedRow],
    *,
    blanks: int,
    house: bool,
    open_: bool,
    error: PackError | None = None,
    bad: SubmittedRow | None = None,
    was: Sequence[SubmittedRow] | None = None,
) -> EditorTable:
    before = None if was is None else {_identity(table, i, r): r for i, r in enumerate(was)}
    drawn = [
        _row(
            table,
            index,
            row,
            error if row is bad else None,
            None if before is None else before.get(_identity(table, index, row), _NEW),
        )
        for index, row in enumerate(rows)
    ]
    if not table.fixed_rows:
        empty = SubmittedRow({c.name: False if c.kind == "bool" else "" for c in table.columns})
        drawn += [_row(table, len(rows) + n, empty, None, None) for n in range(blanks)]
    whole_table = error.reason if error is not None and bad is None else ""
    return EditorTable(
        name=table.name,
        title=table.title,
        help=table.help,
        headings=tuple(Heading(c.title, c.explained, c.kind) for c in table.columns),
        rows=tuple(drawn),
        fixed_rows=table.fixed_rows,
        count_name=rows_name(table.name),
        add="" if table.fixed_rows else add_name(table.name),
        house=house,
        open=open_,
        error=_sentence(whole_table),
    )


#: The row a new row is compared with: every cell of it is a change.
_NEW = SubmittedRow({})


def _identity(table: EditableTable, index: int, row: SubmittedRow) -> Any:
    """What makes two rows the same row across versions: its key, else its position."""
    return row.raw.get(table.key) if table.key else index


def _row(
    table: EditableTable,
    index: int,
    row: SubmittedRow,
    error: PackError | None,
    was: SubmittedRow | None,
) -> EditorRow:
    label = _row_label(table, index, row)
    cells = tuple(
        _cell(
            table,
            index,
            row,
            column,
            label,
            error.reason if error is not None and error.column == column.name else "",
            changed=was is not None
            and not row.removed
            and not _same(column, was.raw.get(column.name), row.raw.get(column.name)),
        )
        for column in table.columns
    )
    known = {column.name for column in table.columns}
    row_error = error.reason if error is not None and error.column not in known else ""
    return EditorRow(
        index=index,
        label=label,
        cells=cells,
        remove="" if table.fixed_rows or row.blank else remove_name(table.name, index),
        removed=row.removed,
        new=row.blank,
        error=_sentence(row_error),
    )


def _row_label(table: EditableTable, index: int, row: SubmittedRow) -> str:
    if row.blank:
        return f"new row {index + 1}"
    key = row.raw.get(table.key) if table.key else None
    return f"row {index + 1} ({key})" if key else f"row {index + 1}"


def _cell(
    table: EditableTable,
    index: int,
    row: SubmittedRow,
    column: Column,
    row_label: str,
    error: str,
    *,
    changed: bool = False,
) -> Cell:
    raw = row.raw.get(column.name)
    fixed_key = table.fixed_rows and table.key == column.name
    return Cell(
        name=cell_name(table.name, index, column.name),
        id=cell_id(table.name, index, column.name),
        widget="fixed" if fixed_key else _widget(column),
        label=f"{column.title}, {row_label}",
        value="" if isinstance(raw, bool) else str(raw or ""),
        checked=raw is True,
        options=_options(column, raw, blank=row.blank or not column.required),
        min=_limit(column.min),
        max=_limit(column.max) if column.kind != "text" else None,
        step="0.5" if column.kind == "number" else "1",
        maxlength=int(column.max or house.MAX_TEXT) if column.kind == "text" else None,
        width=_width(table, column),
        error=_sentence(error),
        changed=changed,
        focus=bool(error),
        words=humanise(raw) if fixed_key else "",
    )


def _same(column: Column, before: object, after: object) -> bool:
    """Whether two cells as typed hold the same value ("7" and "7.0" do)."""
    if before == after:
        return True
    try:
        return bool(
            column.normalise(_typed(column, before)) == column.normalise(_typed(column, after))
        )
    except ValueError:
        return False


def cell_id(table: str, index: int, column: str) -> str:
    return f"cell-{table}-{index}-{column}"


def _widget(column: Column) -> Literal["number", "select", "checkbox", "text"]:
    if column.kind in ("int", "number"):
        return "number"
    if column.kind == "choice":
        return "select"
    return "checkbox" if column.kind == "bool" else "text"


def _width(table: EditableTable, column: Column) -> str:
    """How wide a cell is drawn: a number needs a few digits, a name a few words."""
    if column.kind in ("int", "number", "bool", "choice"):
        return column.kind
    return "short" if column.name == table.key or (column.max or 99) <= 24 else "text"


def _options(column: Column, raw: Any, *, blank: bool) -> tuple[Option, ...]:
    if column.kind != "choice":
        return ()
    options = [Option("", "—", raw in ("", None))] if blank else []
    options += [Option(_text(v), label, _text(v) == raw) for v, label in column.choices]
    return tuple(options)


def _limit(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _shown(column: Column, value: object) -> bool | str:
    """A stored cell as the form shows it: a flag stays a bool, anything else becomes text."""
    if column.kind == "bool":
        return bool(value)
    return _text(value)


def _sentence(message: str) -> str:
    if not message:
        return ""
    return message[0].upper() + message[1:] + ("" if message.endswith(".") else ".")


def _error_words(
    table: EditableTable, filled: list[SubmittedRow], bad: SubmittedRow | None, error: PackError
) -> tuple[str, str]:
    """The engine's complaint named as a person reads the table, and the id of its cell."""
    where = [table.title]
    cell = ""
    if bad is not None:
        index = next(i for i, row in enumerate(filled) if row is bad)
        where.append(_row_label(table, index, bad))
        if error.column in {c.name for c in table.columns}:
            where.append(table.column(error.column).title)
            cell = cell_id(table.name, index, error.column)
        elif error.column:
            where.append(error.column)
    return f"{', '.join(where)}: {_sentence(error.reason)}", cell


def _spec(system: RuleSystem) -> HouseSpec:
    spec = system.house
    if spec is None:
        raise PackError(f"{system.name} has no editable tables")
    return spec


# --- the preview: exact odds before and after ---------------------------------------------------


@dataclass(frozen=True)
class OutcomeLine:
    label: str
    before: str
    after: str
    #: "up", "down" or "" (the same, or a check that did not exist before).
    trend: str


@dataclass(frozen=True)
class OddsComparison:
    label: str
    lines: tuple[OutcomeLine, ...]
    new: bool
    gone: bool

    @property
    def moved(self) -> bool:
        """The edit changes these odds (a new or removed row's always count)."""
        return self.new or self.gone or any(line.before != line.after for line in self.lines)

    def sentence(self) -> str:
        """ "Matchlock musket, medium range: hit 41.7% → 50.0%, miss 58.3% → 50.0%"."""
        parts = [f"{line.label} {line.before} → {line.after}" for line in self.lines]
        return f"{self.label}: {', '.join(parts)}"


@dataclass(frozen=True)
class Preview:
    changes: tuple[str, ...]
    odds: tuple[OddsComparison, ...]

    @property
    def moved(self) -> tuple[OddsComparison, ...]:
        return tuple(c for c in self.odds if c.moved)

    @property
    def same(self) -> tuple[OddsComparison, ...]:
        """Checks the edited rows take part in whose odds the edit leaves as they were."""
        return tuple(c for c in self.odds if not c.moved)


def percent(probability: Any) -> str:
    """A probability as a percentage a player reads at a glance (as the odds page shows it)."""
    value = float(probability)
    if value == 0:
        return "0%"
    if value < 0.001:
        return f"{value * 100:.2g}%"
    return f"{value * 100:.1f}%"


def odds_comparison(system_key: str, comparison: Comparison) -> OddsComparison:
    """One probe's odds, outcome by outcome, before → after (outcomes impossible both ways are
    left out: a reader looks for what moved)."""
    before, after = comparison.before or {}, comparison.after or {}
    lines = []
    for key in (*after, *(k for k in before if k not in after)):
        # An outcome one side's odds leave out cannot happen there: 0, not a gap (an edit can
        # make a result possible that was not, or the other way round).
        old, new = before.get(key, 0), after.get(key, 0)
        if not old and not new:
            continue
        both = comparison.before is not None and comparison.after is not None
        trend = "" if not both or old == new else ("up" if new > old else "down")
        lines.append(
            OutcomeLine(
                label=outcome_label(system_key, comparison.probe.check, key),
                before=percent(old) if comparison.before is not None else "—",
                after=percent(new) if comparison.after is not None else "—",
                trend=trend,
            )
        )
    return OddsComparison(
        label=comparison.probe.label,
        lines=tuple(lines),
        new=comparison.before is None,
        gone=comparison.after is None,
    )


def preview_of(campaign: Campaign, pack: Pack, current: HouseRules | None) -> Preview:
    """What saving `pack` would change from the current version: sentences and exact odds."""
    system = get_system(campaign.system)
    changes = house.diff(system, pack_of(current), pack)
    comparisons = house_rules_preview(campaign=campaign, document=pack, before=current)
    return Preview(
        changes=tuple(change.sentence(_spec(system)) for change in changes),
        odds=tuple(odds_comparison(system.key, c) for c in comparisons),
    )


# --- handling a POST ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EditorResult:
    """What a POST to the editor came to: the view redraws `editor` or redirects after a save."""

    kind: Literal["invalid", "added", "preview", "saved", "unchanged", "stale"]
    editor: Editor
    preview: Preview | None = None
    version: HouseRules | None = None


def editor_start(campaign: Campaign) -> Editor:
    """The editor holding the tables as the campaign plays them now."""
    system = get_system(campaign.system)
    current = house_rules_current(campaign)
    pack = pack_of(current)
    return editor_from_rows(
        system,
        house.effective_rows(system, pack),
        house_tables=pack.changed_tables() if pack is not None else (),
        based_on=_number(current),
    )


def _number(version: HouseRules | None) -> int:
    return version.number if version is not None else 0


def editor_for_pack(campaign: Campaign, pack: Pack, *, note: str = "") -> EditorResult:
    """The editor holding a pack not saved yet (an import), with its preview."""
    system = get_system(campaign.system)
    pack = _house_only(system, pack)
    current = house_rules_current(campaign)
    rows = house.effective_rows(system, pack)
    submission = Submission(
        system, {t.name: tuple(_as_sent(t, rows[t.name])) for t in _spec(system).tables}, note
    )
    editor = editor_from_submission(
        submission,
        house_tables=pack.changed_tables(),
        open_tables=_touched(system, pack, current),
        current=house.effective_rows(system, pack_of(current)),
        based_on=_number(current),
    )
    return EditorResult("preview", editor, preview_of(campaign, pack, current))


def editor_post(
    campaign: Campaign,
    data: QueryDict,
    user: Visitor | None,
) -> EditorResult:
    """Preview, add a row, or save what the editor sent; nothing is written unless it is valid
    and the organiser pressed Save."""
    system = get_system(campaign.system)
    submission = read_submission(system, data)
    added = next((t.name for t in _spec(system).tables if data.get(add_name(t.name))), "")
    if added:
        return EditorResult("added", editor_from_submission(submission, add=added))
    try:
        pack = house_rules_check(campaign=campaign, document=submission.document())
    except PackError as error:
        return EditorResult("invalid", editor_from_submission(submission, error=error))
    pack = _house_only(system, pack)
    current = house_rules_current(campaign)
    # Someone saved a version since this form was filled: saving would undo theirs unseen. (A
    # double tap of Save sends the tables that version already holds: nothing to ask.)
    stale = submission.based_on not in (None, _number(current)) and bool(
        house.diff(system, pack_of(current), pack)
    )
    if "save" in data and not stale:
        return _save(campaign, submission, pack, current, user)
    editor = editor_from_submission(
        submission,
        house_tables=pack.changed_tables(),
        open_tables=_touched(system, pack, current),
        current=house.effective_rows(system, pack_of(current)),
        # Told once: after this page, a save replaces the newer version knowingly.
        based_on=_number(current) if "save" in data else None,
    )
    kind: Literal["preview", "stale"] = "stale" if "save" in data else "preview"
    return EditorResult(kind, editor, preview_of(campaign, pack, current), current)


def _save(
    campaign: Campaign,
    submission: Submission,
    pack: Pack,
    current: HouseRules | None,
    user: Visitor | None,
) -> EditorResult:
    system = get_system(campaign.system)
    if not house.diff(system, pack_of(current), pack):
        return EditorResult("unchanged", editor_from_submission(submission), version=current)
    try:
        version = house_rules_save(
            campaign=campaign, document=pack, user=user, note=submission.note
        )
    except ValidationError as exc:
        error = PackError(" ".join(exc.messages))
        return EditorResult("invalid", editor_from_submission(submission, error=error))
    return EditorResult("saved", editor_from_submission(submission), version=version)


def _house_only(system: RuleSystem, pack: Pack) -> Pack:
    """The pack keeping only the tables that differ from the rules as written: a table the club
    left alone follows Muster's own (a later fix to it reaches the club too)."""
    changed = pack.changed_tables()
    if set(changed) == set(pack.tables):
        return pack
    tables = {name: pack.tables[name] for name in changed}
    return house.load(system, house.pack_document(system.key, tables, name=pack.name))


def _touched(system: RuleSystem, pack: Pack, current: HouseRules | None) -> tuple[str, ...]:
    """The tables an edit changes (drawn open, so the organiser sees the rows they touched)."""
    return tuple(dict.fromkeys(c.table for c in house.diff(system, pack_of(current), pack)))


# --- versions, as the page and the admin list them ----------------------------------------------


@dataclass(frozen=True)
class VersionEntry:
    version: HouseRules
    #: What it changed from the version before (the first: from the rules as written).
    changes: tuple[str, ...]


def version_history(campaign: Campaign) -> list[VersionEntry]:
    """Every version of the campaign's house rules, newest first, with what each changed."""
    versions = campaign.house_rules_versions.select_related("created_by").order_by("number")
    entries, before = [], None
    for version in versions:
        changes = tuple(house_rules_changes(campaign, before, version))
        entries.append(VersionEntry(version, changes))
        before = version
    return entries[::-1]


@dataclass(frozen=True)
class TableSummary:
    """One table a version sets, as a person reads it: headings and each row's cells in words."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def version_tables(version: HouseRules) -> tuple[TableSummary, ...]:
    """The tables a version sets, in the system's order (the others are the rules as written)."""
    system = get_system(version.campaign.system)
    pack = pack_of(version)
    if pack is None or system.house is None:
        return ()
    return tuple(
        TableSummary(
            title=table.title,
            headings=tuple(column.title for column in table.columns),
            rows=tuple(
                tuple(_cell_words(column, row.get(column.name)) for column in table.columns)
                for row in pack.tables[table.name]
            ),
        )
        for table in system.house.tables
        if table.name in pack.tables
    )


def _cell_words(column: Column, value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if column.kind == "choice":
        return next((label for v, label in column.choices if v == value), _text(value))
    return _text(value)


def stale_warning(result: EditorResult) -> str:
    """What to tell someone whose Save found a version saved while they were editing."""
    version = result.version
    if version is None:
        return "The house rules went back to the rules as written while you were editing."
    who = f" by {version.created_by.get_username()}" if version.created_by else ""
    return (
        f"Version {version.number} was saved{who} while you were editing: nothing of yours is "
        "saved yet. The preview compares your tables with it; Save again to replace it."
    )


#: The answer's status for each kind of result the editor redraws.
STATUS = {"invalid": 400, "stale": 409}
