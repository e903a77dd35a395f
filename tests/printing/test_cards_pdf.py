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
from tests.printing.pdfs import boxes_mm, open_pdf, page_size_mm, page_text

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


# Cut marks are the sheet's background (two repeated SVG tiles), which a PDF's list of
# rectangles does not show, so they are read from the printed page: rendered at 300 dpi.
DPI = 300
INK = 128  # a grey level darker than this is ink


def _sheet_image(size: str, page: str):
    import io

    import pypdfium2 as pdfium

    pdf = render_pdf("cards", card_sheet_context([_card(1)], size, page))
    document = pdfium.PdfDocument(io.BytesIO(pdf))
    try:
        return document[0].render(scale=DPI / 72).to_pil().convert("L")
    finally:
        document.close()


def _px(mm: float) -> int:
    return round(mm * DPI / 25.4)


def _inked(image, box_mm: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box_mm
    return image.crop((_px(x0), _px(y0), _px(x1), _px(y1))).getextrema()[0] < INK


@pytest.mark.parametrize(("size", "page"), [("poker", "A4"), ("poker", "Letter"), ("mini", "A4")])
def test_cut_marks_are_drawn_in_the_margins_in_line_with_every_card_edge(size, page):
    from PIL import ImageDraw

    from printing.cards import CUT_MARK_GAP

    grid = card_grid(size, page)
    page_w, page_h = PAGE_SIZES[page]
    xs = [grid.left + i * grid.width for i in range(grid.columns + 1)]
    ys = [grid.top + j * grid.height for j in range(grid.rows + 1)]
    image = _sheet_image(size, page)
    slack = 0.3  # mm either side of a mark: antialiasing
    # Where each mark must be: a hairline on the line of each card edge, in the margin, a gap
    # away from the cards (so a mark never shows on a cut card).
    expected = [
        (x - slack, y0, x + slack, y1)
        for x in xs
        for y0, y1 in ((CUT_MARK_GAP + 0.6, grid.top - CUT_MARK_GAP - 0.1),
                       (ys[-1] + CUT_MARK_GAP + 0.1, page_h - 1.6))
    ] + [
        (x0, y - slack, x1, y + slack)
        for y in ys
        for x0, x1 in ((grid.left - CUT_MARK_GAP - 3.9, grid.left - CUT_MARK_GAP - 0.1),
                       (xs[-1] + CUT_MARK_GAP + 0.1, xs[-1] + CUT_MARK_GAP + 3.9))
    ]  # fmt: skip
    missing = [box for box in expected if not _inked(image, box)]

    # Nothing else is printed in the margins: with the marks painted out they are blank.
    cleaned = image.copy()
    draw = ImageDraw.Draw(cleaned)
    for x0, y0, x1, y1 in expected:
        draw.rectangle((_px(x0 - slack), _px(y0 - slack), _px(x1 + slack), _px(y1 + slack)), 255)
    margins = [
        (0, 0, page_w, grid.top),
        (0, ys[-1], page_w, page_h),
        (0, 0, grid.left, page_h),
        (xs[-1], 0, page_w, page_h),
    ]
    stray = [box for box in margins if _inked(cleaned, box)]

    assert missing == []
    assert stray == []
    assert len(expected) == 2 * (grid.columns + 1) + 2 * (grid.rows + 1)


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
