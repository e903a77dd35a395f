"""Forces to and from a JSON document, and characters to and from CSV.

JSON (`muster.force`, version 1) holds a force's name, faction, notes, system, units and
characters; exporting an imported document gives the same document back. It leaves out ids,
owner, campaign, photos and the service record: those belong to the club the force came from.
CSV has one row per character: fixed columns, then one column per stat of the system's schema.

An import checks every row before writing any: a bad row is reported by row and column (CSV)
or by path (JSON), and nothing is imported.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, TypedDict

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Campaign
from common.json_types import JSONObject
from common.stats import system_for
from common.users import User
from rosters.house_rules import rules_for_force
from rosters.models import Character, CharacterStatus, EntryCause, Force, Unit
from rosters.selectors import force_roster
from rosters.services import character_create, force_create, unit_create, unit_update
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Schema

FORMAT = "muster.force"
VERSION = 1
CSV_COLUMNS = ("name", "rank", "status", "unit", "permanent_wounds", "notes")
LIST_SEPARATOR = "; "
#: CSV import limits (docs/import-export.md): a file, its data rows, and any one cell.
CSV_MAX_BYTES = 1024 * 1024
CSV_MAX_ROWS = 1000
CSV_MAX_CELL = 10_000
#: A cell starting with one of these is a formula to a spreadsheet (=HYPERLINK(...) and
#: friends): the export puts an apostrophe before it, and the import takes that off again.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Problem(TypedDict, total=False):
    """One reason an import is refused: where (a JSON path, or a CSV row and column) and why."""

    path: str
    row: int
    column: str
    message: str


class ImportRejected(ValidationError):
    """The file was refused whole; `problems` lists each bad place and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__([_describe(p) for p in problems])


def _describe(problem: Problem) -> str:
    if problem.get("path"):
        where = problem["path"]
    elif "row" in problem:
        where = f"row {problem['row']}, column {problem.get('column', '')}"
    else:
        where = "the file"
    return f"{where}: {problem['message']}"


# --- JSON ---------------------------------------------------------------------------------


def force_export_json(*, force: Force) -> JSONObject:
    """Return the force as a `muster.force` document."""
    characters = list(force_roster(force))
    units = sorted(force.units.select_related("leader"), key=lambda u: (u.order, u.name))
    return {
        "format": FORMAT,
        "version": VERSION,
        "force": {
            "name": force.name,
            "system": force.system,
            "faction": force.faction,
            "notes": force.notes,
            "units": [_unit_json(unit) for unit in units],
            "characters": [_character_json(c) for c in characters],
        },
    }


def _unit_json(unit: Unit) -> JSONObject:
    return {
        "name": unit.name,
        "order": unit.order,
        "stats": unit.stats,
        "leader": unit.leader.name if unit.leader else None,
    }


def _character_json(character: Character) -> JSONObject:
    return {
        "name": character.name,
        "rank": character.rank,
        "status": character.status,
        "unit": character.unit.name if character.unit else None,
        "stats": character.stats,
        "permanent_wounds": list(character.permanent_wounds),
        "notes": character.notes,
    }


def _document_problems(document: object) -> list[Problem]:
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        return [{"path": "format", "message": f"is not a {FORMAT} document"}]
    if document.get("version") != VERSION:
        return [{"path": "version", "message": f"must be {VERSION}"}]
    body = document.get("force")
    if not isinstance(body, Mapping) or not str(body.get("name") or "").strip():
        return [{"path": "force.name", "message": "a force needs a name"}]
    return []


#: The type each field of a document must have (JSON's words in the message).
_TEXT_FIELDS = ("name", "rank", "notes", "faction", "status", "unit", "leader", "system")
_LIST_FIELDS = ("units", "characters", "permanent_wounds")


def _type_problems(path: str, item: Mapping[str, Any]) -> list[Problem]:
    """Each present field of the right JSON type: a string, a list, an object, a whole number."""
    problems: list[Problem] = []
    for name, value in item.items():
        if value is None:
            continue
        if name in _TEXT_FIELDS and not isinstance(value, str):
            problems.append({"path": f"{path}.{name}", "message": "must be a string"})
        elif name in _LIST_FIELDS and not isinstance(value, list):
            problems.append({"path": f"{path}.{name}", "message": "must be a list"})
        elif name == "stats" and not isinstance(value, Mapping):
            problems.append({"path": f"{path}.stats", "message": "must be an object"})
        elif name == "order" and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append({"path": f"{path}.order", "message": "must be a whole number"})
    wounds = item.get("permanent_wounds")
    if isinstance(wounds, list) and not all(isinstance(w, str) for w in wounds):
        message = "must be a list of strings"
        problems.append({"path": f"{path}.permanent_wounds", "message": message})
    return problems


