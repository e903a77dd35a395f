"""Quick-reference sheets: a system's tables (as its rules engine returns them for a campaign's
options) turned into a flat list of headings and tables that one template renders.

The tables are JSON of any shape; the rendering is generic:
- a list of rows (dicts) or a dict of rows (dicts) becomes a table with a column per key;
- a list of lists (e.g. threshold/outcome pairs) becomes a table without a header;
- a dict of plain values becomes a two-column table;
- a dict holding any of the above becomes a sub-heading per entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from printing.fit import text_width_em, wrap_to
from rules.schema import Schema

# Two-column tables without a header (threshold/outcome pairs, label/value lists) print as one
# block of text lines with a tab stop between the columns: a box per cell made the sheet's
# layout cost more than its budget. These match reference.css and the A4 page's columns.
REF_FONT_PT = 6.4
REF_COLUMN_MM = (210 - 16 - 5) / 2  # A4 less the page margins, halved round the column gap
PAIR_GAP_MM = 1.2
PX_PER_MM = 96 / 25.4  # WeasyPrint's tab stops are whole CSS pixels
MAX_DEPTH = 3  # deeper nesting is printed as compact text rather than ever smaller headings


@dataclass(frozen=True)
class Block:
    """One piece of a reference sheet: a heading, a table, or a line of text."""

    kind: str  # "heading" | "table" | "text"
    level: int = 1
    text: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()

    @property
    def widths(self) -> list[str]:
        """Return each column's share of the width (%), from its longest cell.

        Fixed column widths let WeasyPrint lay a table out in one pass instead of measuring
        every cell's minimum and maximum width, which dominated the sheet's render time.
        """
        lines = (self.header, *self.rows) if self.header else self.rows
        count = max((len(line) for line in lines), default=0)
        longest = [
            max((_text_em(line[i]) for line in lines if i < len(line)), default=1.0)
            for i in range(count)
        ]
        capped = [min(max(width, 1.5), 22.0) for width in longest]
        total = sum(capped) or 1.0
        return [f"{round(100 * width / total)}" for width in capped]

    @property
    def pairs(self) -> dict[str, Any] | None:
        """Return {"px", "text"} when this is a header-less two-column table, else None."""
        if self.kind != "table" or self.header or any(len(row) != 2 for row in self.rows):
            return None
        stop_px, text = pair_lines(self.rows, int(self.widths[0]) / 100)
        return {"px": stop_px, "text": text}


def pair_lines(rows: tuple[tuple[str, ...], ...], first_share: float) -> tuple[int, str]:
    """Return (tab stop in px, text) printing two-column rows as tab-separated lines.

    Each cell is wrapped to its column in Python (the font's own widths); a continuation line
    of the second column starts with a tab, so it stays in its column.
    """
    stop_px = int(REF_COLUMN_MM * first_share * PX_PER_MM)
    stop = stop_px / PX_PER_MM
    lines = []
    for first, second in rows:
        left = wrap_to(first, stop - PAIR_GAP_MM, REF_FONT_PT)
        right = wrap_to(second, REF_COLUMN_MM - stop - PAIR_GAP_MM, REF_FONT_PT)
        for i in range(max(len(left), len(right))):
            cell = left[i] if i < len(left) else ""
            value = right[i] if i < len(right) else ""
            lines.append(f"{cell}\t{value}" if value else cell)
    return stop_px, "\n".join(lines)


def _text_em(text: str) -> float:
    # The longest word bounds how narrow a column may get; whole text, how wide it wants to be.
    return max(text_width_em(text) * 0.8, max((text_width_em(w) for w in text.split()), default=0))


def humanise(key: Any) -> str:
    """Turn a JSON key into a heading: "missile_weapons" -> "Missile weapons"."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def cell(value: Any) -> str:
    """Render one value compactly for a table cell."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "–"
    if isinstance(value, Mapping):
        return "; ".join(f"{humanise(k)} {cell(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " / ".join(cell(v) for v in value)
    return str(value)


def _is_row(value: Any) -> bool:
    return isinstance(value, Mapping) and all(not isinstance(v, Mapping) for v in value.values())


def _row_table(rows: Sequence[Mapping[str, Any]], level: int, names: Sequence[str] = ()) -> Block:
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    if "name" in columns and "key" in columns:
        columns.remove("key")  # the key is the program's name for the row, the name the reader's
    lead = ("",) if names else ()
    header = lead + tuple(humanise(c) for c in columns)
    body = tuple(
        ((names[i],) if names else ()) + tuple(cell(row.get(c)) for c in columns)
        for i, row in enumerate(rows)
    )
    return Block("table", level, header=header, rows=body)


def blocks_for(value: Any, level: int = 1) -> list[Block]:
    """Return the blocks that render one table value (see the module docstring)."""
    if isinstance(value, Mapping):
        return _mapping_blocks(value, level)
    if isinstance(value, list | tuple) and value:
        if all(_is_row(v) for v in value):
            return [_row_table(value, level)]
        if all(isinstance(v, list | tuple) for v in value):
            return [Block("table", level, rows=tuple(tuple(cell(c) for c in v) for v in value))]
        return [Block("text", level, text=", ".join(cell(v) for v in value))]
    return [Block("text", level, text=cell(value))]


def _mapping_blocks(value: Mapping[str, Any], level: int) -> list[Block]:
    if value and all(_is_row(v) for v in value.values()):
        rows = list(value.values())
        named = not any("name" in row or "key" in row for row in rows)
        return [_row_table(rows, level, [humanise(k) for k in value] if named else ())]
    if all(not isinstance(v, Mapping | list | tuple) for v in value.values()):
        return [Block("table", level, rows=tuple((humanise(k), cell(v)) for k, v in value.items()))]
    if level >= MAX_DEPTH:
        return [Block("text", level, text=cell(value))]
    blocks: list[Block] = []
    for key, item in value.items():
        blocks.append(Block("heading", level + 1, text=humanise(key)))
        blocks += blocks_for(item, level + 1)
    return blocks


def sheet_blocks(tables: Mapping[str, Any]) -> list[Block]:
    """Return every table of a system as headings and tables, in the system's order."""
    blocks: list[Block] = []
    for key, value in tables.items():
        blocks.append(Block("heading", 1, text=humanise(key)))
        blocks += blocks_for(value, 1)
    return blocks


def options_summary(schema: Schema, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return (option label, value) for every campaign option, as the sheet's header shows."""
    by_name = {f.name: f for f in schema.fields}
    summary = []
    for name, value in options.items():
        spec = by_name.get(name)
        label = spec.title if spec else humanise(name)
        shown = dict(spec.choices).get(value, value) if spec and spec.choices else value
        summary.append((label, cell(shown)))
    return summary


def reference_context(
    *,
    system_name: str,
    source: str,
    tables: Mapping[str, Any],
    options: list[tuple[str, str]],
    campaign: str = "",
    house_rules: bool = False,
) -> dict[str, Any]:
    """Return the `reference` template context."""
    blocks = sheet_blocks(tables)
    return {
        "title": f"{system_name} quick reference",
        "system_name": system_name,
        "source": source,
        "campaign": campaign,
        "options": options,
        "house_rules": house_rules,
        "blocks": blocks,
        # Column widths are classes in one style sheet: a style attribute per <col> is parsed
        # on its own, and a sheet has hundreds of columns but a few dozen distinct widths.
        "column_widths": sorted(
            {w for b in blocks if b.kind == "table" for w in b.widths}, key=int
        ),
    }
