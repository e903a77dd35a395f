"""Each system's sheet states what its checklist (docs/rules/<system>.md) says it must, with the
numbers; and no printed document says a raw key, "None", "True" or a doubled word."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from printing.documents import (
    cards_document,
    labels_document,
    reference_document,
    roster_document,
    sticker_codes,
    stickers_document,
)
from printing.labels import SheetOptions
from printing.reference import sheet_sections
from printing.render import render_pdf
from printing.sheets import get_preset
from rules.system import all_systems, get_system
from tests.printing.demo_forces import demo_figures, demo_force
from tests.printing.pdfs import open_pdf, page_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
SYSTEMS = [s.key for s in all_systems()]
HEADING = "## Reference sheet checklist"
RAW_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")
DOUBLED = re.compile(r"\b([A-Za-z]{3,})\s+\1\b", re.IGNORECASE)
LITERALS = re.compile(r"\b(None|True|False)\b")


def checklist(key: str) -> list[tuple[str, list[str]]]:
    """Return (item, numbers) for every row of the system's checklist table."""
    text = (DOCS / f"{key}.md").read_text(encoding="utf-8")
    assert HEADING in text, f"docs/rules/{key}.md has no reference sheet checklist"
    rows = []
    for line in text.split(HEADING, 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].isdigit():
            continue
        numbers = [n.strip() for n in cells[3].split(", ") if n.strip()]
        rows.append((cells[1], numbers))
    return rows


def _text(document) -> str:
    texts = []
    for family, part in document.sections():
        pdf = open_pdf(render_pdf(family, part))
        texts += [page_text(page) for page in pdf.pages]
    return " ".join(texts)


@cache
def sheet_text(key: str) -> str:
    system = get_system(key)
    return _text(reference_document(system, system.options.validate({}), campaign="Demo"))


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_checklist_items_numbers_are_on_the_sheet(key):
    items = checklist(key)
    text = sheet_text(key)

    assert len(items) >= 8
    missing = [
        (item, number)
        for item, numbers in items
        for number in numbers
        if not re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text)
    ]
    assert missing == []


@cache
def documents_text(key: str) -> str:
    system = get_system(key)
    options = system.options.validate({})
    figures = demo_figures(key)
    sheet = SheetOptions(get_preset("OL5275"))
    counts = {code: 1 for code, _, _ in sticker_codes(key)}
    documents = (
        cards_document(system, figures, options, size="poker", page="A4", blanks=1),
        labels_document(system, [replace(f, qr_url="") for f in figures], sheet),
        roster_document(system, demo_force(key), figures, options),
        stickers_document(counts, True, sheet, system_key=key),
    )
    return " ".join(_text(d) for d in documents)


def sheet_prose(key: str) -> str:
    """Return the sheet's words with table cells kept apart: two columns may rightly say the
    same ("half" for foot and for cavalry), running text may not."""
    system = get_system(key)
    parts = []
    for section in sheet_sections(system, system.options.validate({})):
        parts.append(section.title)
        for item in section.items:
            parts += [item.text, *item.steps]
            if item.table is not None:
                rows = [item.table.header, *item.table.rows]
                parts += [item.table.caption, " | ".join(" | ".join(row) for row in rows)]
    return " | ".join(p for p in parts if p)


@pytest.mark.parametrize("key", SYSTEMS)
def test_no_document_prints_a_raw_key_none_true_or_a_doubled_word(key):
    printed = documents_text(key) + " " + sheet_text(key)
    prose = documents_text(key) + " " + sheet_prose(key)

    assert RAW_KEY.findall(printed) == []
    assert LITERALS.findall(printed) == []
    assert [m.group(0) for m in DOUBLED.finditer(prose)] == []