def _json_problems(
    body: Mapping[str, Any], schema: Schema, unit_schema: Schema | None
) -> list[Problem]:
    problems: list[Problem] = _type_problems("force", body)
    if any(p["path"] in ("force.units", "force.characters") for p in problems):
        return problems  # not lists: their items cannot be walked
    units = body.get("units") or []
    unit_names = [str(u.get("name", "")) for u in units if isinstance(u, Mapping)]
    for i, unit in enumerate(units):
        problems += _item_problems(f"force.units[{i}]", unit, unit_schema, None, unit_names[:i])
    names: list[str] = []
    for i, char in enumerate(body.get("characters") or []):
        problems += _item_problems(f"force.characters[{i}]", char, schema, unit_names, names)
        names.append(str(char.get("name", "")) if isinstance(char, Mapping) else "")
    return problems


def _item_problems(
    path: str, item: object, schema: Schema | None, unit_names: list[str] | None, seen: list[str]
) -> list[Problem]:
    if not isinstance(item, Mapping):
        return [{"path": path, "message": "must be an object"}]
    problems = _type_problems(path, item)
    if problems:
        return problems
    name = str(item.get("name") or "").strip()
    if not name or name in seen:
        problems.append(
            {
                "path": f"{path}.name",
                "message": "is missing" if not name else f"{name!r} appears twice",
            }
        )
    if unit_names is not None:
        problems += _character_field_problems(path, item, unit_names)
    problems += _stat_problems(path, item.get("stats") or {}, schema)
    return problems


def _character_field_problems(
    path: str, item: Mapping[str, Any], unit_names: list[str]
) -> list[Problem]:
    problems: list[Problem] = []
    if item.get("status", CharacterStatus.ACTIVE) not in CharacterStatus.values:
        problems.append(
            {
                "path": f"{path}.status",
                "message": f"must be one of {', '.join(CharacterStatus.values)}",
            }
        )
    if item.get("unit") not in (None, "") and item["unit"] not in unit_names:
        problems.append({"path": f"{path}.unit", "message": f"no unit named {item['unit']!r}"})
    return problems


def _stat_problems(path: str, stats: Any, schema: Schema | None) -> list[Problem]:
    if schema is None:
        return [] if not stats else [{"path": f"{path}.stats", "message": "must be empty"}]
    try:
        schema.validate(stats)
    except RulesValidationError as exc:
        return [{"path": f"{path}.stats.{k}", "message": v} for k, v in exc.errors.items()]
    return []


@transaction.atomic
def force_import_json(
    *, document: Any, owner: User, campaign: Campaign | None = None, user: User | None = None
) -> Force:
    """Create a force from a `muster.force` document, or reject it whole with ImportRejected."""
    problems = _document_problems(document)
    if problems:
        raise ImportRejected(problems)
    body = document["force"]
    system = system_for(str(body.get("system", "")), field="force.system")
    unit_schema = system.stats if system.piece == "unit" else None
    problems = _json_problems(body, system.stats, unit_schema)
    if problems:
        raise ImportRejected(problems)
    force = force_create(
        owner=owner,
        name=body["name"],
        system=system.key,
        campaign=campaign,
        faction=body.get("faction", ""),
        notes=body.get("notes", ""),
    )
    _import_roster(force, body, user)
    return force


def _import_roster(force: Force, body: Mapping[str, Any], user: User | None) -> None:
    unit_rows = body.get("units") or []
    units = {
        u["name"]: unit_create(
            force=force, name=u["name"], order=u.get("order", 0), stats=u.get("stats")
        )
        for u in unit_rows
    }
    characters = {
        c["name"]: _import_character(force, c, units, user) for c in body.get("characters") or []
    }
    for row in unit_rows:  # leaders last: they must exist, and be in the unit, first
        if row.get("leader"):
            unit_update(unit=units[row["name"]], leader=characters.get(row["leader"]))


