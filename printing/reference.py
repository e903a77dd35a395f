"""Quick-reference sheets written for the table.

Each system says what its sheet holds in `rules/systems/<key>/reference.py`: `SOURCE` (the
rules' title and author) and `sheet(tables, options)`, a list of sections built from the
system's own tables under the campaign's options and house rules, so a house rule changes the
sheet exactly as it changes play. A section is {"title", "house" (optional), "items"}; an item is
{"steps": [...]}, {"text": "..."} or {"table": {"caption", "header", "rows"}}. This module
turns that data into what `templates/printing/reference.html` prints: every table has column
headings, widths computed from its longest cells (a fixed-layout table lays out in one pass).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from printing.fit import text_width_em
from rules.schema import Schema
from rules.system import RuleSystem

MAX_COLUMN_EM = 24.0


@dataclass(frozen=True)
class RefTable:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def widths(self) -> list[str]:
        """Return each column's share of the width (%), from its longest cell."""
        lines = (self.header, *self.rows)
        count = max(len(line) for line in lines)
        longest = [
            max((_text_em(line[i]) for line in lines if i < len(line)), default=1.0)
            for i in range(count)
        ]
        capped = [min(max(width, 2.0), MAX_COLUMN_EM) for width in longest]
        total = sum(capped) or 1.0
        shares = [max(round(100 * width / total), 4) for width in capped]
        shares[0] += 100 - sum(shares)  # whole percentages that add up to the full width
        return [str(share) for share in shares]


@dataclass(frozen=True)
class RefItem:
    kind: str  # "steps" | "text" | "table"
    text: str = ""
    steps: tuple[str, ...] = ()
    table: RefTable | None = None


@dataclass(frozen=True)
class RefSection:
    title: str
    items: tuple[RefItem, ...]
    house: bool = False


def _text_em(text: str) -> float:
    # The longest word bounds how narrow a column may get; whole text, how wide it wants to be.
    words = max((text_width_em(w) for w in text.split()), default=0.0)
    return max(text_width_em(text) * 0.7, words + 0.6)


def system_reference(system: RuleSystem) -> ModuleType:
    """Return the system's reference module (`rules.systems.<key>.reference`)."""
    return importlib.import_module(f"rules.systems.{system.key}.reference")


def _item(item: Mapping[str, Any]) -> RefItem:
    if "table" in item:
        table = item["table"]
        return RefItem(
            "table",
            table=RefTable(
                caption=str(table.get("caption", "")),
                header=tuple(str(h) for h in table["header"]),
                rows=tuple(tuple(str(c) for c in row) for row in table["rows"]),
            ),
        )
    if "steps" in item:
        return RefItem("steps", steps=tuple(str(s) for s in item["steps"]))
    return RefItem("text", text=str(item["text"]))


def sheet_sections(system: RuleSystem, options: Mapping[str, Any]) -> list[RefSection]:
    """Return the sheet's sections for the campaign's options."""
    module = system_reference(system)
    # The reference module reads the tables the system hands it (a club's, under its house
    # rules) and marks the sections whose tables the club's pack changed.
    sheet = module.sheet(system.tables(options), options, system.changed_tables())
    return [
        RefSection(
            title=section["title"],
            items=tuple(_item(item) for item in section["items"]),
            house=bool(section.get("house", False)),
        )
        for section in sheet
    ]


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def options_summary(schema: Schema, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return (option label, value) for every campaign option, as the sheet's header shows."""
    by_name = {f.name: f for f in schema.fields}
    summary = []
    for name, value in options.items():
        spec = by_name.get(name)
        if spec is None:
            continue
        shown = dict(spec.choices).get(value, value) if spec.choices else value
        summary.append((spec.title, _shown(shown)))
    return summary


def reference_context(
    *,
    system: RuleSystem,
    options: Mapping[str, Any],
    campaign: str = "",
    page: str = "A4",
    house_rules: str = "",
) -> dict[str, object]:
    """Return the `reference` template context; `house_rules` names the club's house-rules
    version the sheet is printed under ("House rules v2")."""
    sections = sheet_sections(system, options)
    tables = [i.table for s in sections for i in s.items if i.table is not None]
    return {
        "title": f"{system.name} quick reference",
        "system_name": system.name,
        "source": system_reference(system).SOURCE,
        "campaign": campaign,
        "options": options_summary(system.options, options),
        "house_rules": system.house_rules,
        "club_house_rules": house_rules,
        "sections": sections,
        "page": page,
        # Column widths are classes in one style sheet: a style attribute per <col> is parsed
        # on its own, and a sheet has a hundred columns but a few dozen distinct widths.
        "column_widths": sorted({w for table in tables for w in table.widths}, key=int),
    }


def sheet_text(sections: Sequence[RefSection]) -> str:
    """Return every word the sections print (for checks on what a player reads)."""
    parts: list[str] = []
    for section in sections:
        parts.append(section.title)
        for item in section.items:
            parts += [item.text, *item.steps]
            if item.table is not None:
                parts += [item.table.caption, *item.table.header]
                parts += [c for row in item.table.rows for c in row]
    return "\n".join(p for p in parts if p)
