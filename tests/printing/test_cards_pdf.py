"""Unit cards as printed: card size, cards per page, cut marks outside the cards, the text."""

from __future__ import annotations

import pytest

from printing.cards import (
    CARD_SIZES,
    CardSection,
    CardSpec,
    StatCell,
    WeaponRow,
    card_grid,
    card_sheet_context,
)
from printing.documents import cards_document
from printing.figures import FigureData
from printing.render import render_pdf
from printing.sheets import PAGE_SIZES
from rules.system import get_system
from tests.printing.pdfs import MM_PER_PT, boxes_mm, open_pdf, page_size_mm, page_text

TOLERANCE_MM = 0.2


def _card(n: int) -> CardSpec:
    return CardSpec(
        title=f"Trooper {n}",
        subtitle="Musketeers",
        sections=(CardSection("Figure", (StatCell("Fire", "7"), StatCell("Melee", "6"))),),
        weapons=(WeaponRow("Matchlock musket", (StatCell("damage", "-1"),)),),
        rules=("Steady under fire",),
        track_boxes=5,
        track_marked=1,
    )


@pytest.mark.parametrize("page", ["A4", "Letter"])
def test_poker_cards_print_at_their_size_three_by_three(page):
    pdf = render_pdf("cards", card_sheet_context([_card(n) for n in range(9)], "poker", page))

    sheet = open_pdf(pdf).pages[0]
    cards = boxes_mm(sheet, 63.5, 88.9)

    assert page_size_mm(sheet) == pytest.approx(PAGE_SIZES[page], abs=TOLERANCE_MM)
    assert len(cards) == 9
    for card in cards:
        assert (card.width, card.height) == pytest.approx((63.5, 88.9), abs=TOLERANCE_MM)
    grid = card_grid("poker", page)
    assert cards[0].left == pytest.approx(grid.left, abs=TOLERANCE_MM)
    assert cards[0].top == pytest.approx(grid.top, abs=TOLERANCE_MM)


@pytest.mark.parametrize(("size", "per_page"), [("tarot", 4), ("mini", 16)])
def test_other_card_sizes_fill_the_page_at_their_own_size(size, per_page):
    width, height = CARD_SIZES[size]

    pdf = render_pdf("cards", card_sheet_context([_card(n) for n in range(per_page)], size, "A4"))

    assert len(boxes_mm(open_pdf(pdf).pages[0], width, height)) == per_page


def test_cut_marks_are_drawn_in_the_margins_in_line_with_every_card_edge():
    grid = card_grid("poker", "A4")
    pdf = render_pdf("cards", card_sheet_context([_card(1)], "poker", "A4"))
    right = grid.left + grid.columns * grid.width
    bottom = grid.top + grid.rows * grid.height

    sheet = open_pdf(pdf).pages[0]
    marks = [
        (r["x0"] * MM_PER_PT, r["top"] * MM_PER_PT, r["x1"] * MM_PER_PT, r["bottom"] * MM_PER_PT)
        for r in sheet.rects
    ]
    in_margins = [
        (x0, y0, x1, y1)
        for x0, y0, x1, y1 in marks
        if x1 <= grid.left or x0 >= right or y1 <= grid.top or y0 >= bottom
    ]

    assert len(in_margins) == 2 * (grid.columns + 1) + 2 * (grid.rows + 1)
    edges_x = [grid.left + i * grid.width for i in range(grid.columns + 1)]
    vertical = [m for m in in_margins if m[3] - m[1] > m[2] - m[0]]
    centres = sorted({round((m[0] + m[2]) / 2, 2) for m in vertical})
    assert centres == pytest.approx(edges_x, abs=TOLERANCE_MM)


def test_a_card_shows_its_name_stats_weapons_rules_and_wounds():
    pdf = render_pdf("cards", card_sheet_context([_card(3)], "poker", "Letter"))

    text = page_text(open_pdf(pdf).pages[0])

    words = text.split()
    for expected in (
        "Trooper",
        "3",
        "Musketeers",
        "Fire",
        "Melee",
        "Matchlock",
        "musket",
        "damage",
        "Steady",
        "Wounds",
    ):
        assert expected in words


def test_cards_from_a_rule_system_quote_the_weapon_table_rows():
    system = get_system("rencounter")
    stats = system.stats.validate({"weapons": ["javelin"], "experience": 5})
    figure = FigureData(name="Sgt. Gridley", stats=stats, rank="Sergeant")

    document = cards_document(
        system, [figure], system.options.validate({}), size="poker", page="A4", blanks=2
    )
    sheet = open_pdf(render_pdf(document.family, document.parts[0])).pages[0]
    text, cards = page_text(sheet), boxes_mm(sheet, 63.5, 88.9)

    assert "Sgt. Gridley" in text and "Javelin" in text and "Experience" in text
    assert "Range" in text and "3/6/9/12" in text  # the javelin's row of the missile table
    assert len(cards) == 3  # the figure and two blank cards