def _import_character(
    force: Force, data: Mapping[str, Any], units: Mapping[str, Unit], user: User | None
) -> Character:
    return character_create(
        force=force,
        name=data["name"],
        stats=data.get("stats"),
        rank=data.get("rank", ""),
        unit=units.get(data.get("unit") or ""),
        status=data.get("status", CharacterStatus.ACTIVE),
        permanent_wounds=data.get("permanent_wounds") or (),
        notes=data.get("notes", ""),
        user=user,
        cause=EntryCause.IMPORT,
        note="imported from a muster.force document",
    )


# --- CSV ----------------------------------------------------------------------------------


def stat_column(name: str) -> str:
    """Return a stat's CSV column: its name, or `stat_<name>` if a fixed column has that name."""
    return f"stat_{name}" if name in CSV_COLUMNS else name


def csv_columns(schema: Schema) -> tuple[str, ...]:
    """Return the CSV header for a system: fixed columns, then one per stat."""
    return CSV_COLUMNS + tuple(stat_column(name) for name in schema.names)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def formula_safe(text: str) -> str:
    """Return a cell a spreadsheet shows as text: a would-be formula gets a leading apostrophe."""
    if text.lstrip("'").startswith(FORMULA_STARTS) and not _is_number(text):
        return "'" + text  # also "'=x" itself, so that the import gives it back unchanged
    return text


def _unescape(cell: str) -> str:
    escaped = cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_STARTS)
    return cell[1:] if escaped else cell


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return formula_safe(LIST_SEPARATOR.join(str(v) for v in value))
    return "" if value is None else formula_safe(str(value))


def force_export_csv(*, force: Force) -> str:
    """Return the force's characters as CSV, one row per character."""
    schema = rules_for_force(force).stats
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_columns(schema))
    for c in force_roster(force):
        fixed = [
            c.name,
            c.rank,
            c.status,
            c.unit.name if c.unit else "",
            c.permanent_wounds,
            c.notes,
        ]
        writer.writerow([_cell(v) for v in fixed] + [_cell(c.stats.get(n)) for n in schema.names])
    return out.getvalue()


def _split(cell: str, *, separators: str = ";,") -> list[str]:
    # Stat choices never hold commas, so "musket, sword" works too; wound texts may: ";" only.
    for separator in separators[1:]:
        cell = cell.replace(separator, separators[0])
    return [part.strip() for part in cell.split(separators[0]) if part.strip()]


def _csv_stats(row: Mapping[str, str], schema: Schema) -> dict[str, Any]:
    stats: dict[str, Any] = {}
    for field in schema.fields:
        cell = (row.get(stat_column(field.name)) or "").strip()
        if cell:
            stats[field.name] = _split(cell) if field.kind in ("multichoice", "list") else cell
    return stats


def _csv_row_problems(
    number: int, row: Mapping[str, str], schema: Schema, taken: set[str]
) -> list[Problem]:
    problems: list[Problem] = []
    name = (row.get("name") or "").strip()
    if not name or name in taken:
        message = "is missing" if not name else f"{name!r} is already in the force or the file"
        problems.append({"row": number, "column": "name", "message": message})
    status = (row.get("status") or CharacterStatus.ACTIVE).strip().upper()
    if status not in CharacterStatus.values:
        problems.append(
            {
                "row": number,
                "column": "status",
                "message": f"must be one of {', '.join(CharacterStatus.values)}",
            }
        )
    try:
        schema.validate(_csv_stats(row, schema))
    except RulesValidationError as exc:
        problems += [
            {"row": number, "column": stat_column(k), "message": v} for k, v in exc.errors.items()
        ]
    taken.add(name)
    return problems


def csv_text(data: bytes) -> str:
    """Decode an uploaded CSV: UTF-8 (a BOM is fine) within CSV_MAX_BYTES, or ImportRejected."""
    if len(data) > CSV_MAX_BYTES:
        _refuse(f"the file is larger than {CSV_MAX_BYTES // 1024} KB: split it into smaller files")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        _refuse(
            f"the file is not UTF-8 text (line {line}, byte {error.start + 1}): "
            'save it as "CSV UTF-8" and import it again',
            row=line,
        )


def _refuse(message: str, *, row: int = 1, column: str = "") -> NoReturn:
    raise ImportRejected([{"row": row, "column": column or "(file)", "message": message}])


