"""Unit cards: plain card data, laid out several to a page with cut marks in the margins.

A `CardSpec` is what one card shows; `card_sheet_context` places cards on pages of a chosen
card size (poker, tarot, mini) and paper, and works out where the cut marks go.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from printing.fit import PT_PER_MM, shorten_to, text_width_em
from printing.labels import css_number
from printing.sheets import PAGE_SIZES, SheetError

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),  # 2.5" x 3.5"
    "tarot": (69.85, 120.65),  # 2.75" x 4.75"
    "mini": (44.45, 63.5),  # 1.75" x 2.5", the mini-American / mini-euro family
}
MIN_MARGIN = 5.0  # mm of paper kept round the grid: printers cannot reach the edge
CUT_MARK_GAP = 1.0  # mm between a cut mark and the card edge, so a mark never shows on a card
CUT_MARK_LENGTH = 4.0
CARD_FONT_STEPS = (7.0, 6.5, 6.0, 5.5, 5.0)  # pt; the first whose estimated height fits wins
BLANK_WEAPON_ROWS = 3
MAX_CELLS_PER_ROW = 6
EMPTY_BOX, FILLED_BOX = "\u25a1", "\u25a0"  # □ ■, both in DejaVu Sans (Condensed)
WEAPON_NAME_SHARE = 0.32  # of the card's inner width; matches cards.css


@dataclass(frozen=True)
class StatCell:
    label: str
    value: str


@dataclass(frozen=True)
class CardSection:
    heading: str
    cells: tuple[StatCell, ...]

    @property
    def rows(self) -> list[tuple[StatCell, ...]]:
        """Split a long stat line (a dozen skills) into rows a card's width can hold."""
        step = MAX_CELLS_PER_ROW
        return [self.cells[i:i + step] for i in range(0, len(self.cells), step)]


@dataclass(frozen=True)
class WeaponRow:
    """A weapon and its row from the system's weapon table (column label, value)."""

    name: str
    columns: tuple[StatCell, ...] = ()
    head: bool = False  # print the column labels above this row (they differ from the last)


@dataclass(frozen=True)
class CardSpec:
    """What one card shows. `track_boxes` boxes are drawn; `track_marked` come pre-crossed."""

    title: str
    subtitle: str = ""
    photo_url: str = ""
    sections: tuple[CardSection, ...] = ()
    weapons: tuple[WeaponRow, ...] = ()
    rules: tuple[str, ...] = ()
    track_label: str = "Wounds"
    track_boxes: int = 0
    track_marked: int = 0
    footer: str = ""
    blank: bool = False

    @property
    def track_text(self) -> str:
        """Return the track as box glyphs, the marked ones filled: one text run, not a box
        element per wound (which a 90-card deck pays for in thousands of boxes)."""
        marked = min(self.track_marked, self.track_boxes)
        return FILLED_BOX * marked + EMPTY_BOX * (self.track_boxes - marked)


