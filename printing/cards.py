"""Unit cards: plain card data, laid out several to a page with cut marks in the margins.

A `CardSpec` is what one card shows; `card_sheet_context` places cards on pages of a chosen
card size (poker, tarot, mini) and paper, and works out where the cut marks go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from printing.fit import PT_PER_MM, text_width_em, wrap_to
from printing.labels import css_number, qr_data_uri
from printing.sheets import PAGE_SIZES, SheetError

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),  # 2.5" x 3.5"
    "tarot": (69.85, 120.65),  # 2.75" x 4.75"
    "mini": (44.45, 63.5),  # 1.75" x 2.5", the mini-American / mini-euro family
}
MIN_MARGIN = 5.0  # mm of paper kept round the grid: printers cannot reach the edge
CUT_MARK_GAP = 1.0  # mm between a cut mark and the card edge, so a mark never shows on a card
CUT_MARK_LENGTH = 4.0
# pt; the first whose estimated height fits wins (a card with little on it reads larger)
CARD_FONT_STEPS = (8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0)
HEADING_SHRINK_STEPS = 3
BLANK_WEAPON_ROWS = 3
MAX_CELLS_PER_ROW = 6
EMPTY_BOX, FILLED_BOX = "\u25a1", "\u25a0"  # □ ■, both in DejaVu Sans (Condensed)
CARD_INSET = 4.5  # mm: the card's padding and border on both sides, as in cards.css
CELL_GAP = 0.8  # mm kept free at the right of every column, so text never reaches a tab stop
LINE_HEIGHT = 1.2  # matches cards.css
PX_PER_MM = 96 / 25.4  # WeasyPrint rounds tab stops to whole CSS pixels


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
        return [self.cells[i : i + step] for i in range(0, len(self.cells), step)]


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
    legend: str = ""  # what the stat line's abbreviations stand for
    weapon_legend: str = ""  # what the weapon columns mean
    qr_url: str = ""  # a QR code to the figure's page, in the header's corner

    @property
    def track_text(self) -> str:
        """Return the track as box glyphs, the marked ones filled: one text run, not a box
        element per wound (which a 90-card deck pays for in thousands of boxes)."""
        marked = min(self.track_marked, self.track_boxes)
        boxes = FILLED_BOX * marked + EMPTY_BOX * (self.track_boxes - marked)
        # Groups of five, a space between: easy to count, and a long track (fifteen Hits)
        # wraps between groups instead of running off the card.
        return " ".join(boxes[i : i + 5] for i in range(0, len(boxes), 5))


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
    return {
        "x": css_number(x),
        "y": css_number(y),
        "w": css_number(max(width, 0.0)),
        "h": css_number(max(height, 0.0)),
    }


def _wrapped_lines(text: str, width_mm: float, font_pt: float) -> int:
    return len(wrap_to(text, width_mm, font_pt)) if text else 1


@dataclass(frozen=True)
class TabBlock:
    """Columns of text printed as plain lines with tab stops, one block for a whole row.

    `head` holds the column labels and `body` the values (one line, or more where a value
    wraps inside its column), tab-separated. Every cell was fitted to its column in Python, so
    WeasyPrint lays out one block with two or three lines instead of a box per cell.
    """

    columns: int
    head: str
    body: str

    @property
    def body_lines(self) -> int:
        return self.body.count("\n") + 1 if self.body else 0

    @property
    def head_lines(self) -> int:
        return self.head.count("\n") + 1 if self.head else 0


@dataclass(frozen=True)
class PrintedWeapon:
    name: str
    block: TabBlock


@dataclass(frozen=True)
class PrintedCard:
    """A card as the template prints it: every text already fitted to its place."""

    spec: CardSpec
    title: str
    subtitle: str
    sections: tuple[tuple[str, tuple[TabBlock, ...]], ...]
    weapons: tuple[PrintedWeapon, ...]
    rules: str
    slot: int
    font: int
    qr_uri: str = ""
    legend: str = ""


def column_width(grid: CardGrid, columns: int) -> float:
    """Return the width (mm) of one of `columns` equal columns, on whole CSS pixels."""
    return int((grid.width - CARD_INSET) / columns * PX_PER_MM) / PX_PER_MM


def _tabbed(
    columns: list[list[str]], wide_first: bool = False, stop_em: float = 0.0, bold: bool = False
) -> str:
    """Join wrapped cells into tab-separated lines. A wide first cell spans two tab stops: it
    is followed by two tabs when its text ends before the first stop, one when past it."""
    depth = max((len(lines) for lines in columns), default=0)
    out = []
    for i in range(depth):
        cells = [lines[i] if i < len(lines) else "" for lines in columns]
        line = "\t".join(cells[1:]) if len(cells) > 1 else ""
        if wide_first:
            gap = "\t" if text_width_em(cells[0], bold) >= stop_em else "\t\t"
            line = cells[0] + (gap + line if line.strip("\t") else "")
        else:
            line = "\t".join(cells)
        out.append(line.rstrip("\t"))
    return "\n".join(out)


def tab_block(
    cells: tuple[StatCell, ...],
    width: float,
    font_pt: float,
    blank: bool,
    head: bool = True,
    wide_first: bool = False,
) -> TabBlock:
    """Fit cells into equal columns: labels and values wrapped in their column, never cut.

    With `wide_first`, the first cell takes two columns' width (a weapon's range bands)."""
    if not cells:
        return TabBlock(1, "", "")
    room = width - CELL_GAP
    rooms = [room * 2 + CELL_GAP if wide_first and n == 0 else room for n in range(len(cells))]
    columns = len(cells) + (1 if wide_first else 0)
    stop_pt = width * PT_PER_MM
    labels = (
        _tabbed(
            [wrap_to(c.label, r, font_pt * 0.8) for c, r in zip(cells, rooms, strict=True)],
            wide_first,
            stop_pt / (font_pt * 0.8),
        )
        if head
        else ""
    )
    if blank:
        return TabBlock(columns, labels, "")
    body = _tabbed(
        [wrap_to(c.value, r, font_pt, bold=True) for c, r in zip(cells, rooms, strict=True)],
        wide_first,
        stop_pt / font_pt,
        bold=True,
    )
    return TabBlock(columns, labels, body)


def _section_blocks(
    section: CardSection, grid: CardGrid, font_pt: float, blank: bool
) -> tuple[TabBlock, ...]:
    return tuple(
        tab_block(row, column_width(grid, len(row)), font_pt, blank) for row in section.rows
    )


def _printed_weapons(
    weapons: tuple[WeaponRow, ...], grid: CardGrid, font_pt: float
) -> tuple[PrintedWeapon, ...]:
    inner = grid.width - CARD_INSET
    printed, last_head = [], None
    for weapon in weapons:
        name = "\n".join(wrap_to(weapon.name, inner, font_pt, bold=True)) if weapon.name else ""
        heads = [c.label for c in weapon.columns]
        # Range bands ("10/18/26/45") get a double column, so they stay on one line.
        wide = 2 <= len(heads) < MAX_CELLS_PER_ROW and heads[0].startswith("Range")
        columns = max(len(weapon.columns) + wide, 1)
        block = tab_block(
            weapon.columns,
            column_width(grid, columns),
            font_pt,
            False,
            head=heads != last_head,
            wide_first=wide,
        )
        printed.append(PrintedWeapon(name, block))
        last_head = heads
    return tuple(printed)


def _rules_text(card: CardSpec, width: float, font_pt: float) -> str:
    """Return the notes as lines wrapped in Python (printed under white-space: pre, so
    WeasyPrint breaks no lines itself), continuation lines indented under the bullet."""
    if card.blank:
        return ""
    lines = []
    for rule in card.rules:
        wrapped = wrap_to(f"• {rule}", width - 2.0, font_pt * 0.9)
        lines += [wrapped[0], *(f"  {line}" for line in wrapped[1:])]
    return "\n".join(lines)


def _legend_text(card: CardSpec, width: float, font_pt: float) -> str:
    """Return what the weapon columns and the abbreviations mean, wrapped in Python."""
    texts = [t for t in (card.weapon_legend, card.legend) if t]
    return "\n".join(line for t in texts for line in wrap_to(t, width, font_pt * 0.75))


def qr_size(grid: CardGrid) -> float:
    """Return the QR code's side (mm): big enough for a phone, small beside the name."""
    return round(min(grid.width * 0.2, 14.0), 2)


