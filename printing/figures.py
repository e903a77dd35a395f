"""Turn a rule system and plain figure data into labels and cards.

This is the only place where printing meets `rules`: the system says what a label reads
(`label_text`), what a card shows (`card`), and holds the weapon tables the cards quote.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from printing.cards import BLANK_WEAPON_ROWS, CardSection, CardSpec, StatCell, WeaponRow
from printing.labels import LabelSpec
from rules.schema import Field
from rules.system import RuleSystem

MAX_WEAPON_COLUMNS = 5
# Table columns that identify a row rather than describe the weapon.
_ID_COLUMNS = {"key", "name", "weapon", "label"}


@dataclass(frozen=True)
class FigureData:
    """A figure (or unit) as printing needs it, whether from the database or a request."""

    name: str
    stats: Mapping[str, Any]
    rank: str = ""
    unit: str = ""
    status: str = ""
    photo_url: str = ""
    qr_url: str = ""
    wounds: int = 0
    permanent_wounds: tuple[str, ...] = ()
    record: tuple[str, ...] = field(default=())
    character_id: int | None = None  # set for stored characters, so label prints are recorded


def figure_label(system: RuleSystem, figure: FigureData) -> LabelSpec:
    """Return the base label: the system's label lines, the name always first."""
    lines = tuple(system.label_text(figure.name, figure.stats))
    if not lines or lines[0] != figure.name:
        lines = (figure.name, *lines)
    return LabelSpec(lines=lines, qr_url=figure.qr_url)


def _fields(system: RuleSystem) -> dict[str, Field]:
    return {f.name: f for f in system.stats.fields}


def format_value(spec: Field, value: Any) -> str:
    """Return a stat as a card prints it: d8 for a die, ✓ for yes, choice labels for choices."""
    if value is None or value == "" or value == []:
        return "–"
    if spec.kind == "die":
        return f"d{value}" if value else "–"
    if spec.kind == "bool":
        return "✓" if value else "–"
    if spec.kind == "choice":
        return dict(spec.choices).get(value, str(value))
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _is_listing(spec: Field) -> bool:
    # Weapons and free-text lists read better as rows than squeezed into a stat line.
    return spec.kind in ("multichoice", "list", "text")


def _walk(node: Any) -> Iterator[Any]:
    yield node
    children = node.values() if isinstance(node, Mapping) else node
    if isinstance(node, Mapping | list | tuple):
        for child in children:
            yield from _walk(child)


def weapon_index(tables: Mapping[str, Any]) -> dict[tuple[str, Any], Mapping[str, Any]]:
    """Index every row of the system's tables by its key and by its name (first one wins).

    Built once per document: walking the whole tables tree for every weapon of a 90-card
    deck cost more than laying the cards out.
    """
    index: dict[tuple[str, Any], Mapping[str, Any]] = {}
    for node in _walk(tables):
        if not isinstance(node, Mapping):
            continue
        for key, child in node.items():
            if isinstance(child, Mapping) and isinstance(key, str):
                index.setdefault(("key", key), child)
        for field_name in ("key", "name"):
            value = node.get(field_name)
            if isinstance(value, str):
                index.setdefault((field_name, value), node)
    return index


def weapon_row(
    tables: Mapping[str, Any],
    key: Any,
    label: str,
    index: Mapping[tuple[str, Any], Mapping[str, Any]] | None = None,
) -> WeaponRow:
    """Find the weapon's row in the system's tables (by key or name) and quote its columns."""
    index = weapon_index(tables) if index is None else index
    row = index.get(("key", key)) or index.get(("name", label))
    return _row(label, row) if row is not None else WeaponRow(label)


def _row(label: str, row: Mapping[str, Any]) -> WeaponRow:
    cells = [
        StatCell(str(column).replace("_", " "), _cell(value))
        for column, value in row.items()
        if column not in _ID_COLUMNS and not isinstance(value, Mapping)
    ]
    return WeaponRow(label, tuple(cells[:MAX_WEAPON_COLUMNS]))


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "✓" if value else "–"
    if isinstance(value, list | tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def _sections(system: RuleSystem, stats: Mapping[str, Any], blank: bool) -> tuple[CardSection, ...]:
    fields = _fields(system)
    sections = []
    for heading, names in system.card.sections:
        cells = tuple(
            StatCell(fields[n].title, "" if blank else format_value(fields[n], stats.get(n)))
            for n in names
            if n in fields and not _is_listing(fields[n])
        )
        if cells:
            sections.append(CardSection(heading, cells))
    return tuple(sections)


def _listing_fields(system: RuleSystem) -> list[Field]:
    fields = _fields(system)
    names = [n for _, section in system.card.sections for n in section]
    return [fields[n] for n in names if n in fields and _is_listing(fields[n])]


def _weapons(
    system: RuleSystem,
    stats: Mapping[str, Any],
    tables: Mapping[str, Any],
    index: Mapping[tuple[str, Any], Mapping[str, Any]] | None,
) -> tuple[WeaponRow, ...]:
    rows = []
    index = weapon_index(tables) if index is None else index
    for spec in _listing_fields(system):
        if spec.kind == "multichoice":
            labels = dict(spec.choices)
            rows += [
                weapon_row(tables, v, labels.get(v, str(v)), index)
                for v in stats.get(spec.name, [])
            ]
    return tuple(rows)


def _rules(system: RuleSystem, figure: FigureData) -> tuple[str, ...]:
    lines: list[str] = []
    for spec in _listing_fields(system):
        value = figure.stats.get(spec.name)
        if spec.kind == "list" and value:
            lines += [f"{spec.title}: {item}" for item in value]
        elif spec.kind == "text" and value:
            lines.append(f"{spec.title}: {value}")
    wounds = [w for w in figure.permanent_wounds if f"{w}" not in " ".join(lines)]
    return tuple(lines) + tuple(f"Permanent wound: {w}" for w in wounds) + figure.record


def figure_card(
    system: RuleSystem,
    figure: FigureData,
    tables: Mapping[str, Any],
    index: Mapping[tuple[str, Any], Mapping[str, Any]] | None = None,
) -> CardSpec:
    """Return the card for one figure or unit, laid out from the system's CardLayout.

    Pass `index` (from `weapon_index(tables)`) when printing many cards from the same tables.
    """
    subtitle = " · ".join(part for part in (figure.rank, figure.unit, figure.status) if part)
    return CardSpec(
        title=figure.name,
        subtitle=subtitle,
        photo_url=figure.photo_url,
        sections=_sections(system, figure.stats, blank=False),
        weapons=_weapons(system, figure.stats, tables, index),
        rules=_rules(system, figure),
        track_label=system.card.track.replace("_", " ").capitalize(),
        track_boxes=system.card.boxes_for(figure.stats),
        track_marked=figure.wounds,
        footer=system.name,
    )


def blank_system_card(system: RuleSystem) -> CardSpec:
    """Return an empty card with the system's headings and boxes, to fill in by hand."""
    return CardSpec(
        title="",
        sections=_sections(system, {}, blank=True),
        weapons=tuple(WeaponRow("") for _ in range(BLANK_WEAPON_ROWS)),
        rules=("", "", ""),
        track_label=system.card.track.replace("_", " ").capitalize(),
        track_boxes=system.card.track_boxes,
        footer=system.name,
        blank=True,
    )
