"""Quick-reference sheets: the campaign's options at the top, every table, one or two pages."""

from __future__ import annotations

import pytest

from printing.documents import reference_document
from printing.reference import Block, blocks_for, sheet_blocks
from printing.render import render_pdf
from rules.system import all_systems, get_system
from tests.printing.pdfs import open_pdf, page_text


def _text(document) -> tuple[str, int]:
    pdf = open_pdf(render_pdf(document.family, document.parts[0]))
    return " ".join(page_text(p) for p in pdf.pages), len(pdf.pages)


def test_a_list_of_rows_becomes_one_table_with_a_column_per_key():
    rows = [{"name": "Sword", "to_hit": 1}, {"name": "Pike", "to_hit": -1, "ranks": 4}]

    (block,) = blocks_for(rows)

    assert block.header == ("Name", "To hit", "Ranks")
    assert block.rows == (("Sword", "1", "–"), ("Pike", "-1", "4"))


def test_a_dict_of_plain_values_becomes_a_two_column_table():
    (block,) = blocks_for({"1": "Scum", "2": "Raw"})

    assert block == Block("table", 1, rows=(("1", "Scum"), ("2", "Raw")))


def test_nested_tables_get_a_heading_per_entry():
    blocks = sheet_blocks({"morale": {"triggers": ["a", "b"], "modifiers": {"x": 1}}})

    assert [(b.kind, b.text) for b in blocks if b.kind == "heading"] == [
        ("heading", "Morale"),
        ("heading", "Triggers"),
        ("heading", "Modifiers"),
    ]


def test_the_sheet_names_the_campaign_and_its_options_at_the_top():
    system = get_system("rencounter")
    options = system.options.validate({"breakpoint": "1/4"})

    text, _ = _text(reference_document(system, options, campaign="Autumn League"))

    assert "Autumn League" in text
    assert "1/4 of the force lost" in text.replace("\n", " ")
    assert "Missile weapons" in text and "Javelin" in text


@pytest.mark.parametrize("key", [s.key for s in all_systems()])
def test_every_systems_sheet_prints_on_one_or_two_pages(key):
    system = get_system(key)

    text, pages = _text(reference_document(system, system.options.validate({})))

    assert system.name in text
    assert 1 <= pages <= 2


def test_two_column_pairs_print_as_tabbed_lines_with_the_second_column_kept_in_place():
    from printing.reference import pair_lines

    stop_px, text = pair_lines((("Too close", "-2"), ("Long", "a " * 60)), 0.3)

    lines = text.split("\n")
    assert stop_px > 0 and lines[0] == "Too close\t-2"
    assert lines[1].startswith("Long\ta") and all(line.startswith("\ta") for line in lines[2:])
