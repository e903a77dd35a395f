"""Turn a rule system and plain figure data into labels and cards.

This is the only place where printing meets `rules`: the system says what a label reads
(`label_text`), what a card shows (`card`), and holds the weapon tables the cards quote.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from common.stats import known_stats
from printing.cards import BLANK_WEAPON_ROWS, CardSection, CardSpec, StatCell, WeaponRow
from printing.labels import LabelSpec
from rules.errors import ValidationError as RulesValidationError
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
    state: str = "ACTIVE"  # the character's status key: which figures a document includes
    unit_id: int | None = None
    battles: int = 0
    kills: int = 0
    recovers_on: str = ""


def figure_label(system: RuleSystem, figure: FigureData) -> LabelSpec:
    """Return the base label: the system's label lines, the name always first."""
    try:
        lines = tuple(system.label_text(figure.name, figure.stats))
    except RulesValidationError:  # a choice the campaign's house rules have since dropped
        lines = tuple(system.label_text(figure.name, known_stats(system.stats, figure.stats)))
    # The system's first line is the name, perhaps marked ("* Gridley x3"); never print it twice.
    if not lines or figure.name not in lines[0]:
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
        label = str(dict(spec.choices).get(value, value))
        return "–" if label.lower() == "none" else label  # a dash, as for any other nothing
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


def _reference(system: RuleSystem) -> ModuleType:
    return importlib.import_module(f"rules.systems.{system.key}.reference")


def _abbreviation(module: ModuleType, spec: Field) -> str:
    abbreviations: Mapping[str, str] = getattr(module, "ABBREVIATIONS", {})
    return abbreviations.get(spec.name, spec.title)


def _sections(system: RuleSystem, stats: Mapping[str, Any], blank: bool) -> tuple[CardSection, ...]:
    """Return the stat lines. A filled card leaves out skills the unit does not have (a
    Grits & Glory card lists the trained ones; the notes say the rest roll d4-2)."""
    module = _reference(system)
    fields = _fields(system)
    skills = getattr(module, "SKILLS", ())
    sections = []
    for heading, names in system.card.sections:
        shown = [fields[n] for n in names if n in fields and not _is_listing(fields[n])]
        if not blank:
            shown = [f for f in shown if f.name not in skills or stats.get(f.name)]
        cells = tuple(
            StatCell(_abbreviation(module, f), "" if blank else format_value(f, stats.get(f.name)))
            for f in shown
        )
        if cells:
            sections.append(CardSection(heading, cells))
    return tuple(sections)


def stat_legend(system: RuleSystem, stats: Mapping[str, Any] | None = None) -> str:
    """Return "Ex Experience · F Fire skill …" for the abbreviations a card prints."""
    module = _reference(system)
    fields = _fields(system)
    names = [n for _, section in system.card.sections for n in section]
    skills = getattr(module, "SKILLS", ())
    parts = []
    for name in names:
        spec = fields.get(name)
        if spec is None or _is_listing(spec):
            continue
        if stats is not None and name in skills and not stats.get(name):
            continue
        short = _abbreviation(module, spec)
        # "Troop" needs no gloss as "Troop type", nor "Melee weapon" as itself; "Agi" does as
        # "Agility".
        if short.lower() not in (spec.title.lower(), *spec.title.lower().split()):
            parts.append(f"{short} {spec.title}")
    return " · ".join(parts)


def _listing_fields(system: RuleSystem) -> list[Field]:
    fields = _fields(system)
    names = [n for _, section in system.card.sections for n in section]
    return [fields[n] for n in names if n in fields and _is_listing(fields[n])]


def _weapon_name(label: str) -> str:
    # Choice labels carry a hint for the roster form ("Long bow (missile)"); the card's
    # profile says the same in numbers.
    return re.sub(r"\s*\([^()]*\)$", "", label)


@cache
def _takes(fn: Any) -> frozenset[str]:
    """The names of a reference function's parameters. Read once per function: a deck asked
    for every weapon of every card, and `inspect.signature` was a third of the deck's context."""
    return frozenset(inspect.signature(fn).parameters)


def _snapshot(fn: Any, system: RuleSystem) -> dict[str, Any]:
    """The system's tables snapshot for a reference function that reads one (`snapshot=`)."""
    if system.snapshot is not None and "snapshot" in _takes(fn):
        return {"snapshot": system.snapshot}
    return {}


def _weapon_profile(
    system: RuleSystem,
    module: ModuleType,
    key: Any,
    tables: Mapping[str, Any],
    stats: Mapping[str, Any],
) -> Any:
    profile = module.weapon_profile
    snapshot = _snapshot(profile, system)
    if "stats" in _takes(profile):
        return profile(key, tables, stats=stats, **snapshot)
    return profile(key, tables, **snapshot)