def _header_width(card: CardSpec, grid: CardGrid) -> float:
    inner = grid.width - CARD_INSET
    return inner - (qr_size(grid) + 1.0 if card.qr_url else 0.0)


def printed_card(
    card: CardSpec, grid: CardGrid, font_pt: float, slot: int, font: int, qr_uri: str = ""
) -> PrintedCard:
    """Fit every text of the card to its place at the chosen font size: what does not fit a
    line wraps onto the next, nothing is cut."""
    head = _header_width(card, grid)
    return PrintedCard(
        spec=card,
        title="\n".join(wrap_to(card.title, head, font_pt * 1.45, bold=True)),
        subtitle="\n".join(wrap_to(card.subtitle, head, font_pt * 0.9)),
        sections=tuple(
            (s.heading, _section_blocks(s, grid, font_pt, card.blank)) for s in card.sections
        ),
        weapons=_printed_weapons(card.weapons, grid, font_pt),
        rules=_rules_text(card, grid.width - CARD_INSET, font_pt),
        slot=slot,
        font=font,
        qr_uri=qr_uri,
        legend=_legend_text(card, grid.width - CARD_INSET, font_pt),
    )


def estimated_height(card: CardSpec, grid: CardGrid, font_pt: float) -> float:
    """Estimate the card's content height (mm) at a font size, counting its printed lines."""
    printed = printed_card(card, grid, font_pt, 0, 0)
    write_in = 2.0 if card.blank else 1.0  # blank cards leave a pen's height per entry
    title_lines = printed.title.count("\n") + 1
    sub_lines = printed.subtitle.count("\n") + 1 if printed.subtitle else 0
    lines = 1.45 * title_lines + 0.9 * sub_lines + 0.8 * len(card.sections)
    blocks = [b for _, section in printed.sections for b in section]
    lines += sum(0.8 * max(b.head_lines, 1) + max(b.body_lines, 1) * write_in for b in blocks)
    lines += (
        (
            0.8
            + sum(
                w.name.count("\n") + 1 + 0.8 * w.block.head_lines + w.block.body_lines
                for w in printed.weapons
            )
        )
        if card.weapons
        else 0
    )
    inner = grid.width - CARD_INSET
    if card.blank:
        lines += len(card.rules) * 0.9 * write_in
    else:
        lines += (printed.rules.count("\n") + 1) * 0.9 if printed.rules else 0
    lines += (printed.legend.count("\n") + 1) * 0.75 if printed.legend else 0
    # The track: a line of boxes at 2.1 em, more when it wraps (groups of five boxes).
    box_em = 2.1 * 0.7  # a box glyph is about 0.7 em wide at the boxes' size
    per_line = max(int((inner - 16.0) * PT_PER_MM / font_pt / box_em / 5), 1) * 5
    lines += 2.1 * -(-card.track_boxes // per_line) if card.track_boxes else 0
    lines += 0.8 if card.footer else 0
    photo = grid.height * 0.28 + 1.0 if card.photo_url else 0.0
    padding = 2.2 + 1.0 * (len(blocks) + bool(card.weapons) + bool(card.rules)) + 3.0
    qr = max(qr_size(grid) - (1.45 * title_lines + 0.9 * sub_lines) * font_pt / PT_PER_MM, 0.0)
    return (
        lines * LINE_HEIGHT * font_pt / PT_PER_MM + photo + padding + (qr if card.qr_url else 0.0)
    )


def _wraps_a_heading(card: CardSpec, grid: CardGrid, font_pt: float) -> bool:
    """Whether the name or a column heading would need a second line at this size."""
    printed = printed_card(card, grid, font_pt, 0, 0)
    blocks = [b for _, section in printed.sections for b in section]
    blocks += [w.block for w in printed.weapons]
    return "\n" in printed.title or any(b.head_lines > 1 for b in blocks)


def card_font(card: CardSpec, grid: CardGrid) -> float:
    """Return the font size: text that does not fit shrinks first, then wraps.

    The largest step at which the card fits its height with every heading on one line; else
    the largest at which it fits with headings wrapped. The steps scale with the card's width
    (a mini card's text is smaller than a poker card's); what still does not fit at the
    smallest step is clipped at the card's own edge, never printed over the next card.
    """
    scale = min(grid.width / CARD_SIZES["poker"][0], 1.15)
    steps = [round(step * scale * 4) / 4 for step in CARD_FONT_STEPS]
    fitting = [size for size in steps if estimated_height(card, grid, size) <= grid.height]
    # Shrinking keeps a heading on one line, but only by two steps: a long name is better
    # on two lines than the whole card in small print.
    for size in fitting[:HEADING_SHRINK_STEPS]:
        if not _wraps_a_heading(card, grid, size):
            return size
    return fitting[0] if fitting else steps[-1]


def _positions(grid: CardGrid) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "left": css_number(grid.left + (i % grid.columns) * grid.width),
            "top": css_number(grid.top + (i // grid.columns) * grid.height),
        }
        for i in range(grid.per_page)
    ]


def _tab_stops(grid: CardGrid) -> list[dict[str, Any]]:
    return [
        {"columns": n, "px": int(column_width(grid, n) * PX_PER_MM + 1e-6)}
        for n in range(1, MAX_CELLS_PER_ROW + 1)
    ]


def card_sheet_context(
    cards: list[CardSpec], size: str = "poker", page: str = "A4", title: str = "Unit cards"
) -> dict[str, Any]:
    """Return the `cards` template context: pages of cards, their slots and the cut marks.

    Positions, font sizes and tab stops are classes in the document's one style sheet rather
    than `style` attributes: WeasyPrint parses every style attribute on its own.
    """
    grid = card_grid(size, page)
    fonts = [card_font(card, grid) for card in cards]
    sizes = sorted(set(fonts), reverse=True)
    placed = [
        printed_card(card, grid, font, i % grid.per_page, sizes.index(font), _qr(card.qr_url))
        for i, (card, font) in enumerate(zip(cards, fonts, strict=True))
    ]
    pages = [placed[i : i + grid.per_page] for i in range(0, len(placed), grid.per_page)]
    page_w, page_h = PAGE_SIZES[page]
    marks = cut_marks(grid)
    return {
        "title": title,
        "page_width": css_number(page_w),
        "page_height": css_number(page_h),
        "card_width": css_number(grid.width),
        "card_height": css_number(grid.height),
        "size": size,
        "pages": pages,
        "slots": _positions(grid),
        "fonts": [css_number(f) for f in sizes],
        "tab_stops": _tab_stops(grid),
        "cut_marks": [{**mark, "index": i} for i, mark in enumerate(marks)],
        "photo_height": css_number(grid.height * 0.28),
        "qr_size": css_number(qr_size(grid)),
        # The header band is at least as tall as the QR code in its corner (less its padding),
        # so the first stat line never runs under the code.
        "qr_header": css_number(qr_size(grid) - 1.4),
    }


def _qr(url: str) -> str:
    return qr_data_uri(url) if url else ""