@dataclass(frozen=True)
class CardGrid:
    """How cards of one size sit on one paper: columns, rows and the grid's top-left corner."""

    size: str
    page: str
    width: float
    height: float
    columns: int
    rows: int
    left: float
    top: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def card_grid(size: str, page: str) -> CardGrid:
    """Return the largest centred grid of `size` cards on `page` that leaves the margins."""
    if size not in CARD_SIZES:
        raise SheetError(f"unknown card size {size!r}; known sizes: {', '.join(CARD_SIZES)}")
    if page not in PAGE_SIZES:
        raise SheetError(f"page must be one of {', '.join(PAGE_SIZES)}, not {page!r}")
    width, height = CARD_SIZES[size]
    page_w, page_h = PAGE_SIZES[page]
    columns = int((page_w - 2 * MIN_MARGIN) // width)
    rows = int((page_h - 2 * MIN_MARGIN) // height)
    left = (page_w - columns * width) / 2
    top = (page_h - rows * height) / 2
    return CardGrid(size, page, width, height, columns, rows, left, top)


def cut_marks(grid: CardGrid) -> list[dict[str, str]]:
    """Return short lines in the margins, in line with every card edge (never on a card)."""
    page_w, page_h = PAGE_SIZES[grid.page]
    xs = [grid.left + i * grid.width for i in range(grid.columns + 1)]
    ys = [grid.top + j * grid.height for j in range(grid.rows + 1)]
    bottom, right = ys[-1], xs[-1]
    down = min(CUT_MARK_LENGTH, grid.top - CUT_MARK_GAP - 0.5)
    across = min(CUT_MARK_LENGTH, grid.left - CUT_MARK_GAP - 0.5)
    marks = []
    for x in xs:
        marks.append(_mark(x, grid.top - CUT_MARK_GAP - down, 0.0, down))
        marks.append(_mark(x, bottom + CUT_MARK_GAP, 0.0, min(down, page_h - bottom - 1.5)))
    for y in ys:
        marks.append(_mark(grid.left - CUT_MARK_GAP - across, y, across, 0.0))
        marks.append(_mark(right + CUT_MARK_GAP, y, min(across, page_w - right - 1.5), 0.0))
    return [mark for mark in marks if float(mark["w"]) > 0 or float(mark["h"]) > 0]


def _mark(x: float, y: float, width: float, height: float) -> dict[str, str]:
    return {"x": css_number(x), "y": css_number(y), "w": css_number(max(width, 0.0)),
            "h": css_number(max(height, 0.0))}


def _wrapped_lines(text: str, width_mm: float, font_pt: float) -> int:
    room = width_mm * PT_PER_MM / font_pt
    lines, current = 1, 0.0
    for word in text.split():
        word_width = text_width_em(word + " ")
        if current and current + word_width > room:
            lines, current = lines + 1, 0.0
        current += word_width
    return lines


def estimated_height(card: CardSpec, grid: CardGrid, font_pt: float) -> float:
    """Estimate the card's content height (mm) at a font size, from its line count."""
    line = font_pt / PT_PER_MM * 1.25
    inner = grid.width - 4.0
    write_in = 1.9 if card.blank else 1.0  # blank cards leave a pen's height per entry
    rows = sum(len(section.rows) for section in card.sections)
    lines = 3.0 + 1.2 * len(card.sections) + (1.0 + write_in) * rows
    lines += 1.5 * bool(card.weapons) + len(card.weapons) * 1.2 * write_in
    lines += sum(_wrapped_lines(rule, inner, font_pt) * write_in for rule in card.rules)
    lines += 2.5 if card.track_boxes else 0
    photo = grid.height * 0.28 if card.photo_url else 0.0
    return lines * line + photo + 6.0


def card_font(card: CardSpec, grid: CardGrid) -> float:
    """Return the largest font step at which the card's content fits its height.

    The steps scale with the card's width (a mini card's text is smaller than a poker card's);
    what still does not fit at the smallest step is cut off at the card's edge, never printed
    over the next card.
    """
    scale = min(grid.width / CARD_SIZES["poker"][0], 1.15)
    steps = [round(step * scale * 4) / 4 for step in CARD_FONT_STEPS]
    for size in steps:
        if estimated_height(card, grid, size) <= grid.height:
            return size
    return steps[-1]


def _headed(card: CardSpec, grid: CardGrid, font_pt: float) -> CardSpec:
    """Shorten headings and weapon entries that would not fit their cell ("Intimid…").

    Values in the stat lines may wrap inside their cell; headings and the weapon table, whose
    cells get narrow on a mini card, are shortened with a visible mark instead.
    """
    inner = grid.width - 4.6  # the card's padding and border
    sections = tuple(
        CardSection(section.heading, tuple(
            StatCell(shorten_to(cell.label, inner / len(row) - 0.6, font_pt * 0.8), cell.value)
            for row in section.rows for cell in row))
        for section in card.sections
    )
    weapons = tuple(_weapon_fitted(w, inner, font_pt) for w in card.weapons)
    headed = [
        dataclasses.replace(w, head=bool(w.columns) and (
            i == 0 or [c.label for c in w.columns] != [c.label for c in weapons[i - 1].columns]))
        for i, w in enumerate(weapons)
    ]
    return dataclasses.replace(card, sections=sections, weapons=tuple(headed))


def _wrappable(text: str, width: float, font_pt: float, bold: bool = False) -> str:
    """Let `text` wrap between words (and after "/" in 3/6/9/12), shortening any one word
    that is wider than its cell, so a cell never breaks a word letter by letter."""
    words = text.replace("/", "/\u200b").split(" ")
    return " ".join(
        "\u200b".join(shorten_to(part, width, font_pt, bold) for part in word.split("\u200b"))
        for word in words
    )


def _weapon_fitted(weapon: WeaponRow, inner: float, font_pt: float) -> WeaponRow:
    name = _wrappable(weapon.name, inner * WEAPON_NAME_SHARE - 0.6, font_pt, bold=True)
    if not weapon.columns:
        return WeaponRow(name)
    cell = inner * (1 - WEAPON_NAME_SHARE) / len(weapon.columns) - 0.6
    columns = tuple(StatCell(shorten_to(c.label, cell, font_pt * 0.8),
                             _wrappable(c.value, cell, font_pt)) for c in weapon.columns)
    return WeaponRow(name, columns)


def _positions(grid: CardGrid) -> list[dict[str, str]]:
    return [
        {"left": css_number(grid.left + (i % grid.columns) * grid.width),
         "top": css_number(grid.top + (i // grid.columns) * grid.height)}
        for i in range(grid.per_page)
    ]


def card_sheet_context(cards: list[CardSpec], size: str = "poker", page: str = "A4",
                       title: str = "Unit cards") -> dict[str, Any]:
    """Return the `cards` template context: pages of cards, their slots and the cut marks."""
    grid = card_grid(size, page)
    positions = _positions(grid)
    fonts = [card_font(card, grid) for card in cards]
    placed = [
        {"card": _headed(card, grid, font), "font": css_number(font),
         **positions[i % grid.per_page]}
        for i, (card, font) in enumerate(zip(cards, fonts, strict=True))
    ]
    pages = [placed[i:i + grid.per_page] for i in range(0, len(placed), grid.per_page)]
    page_w, page_h = PAGE_SIZES[page]
    return {
        "title": title, "page_width": css_number(page_w), "page_height": css_number(page_h),
        "card_width": css_number(grid.width), "card_height": css_number(grid.height),
        "size": size, "pages": pages, "cut_marks": cut_marks(grid),
        "photo_height": css_number(grid.height * 0.28),
    }