def _weapons(
    system: RuleSystem, stats: Mapping[str, Any], tables: Mapping[str, Any]
) -> tuple[WeaponRow, ...]:
    """Return each weapon with its profile from the system's weapon tables."""
    module = _reference(system)
    fields = _fields(system)
    rows = []
    singles = [fields[n] for n in getattr(module, "WEAPON_CHOICES", ()) if n in fields]
    # Column headings a narrow card may print shorter (the reference module's SHORT_HEADS).
    shorts: Mapping[str, str] = getattr(module, "SHORT_HEADS", {})
    for spec in [*_listing_fields(system), *singles]:
        if spec.kind not in ("multichoice", "choice"):
            continue
        labels = dict(spec.choices)
        chosen = stats.get(spec.name) if spec.kind == "multichoice" else [stats.get(spec.name)]
        for key in chosen or ():
            if key in (None, "", "none"):
                continue
            profile = _weapon_profile(system, module, key, tables, stats) or ()
            if spec.kind == "choice" and not profile:
                continue
            cells = tuple(StatCell(head, value, shorts.get(head, "")) for head, value in profile)
            rows.append(WeaponRow(_weapon_name(labels.get(key, str(key))), cells))
    return tuple(rows)


def _rules(system: RuleSystem, figure: FigureData, tables: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the card's notes: specials in words, free-text fields, permanent wounds."""
    notes = _reference(system).card_notes
    lines = list(notes(figure.stats, tables, **_snapshot(notes, system)))
    for spec in _listing_fields(system):
        value = figure.stats.get(spec.name)
        if spec.kind == "list" and value:
            lines += [f"{spec.title}: {item}" for item in value]
        elif spec.kind == "text" and value:
            lines.append(f"{spec.title}: {value}")
    if figure.permanent_wounds:
        lines.append("Permanent wounds: " + "; ".join(figure.permanent_wounds))
    return tuple(lines)


def figure_card(
    system: RuleSystem,
    figure: FigureData,
    tables: Mapping[str, Any],
    index: Any = None,
    *,
    qr: bool = False,
) -> CardSpec:
    """Return the card for one figure or unit, laid out from the system's CardLayout and the
    system's reference data (abbreviations, weapon profiles, specials, the track's length).

    `index` is accepted for older callers and unused: profiles come from the system's own
    reference module, not a walk of the tables. The reference module reads the tables and the
    snapshot of the house rules the system runs under (a club's weapon profiles), as the checks
    do.
    """
    module = _reference(system)
    marker = "\u2605 Wild Card" if figure.stats.get("wild_card") else ""
    # "Active" is every printed card's status by default: only say it when it is not.
    status = figure.status if figure.state != "ACTIVE" else ""
    parts = (marker, figure.rank, figure.unit, status)
    subtitle = " · ".join(part for part in parts if part)
    track_label, boxes = module.track(figure.stats, **_snapshot(module.track, system))
    marks = getattr(module, "card_marks", lambda stats: ())(figure.stats)
    weapons = _weapons(system, figure.stats, tables)
    return CardSpec(
        title=figure.name,
        subtitle=subtitle,
        photo_url=figure.photo_url,
        sections=_sections(system, figure.stats, blank=False),
        weapons=weapons,
        rules=_rules(system, figure, tables),
        track_label=track_label,
        track_boxes=boxes,
        track_marked=figure.wounds,
        marks=tuple(marks),
        footer=system.name,
        legend=stat_legend(system, figure.stats),
        # The weapon columns' legend is on the reference sheet: on every card it cost a deck
        # of 90 cards a tenth of its render time, and the headings carry their units.
        qr_url=figure.qr_url if qr else "",
    )


def blank_system_card(system: RuleSystem) -> CardSpec:
    """Return an empty card with the system's headings and boxes, to fill in by hand."""
    module = _reference(system)
    track_label, boxes = module.track({}, **_snapshot(module.track, system))
    marks = getattr(module, "card_marks", lambda stats: ())({})
    return CardSpec(
        title="",
        sections=_sections(system, {}, blank=True),
        weapons=tuple(WeaponRow("") for _ in range(BLANK_WEAPON_ROWS)),
        rules=("", "", ""),
        track_label=track_label,
        track_boxes=max(boxes, system.card.track_boxes),
        marks=tuple(marks),
        footer=system.name,
        legend=stat_legend(system),
        blank=True,
    )