def _read_rows(reader: csv.DictReader[str]) -> list[dict[str, str]]:
    """Read the data rows, refusing a file over CSV_MAX_ROWS or with a cell over CSV_MAX_CELL."""
    rows: list[dict[str, str]] = []
    try:
        for row in reader:
            if len(rows) == CSV_MAX_ROWS:
                _refuse(f"the file has more than {CSV_MAX_ROWS} characters: split it")
            rows.append(_checked_row(row, reader.line_num))
    except csv.Error as error:  # an unclosed quote, a cell over csv's own limit (128 KB)
        if "field limit" in str(error):
            _refuse(f"a cell is longer than {CSV_MAX_CELL:,} characters", row=reader.line_num)
        if "unexpected end of data" in str(error):
            _refuse(
                "a quote is never closed: the file ends inside a cell",
                row=reader.line_num,
            )
        _refuse(f"this file cannot be read as CSV ({error})", row=reader.line_num)
    return rows


def _checked_row(row: dict[str | None, Any], line: int) -> dict[str, str]:
    if row.get(None):  # cells beyond the header
        _refuse("the row has more cells than the header has columns", row=line)
    cells = {column: cell for column, cell in row.items() if column is not None}
    for column, cell in cells.items():
        if cell is not None and len(cell) > CSV_MAX_CELL:
            _refuse(f"the cell is longer than {CSV_MAX_CELL:,} characters", row=line, column=column)
    return {column: _unescape(cell or "") for column, cell in cells.items()}


def _csv_rows(text: str, schema: Schema) -> list[dict[str, str]]:
    if "\x00" in text:
        _refuse("the file holds a NUL character: it is not a CSV text file")
    # strict: an unclosed quote is an error, not a cell that swallows the rest of the file.
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), strict=True)
    try:
        header = reader.fieldnames or []
    except csv.Error as error:
        _refuse(f"the header row cannot be read as CSV ({error})")
    if any(len(column) > CSV_MAX_CELL for column in header):
        _refuse(f"a header cell is longer than {CSV_MAX_CELL:,} characters")
    unknown = [c for c in header if c not in csv_columns(schema)]
    problems: list[Problem] = [
        {"row": 1, "column": c, "message": "is not a column of this system"} for c in unknown
    ]
    # Two columns of one name: DictReader would keep the last silently.
    twice = sorted({c for c in header if header.count(c) > 1})
    problems += [{"row": 1, "column": c, "message": "appears twice in the header"} for c in twice]
    if "name" not in header:
        problems.append({"row": 1, "column": "name", "message": "the name column is required"})
    if problems:
        raise ImportRejected(problems)
    return _read_rows(reader)


@transaction.atomic
def force_import_csv(
    *, force: Force, text: str | bytes, user: User | None = None
) -> list[Character]:
    """Add characters from CSV to a force, or reject the whole file with ImportRejected.

    `text` is the decoded file, or the uploaded bytes (decoded strictly by `csv_text`). Rows
    are numbered as in a spreadsheet: the header is row 1. A unit named in the `unit` column
    that the force lacks is created. At most CSV_MAX_ROWS rows, CSV_MAX_CELL characters a cell.
    """
    schema = rules_for_force(force).stats
    rows = _csv_rows(csv_text(text) if isinstance(text, bytes) else text, schema)
    taken = set(force.characters.values_list("name", flat=True))
    problems = [
        p for i, row in enumerate(rows, start=2) for p in _csv_row_problems(i, row, schema, taken)
    ]
    if problems:
        raise ImportRejected(problems)
    units = {u.name: u for u in force.units.all()}
    return [_csv_character(force, row, schema, units, user) for row in rows]


def _csv_character(
    force: Force, row: Mapping[str, str], schema: Schema, units: dict[str, Unit], user: User | None
) -> Character:
    unit_name = (row.get("unit") or "").strip()
    if unit_name and unit_name not in units:
        units[unit_name] = unit_create(force=force, name=unit_name, order=len(units))
    return character_create(
        force=force,
        name=row["name"].strip(),
        stats=_csv_stats(row, schema),
        rank=(row.get("rank") or "").strip(),
        unit=units.get(unit_name),
        status=(row.get("status") or CharacterStatus.ACTIVE).strip().upper(),
        permanent_wounds=_split(row.get("permanent_wounds") or "", separators=";"),
        notes=(row.get("notes") or "").strip(),
        user=user,
        cause=EntryCause.IMPORT,
        note="imported from CSV",
    )


def problems_of(exc: ValidationError) -> Iterable[Problem]:
    """Return an import error's problems, whatever kind of validation error it is."""
    if isinstance(exc, ImportRejected):
        return exc.problems
    return [{"path": "", "message": m} for m in exc.messages]
