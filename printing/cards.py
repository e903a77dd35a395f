"""Unit cards: plain card data, laid out several to a page with cut marks in the margins.

A `CardSpec` is what one card shows; `card_sheet_context` places cards on pages of a chosen
card size (poker, bridge, tarot, mini) and paper, and works out where the cut marks go. Each
card is laid out by measurement (printing.card_faces): the track and footer first, at the
bottom; the body above it in the largest type that fits, on a second face if it must.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from typing import Any
from urllib.parse import quote

from printing.card_faces import (
    BAND_BOTTOM,
    CARD_INSET,
    EMPTY_BOX,
    FILLED_BOX,
    FOOTER_EM,
    HEADING_SHRINK_STEPS,
    TRACK_EM,
    Band,
    Block,
    Face,
    band,
    block,
    fill_faces,
    footer_height,
    header_height,
    run_block,
    wrapped,
)
from printing.fit import PT_PER_MM, text_width_em, widest_word_em, wrap_items, wrap_to
from printing.labels import css_number, qr_data_uri
from printing.sheets import PAGE_SIZES, SheetError

__all__ = ["EMPTY_BOX", "FILLED_BOX"]

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),  # 2.5" x 3.5"
    "bridge": (57.15, 88.9),  # 2.25" x 3.5"
    "tarot": (69.85, 120.65),  # 2.75" x 4.75"
    "mini": (44.45, 63.5),  # 1.75" x 2.5", the mini-American / mini-euro family
}


@dataclass(frozen=True)
class CardType:
    """The type a card size prints in: the body's steps (values, pt; the last is the least a
    value may print at), the band's size, and whether the abbreviations' legend fits."""

    steps: tuple[float, ...]
    band_pt: float
    legend: bool = True

    @property
    def minimum(self) -> float:
        return self.steps[-1]


# Mini cards print less, not smaller: no legend (the reference sheet has it), and what does
# not fit goes to a second face.
CARD_TYPES: dict[str, CardType] = {
    "poker": CardType((8.5, 8.0, 7.5, 7.0, 6.5), 7.0),
    "bridge": CardType((8.0, 7.5, 7.0, 6.5), 7.0),
    "tarot": CardType((10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5), 8.5),
    "mini": CardType((6.5, 6.0, 5.5), 6.0, legend=False),
}
MIN_MARGIN = 5.0  # mm of paper kept round the grid: printers cannot reach the edge
CUT_MARK_GAP = 1.0  # mm between a cut mark and the card edge, so a mark never shows on a card
CUT_MARK_LENGTH = 4.0
CUT_MARK_WIDTH = 0.15  # mm, a hairline that still prints
BLANK_WEAPON_ROWS = 3
MAX_CELLS_PER_ROW = 6
CELL_GAP = 0.8  # mm kept free at the right of every column, so text never reaches a tab stop
PX_PER_MM = 96 / 25.4  # WeasyPrint rounds tab stops to whole CSS pixels
LABEL_EM = 0.8  # the legend and footer print at this share of the card's type


@dataclass(frozen=True)
class StatCell:
    label: str
    value: str
    # A shorter label ("Dmg" for "Damage"), printed only where the label would otherwise be
    # broken inside a word to fit its column (a mini card's narrow columns).
    short: str = ""


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
    """What one card shows. `track_boxes` boxes are drawn; `track_marked` come pre-crossed;
    `marks` are one-box states the figure can be in (Shaken)."""

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
    marks: tuple[str, ...] = ()

    @property
    def track(self) -> tuple[tuple[str, int, int], ...]:
        """Return the band's (label, boxes, marked) runs: the track, then each mark."""
        runs = [(self.track_label, self.track_boxes, self.track_marked)]
        return tuple(runs + [(mark, 1, 0) for mark in self.marks])


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

    @property
    def kind(self) -> CardType:
        return CARD_TYPES[self.size]

    @property
    def inner(self) -> float:
        return self.width - CARD_INSET


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


@dataclass(frozen=True)
class MarkTile:
    """One background layer of the sheet that draws a set of cut marks: an SVG tile, repeated
    across (the marks above and below every column edge) or down (beside every row edge)."""

    uri: str
    width: str  # mm, as written in CSS (css_number)
    height: str
    left: str
    top: str
    repeat: str


def cut_mark_tiles(grid: CardGrid) -> list[MarkTile]:
    """Return the sheet's cut marks (short lines in the margins, in line with every card edge,
    never on a card) as at most two repeated background tiles.

    The marks above and below the first column edge, in a tile one card wide and one page
    tall, repeated across the sheet, land on every column edge; those beside the first row
    edge, in a tile one page wide and one card tall, repeated down, on every row edge. The
    margins are narrower than a card, so no repeat lands on the page outside the grid. Drawn
    this way a sheet has two background layers instead of 16 boxes: WeasyPrint pays per box,
    and the marks were 4% of a 90-card deck's render (docs/printing.md).
    """
    page_w, page_h = PAGE_SIZES[grid.page]
    bottom = grid.top + grid.rows * grid.height
    right = grid.left + grid.columns * grid.width
    down = min(CUT_MARK_LENGTH, grid.top - CUT_MARK_GAP - 0.5)
    across = min(CUT_MARK_LENGTH, grid.left - CUT_MARK_GAP - 0.5)
    # (offset along the edge's line, length) of the marks at either end of an edge.
    above_below = [
        (grid.top - CUT_MARK_GAP - down, down),
        (bottom + CUT_MARK_GAP, min(down, page_h - bottom - 1.5)),
    ]
    beside = [
        (grid.left - CUT_MARK_GAP - across, across),
        (right + CUT_MARK_GAP, min(across, page_w - right - 1.5)),
    ]
    tiles = []
    if columns := [(0.0, y, CUT_MARK_WIDTH, n) for y, n in above_below if n > 0]:
        uri = _svg_uri(grid.width, page_h, columns)
        tiles.append(_tile(uri, grid.width, page_h, grid.left, 0.0, "repeat-x"))
    if rows := [(x, 0.0, n, CUT_MARK_WIDTH) for x, n in beside if n > 0]:
        uri = _svg_uri(page_w, grid.height, rows)
        tiles.append(_tile(uri, page_w, grid.height, 0.0, grid.top, "repeat-y"))
    return tiles


def _tile(uri: str, width: float, height: float, left: float, top: float, repeat: str) -> MarkTile:
    return MarkTile(
        uri, css_number(width), css_number(height), css_number(left), css_number(top), repeat
    )


def _svg_uri(width: float, height: float, rects: list[tuple[float, float, float, float]]) -> str:
    """A data: URI of an SVG `width` x `height` mm drawing black `rects` (x, y, w, h in mm).

    Percent-encoded throughout, so it goes into a style sheet's url() unquoted and unescaped.
    """
    shapes = "".join(
        f'<rect x="{css_number(x)}" y="{css_number(y)}" width="{css_number(w)}" '
        f'height="{css_number(h)}"/>'
        for x, y, w, h in rects
    )
    w, h = css_number(width), css_number(height)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
        f'viewBox="0 0 {w} {h}">{shapes}</svg>'
    )
    return "data:image/svg+xml," + quote(svg, safe="")


def column_width(grid: CardGrid, columns: int) -> float:
    """Return the width (mm) of one of `columns` equal columns, on whole CSS pixels."""
    return int(grid.inner / columns * PX_PER_MM) / PX_PER_MM


def _tabbed(
    columns: list[list[str]], spans: Sequence[int], stop_em: float, bold: bool = False
) -> list[str]:
    """Join wrapped cells into tab-separated lines. A cell spanning two tab stops is followed
    by two tabs when its text ends before its first stop, one when past it."""
    depth = max((len(lines) for lines in columns), default=0)
    out = []
    for i in range(depth):
        cells = [lines[i] if i < len(lines) else "" for lines in columns]
        line = ""
        for cell, span in zip(cells[:-1], spans, strict=False):
            passed = int(text_width_em(cell, bold) // stop_em) if span > 1 else 0
            line += cell + "\t" * max(span - passed, 1)
        out.append((line + cells[-1]).rstrip("\t"))
    return out


@dataclass(frozen=True)
class TabRows:
    """A row of cells fitted to equal tab-stop columns: label lines, value lines."""

    columns: int
    head: list[str]
    body: list[str]


def _widest_word_mm(text: str, font_pt: float, bold: bool) -> float:
    return widest_word_em(text, bold) * font_pt / PT_PER_MM


def _cell_needs_mm(cell: StatCell, font_pt: float) -> float:
    label = _widest_word_mm(cell.label, font_pt, bold=False)
    if cell.short:  # a label too wide for its column prints its short form instead
        label = min(label, _widest_word_mm(cell.short, font_pt, bold=False))
    return max(label, _widest_word_mm(cell.value, font_pt, bold=True))


def column_spans(
    rows: Sequence[tuple[StatCell, ...]], grid: CardGrid, font_pt: float, *, wide_first: bool
) -> tuple[int, ...]:
    """Return how many equal columns each cell of `rows` (rows that share their labels) spans.

    One, or two where a word of the cell's label or value would not fit one column whole:
    Grits & Glory's "Str+d10" or "(fanfire)" on a bridge card, which wrapping would break
    between letters ("Str+d1" over "0" reads as another die). A wider cell makes every column
    narrower, so cells are widened one at a time until every word fits. With `wide_first` the
    first cell spans two (a weapon's range bands, kept on one line) unless that leaves no room
    for the others' words: range bands may wrap after a "/", a die may not break. If nothing
    fits in MAX_CELLS_PER_ROW columns, a word may break (wrap_to never cuts it off)."""
    count = len(rows[0]) if rows else 0
    if count == 0:  # a weapon the club's tables no longer describe: a name, no columns
        return ()
    needs = [max(_cell_needs_mm(row[n], font_pt) for row in rows) for n in range(count)]
    for first in (2, 1) if wide_first else (1,):
        spans = [first, *([1] * (count - 1))]
        while sum(spans) <= MAX_CELLS_PER_ROW:
            room = column_width(grid, sum(spans)) - CELL_GAP
            narrow = [n for n in range(count) if spans[n] == 1 and needs[n] > room]
            if not narrow:
                return tuple(spans)
            spans[narrow[0]] = 2
    return tuple(2 if wide_first and n == 0 else 1 for n in range(count))


def tab_rows(
    cells: tuple[StatCell, ...],
    width: float,
    font_pt: float,
    *,
    blank: bool = False,
    head: bool = True,
    spans: Sequence[int],
) -> TabRows:
    """Fit cells into equal columns of `width` mm: labels and values wrapped in the columns
    each spans (`column_spans`), never cut."""
    rooms = [span * width - CELL_GAP for span in spans]
    columns = sum(spans)
    stop_em = width * PT_PER_MM / font_pt
    labels = (
        _tabbed(
            [_label_lines(c, r, font_pt) for c, r in zip(cells, rooms, strict=True)],
            spans,
            stop_em,
        )
        if head
        else []
    )
    if blank:
        return TabRows(columns, labels, [])
    body = _tabbed(
        [wrap_to(c.value, r, font_pt, bold=True) for c, r in zip(cells, rooms, strict=True)],
        spans,
        stop_em,
        bold=True,
    )
    return TabRows(columns, labels, body)


def _label_lines(cell: StatCell, room: float, font_pt: float) -> list[str]:
    """A cell's label wrapped in its column; its short form if the label's words do not fit
    whole (more lines than words means a word was broken between letters)."""
    lines = wrap_to(cell.label, room, font_pt)
    if cell.short and len(lines) > len(cell.label.split()):
        return wrap_to(cell.short, room, font_pt)
    return lines


def _section_blocks(card: CardSpec, grid: CardGrid, font_pt: float) -> list[Block]:
    blocks: list[Block] = []
    for section in card.sections:
        if not section.rows:
            blocks.append(block("hd", [section.heading.upper()], font_pt, keep_with_next=True))
        for n, row in enumerate(section.rows):
            # A lone stat named as its heading ("Ability" under ABILITY) needs no label.
            alone = len(row) == 1 and row[0].label.lower() == section.heading.lower()
            spans = column_spans([row], grid, font_pt, wide_first=False)
            fitted = tab_rows(
                row,
                column_width(grid, sum(spans)),
                font_pt,
                blank=card.blank,
                head=not alone,
                spans=spans,
            )
            runs = [(False, fitted.head), (True, fitted.body)]
            if card.blank:
                runs = [(False, fitted.head), (False, ["\u00a0", "\u00a0"])]
            heading = section.heading if n == 0 else ""
            blocks.append(run_block("tb", runs, font_pt, tabs=fitted.columns, heading=heading))
    return blocks


def _weapon_blocks(card: CardSpec, grid: CardGrid, font_pt: float) -> list[Block]:
    if not card.weapons:
        return []
    if card.blank:
        alone = block("hd", ["WEAPONS"], font_pt, keep_with_next=True)
        return [alone] + [block("wl", ["\u00a0"], font_pt) for _ in card.weapons]
    blocks: list[Block] = []
    # Weapons in a row with the same column labels print the labels once, so they share
    # their columns.
    for heads, run in groupby(card.weapons, key=lambda w: [c.label for c in w.columns]):
        group = list(run)
        # Range bands ("10/18/26/45") get a double column, so they stay on one line.
        wide = 2 <= len(heads) < MAX_CELLS_PER_ROW and heads[0].startswith("Range")
        spans = column_spans([w.columns for w in group], grid, font_pt, wide_first=wide)
        width = column_width(grid, max(sum(spans), 1))
        for n, weapon in enumerate(group):
            fitted = tab_rows(weapon.columns, width, font_pt, head=n == 0, spans=spans)
            name = wrapped(weapon.name, grid.inner, font_pt, bold=True)
            runs = [(True, name), (False, fitted.head), (True, fitted.body)]
            heading = "" if blocks else "Weapons"
            tabs = max(fitted.columns, 1)
            blocks.append(run_block("wp", runs, font_pt, tabs=tabs, heading=heading))
    return blocks


def _note_blocks(card: CardSpec, grid: CardGrid, font_pt: float, legend: bool) -> list[Block]:
    """Return the notes as lines wrapped here (continuation lines indented under the bullet)
    and, where the size has room for it, what the abbreviations stand for, led by the card's
    footer when it has one ("Rencounter: Ex Experience · ...": `body_blocks` leaves the
    footer on the card only when the legend is to carry it)."""
    if card.blank:
        return [block("wl", ["\u00a0"], font_pt) for _ in card.rules]
    blocks = []
    lines: list[str] = []
    for rule in card.rules:
        wrapped_rule = wrap_to(f"• {rule}", grid.inner - 2.0, font_pt * 0.9)
        lines += [wrapped_rule[0], *(f"  {line}" for line in wrapped_rule[1:])]
    if lines:
        blocks.append(block("nt", lines, font_pt, splittable=True))
    texts = _legend_texts(card) if legend else []
    if texts and card.footer:
        texts[0] = f"{card.footer}: {texts[0]}"
    legend_lines = [line for t in texts for line in wrap_items(t, grid.inner, font_pt * 0.8)]
    if legend_lines:
        blocks.append(block("lg", legend_lines, font_pt, splittable=True))
    return blocks


def _legend_texts(card: CardSpec) -> list[str]:
    """What the card's abbreviations stand for (its weapon columns', then its stats'); none
    on a blank card."""
    return [] if card.blank else [t for t in (card.weapon_legend, card.legend) if t]


def body_blocks(
    card: CardSpec,
    grid: CardGrid,
    font_pt: float,
    *,
    legend: bool = True,
    captioned: bool = False,
) -> list[Block]:
    """Return every block of the card's body at the type `font_pt`, top to bottom; with
    `captioned`, the legend opens with the card's footer, which the band then leaves out.

    Figures of one profile share their body (a deck of 90 has a handful), so it is laid out
    once per profile, size and type: the figure's name, photo, QR code and track are not in
    the cache's key, nor the footer unless the legend carries it."""
    body = replace(
        card,
        title="",
        subtitle="",
        photo_url="",
        qr_url="",
        track_boxes=0,
        track_marked=0,
        marks=(),
        footer=card.footer if captioned else "",
    )
    return list(_body_blocks(body, grid, font_pt, legend and grid.kind.legend))


@lru_cache(maxsize=1024)
def _body_blocks(body: CardSpec, grid: CardGrid, font_pt: float, legend: bool) -> tuple[Block, ...]:
    return (
        *_section_blocks(body, grid, font_pt),
        *_weapon_blocks(body, grid, font_pt),
        *_note_blocks(body, grid, font_pt, legend),
    )


def qr_size(grid: CardGrid) -> float:
    """Return the QR code's side (mm): big enough for a phone, small beside the name."""
    return round(min(grid.width * 0.2, 14.0), 2)


def _header_width(card: CardSpec, grid: CardGrid) -> float:
    return grid.inner - (qr_size(grid) + 1.0 if card.qr_url else 0.0)


def photo_height(grid: CardGrid) -> float:
    return grid.height * 0.28


def _first_face(card: CardSpec, grid: CardGrid, font_pt: float, band_face: Band) -> Face:
    width = _header_width(card, grid)
    title = wrapped(card.title, width, font_pt, 1.45, bold=True) or ["\u00a0"]
    subtitle = wrapped(card.subtitle, width, font_pt, 0.9)
    qr_min = qr_size(grid) - 1.4 if card.qr_url else 0.0
    header = header_height(len(title), len(subtitle), font_pt, qr_min)
    if card.photo_url:
        header += photo_height(grid) + 1.0
    return Face(
        "\n".join(title),
        "\n".join(subtitle),
        (),
        band_face,
        font_pt,
        header,
        photo=bool(card.photo_url),
        qr=bool(card.qr_url),
    )


def _continued_face(card: CardSpec, grid: CardGrid, font_pt: float) -> Face:
    title = wrapped(f"{card.title} (continued)", grid.inner, font_pt, 1.45, bold=True)
    footer = band(
        (),
        f"{card.footer} · continued" if card.footer else "continued",
        grid.inner,
        grid.kind.band_pt,
    )
    header = header_height(len(title), 0, font_pt, 0.0)
    return Face("\n".join(title), "", (), footer, font_pt, header, continued=True)


def _room(grid: CardGrid, band_height: float) -> float:
    from printing.card_faces import BAND_BOTTOM, BAND_GAP, BORDER

    return grid.height - 2 * BORDER - BAND_BOTTOM - band_height - BAND_GAP


def _heading_wraps(face: Face, blocks: list[Block]) -> bool:
    return "\n" in face.title or any(
        not bold and "\n" in text and "\t" in text for b in blocks for bold, text in b.runs
    )


def card_faces(card: CardSpec, grid: CardGrid) -> list[Face]:
    """Lay one card out: the band first, then the body in the largest type that fits (a long
    name may wrap rather than shrink the card), overflow onto continued faces at the least.

    Where the legend prints, the footer (the system and its house rules) leads it and the band
    is the track alone: the same words, one block fewer on every card, which is what a deck's
    render time goes with (docs/printing.md)."""
    kind = grid.kind
    if kind.legend and _legend_texts(card) and card.footer:
        bare = band(card.track, "", grid.inner, kind.band_pt)
        room = _room(grid, bare.height)
        chosen = _chosen_step(card, grid, bare, room, legend=True, captioned=True)
        if chosen is not None:
            return [_placed(*chosen)]
    bottom = band(card.track, card.footer, grid.inner, kind.band_pt)
    room = _room(grid, bottom.height)
    chosen = _chosen_step(card, grid, bottom, room, legend=kind.legend)
    if chosen is None and kind.legend:
        # The legend is the first thing to go: the reference sheet explains the same words.
        chosen = _chosen_step(card, grid, bottom, room, legend=False)
    if chosen is not None:
        return [_placed(*chosen)]
    least = kind.minimum
    first = _first_face(card, grid, least, bottom)
    rest = _continued_face(card, grid, least)
    rest_room = _room(grid, rest.band.height)
    faces = fill_faces(first, rest, body_blocks(card, grid, least), room)
    if card.blank:  # a card to write on gets as many lines as fit, never a second face
        return faces[:1]
    # A continued face has a shorter band (no track): it may use the extra room.
    return [faces[0], *_refill(faces[1:], rest, rest_room)]


def _fitting(
    card: CardSpec, grid: CardGrid, bottom: Band, room: float, *, legend: bool, captioned: bool
) -> Iterator[tuple[Face, list[Block]]]:
    """Yield (face, blocks) at each step of the size's type at which the body fits, largest
    first. A generator: a deck of 90 cards mostly stops at the first step, and measuring
    every step of every card was a fifth of the time spent before WeasyPrint starts."""
    for size in grid.kind.steps:
        face = _first_face(card, grid, size, bottom)
        blocks = body_blocks(card, grid, size, legend=legend, captioned=captioned)
        if face.header + sum(b.height for b in blocks) <= room:
            yield face, blocks


def _chosen_step(
    card: CardSpec,
    grid: CardGrid,
    bottom: Band,
    room: float,
    *,
    legend: bool,
    captioned: bool = False,
) -> tuple[Face, list[Block]] | None:
    """Return the largest fitting type whose name and column labels stay on one line, among
    the first HEADING_SHRINK_STEPS that fit; else the largest that fits; None if none does."""
    largest = None
    fitting = _fitting(card, grid, bottom, room, legend=legend, captioned=captioned)
    for seen, (face, blocks) in enumerate(fitting):
        if seen == HEADING_SHRINK_STEPS:
            break
        largest = largest or (face, blocks)
        if not _heading_wraps(face, blocks):
            return face, blocks
    return largest


def _refill(faces: list[Face], rest: Face, room: float) -> list[Face]:
    blocks = [b for face in faces for b in face.blocks]
    return fill_faces(rest, rest, blocks, room) if blocks else []


def _placed(face: Face, blocks: list[Block]) -> Face:
    return replace(face, blocks=tuple(blocks))


@dataclass(frozen=True)
class PlacedFace:
    """A face in its slot on a sheet, with the CSS class of its type."""

    spec: CardSpec
    face: Face
    slot: int
    font: int
    qr_uri: str = ""

    @property
    def title(self) -> str:
        return self.face.title


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
    """Return the `cards` template context: pages of card faces, their slots, the cut marks.

    A card that needs a second face takes the next slot, so both halves are cut out side by
    side. Positions, type sizes and tab stops are classes in the document's one style sheet
    rather than `style` attributes: WeasyPrint parses every style attribute on its own.
    """
    grid = card_grid(size, page)
    faces = [(card, face) for card in cards for face in card_faces(card, grid)]
    sizes = sorted({face.font_pt for _, face in faces}, reverse=True)
    placed = [
        PlacedFace(
            card,
            face,
            i % grid.per_page,
            sizes.index(face.font_pt),
            _qr(card.qr_url) if face.qr else "",
        )
        for i, (card, face) in enumerate(faces)
    ]
    pages = [placed[i : i + grid.per_page] for i in range(0, len(placed), grid.per_page)]
    page_w, page_h = PAGE_SIZES[page]
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
        # The band: the track and the footer, each pinned to the card's bottom edge.
        "track_pt": css_number(grid.kind.band_pt * TRACK_EM),
        "footer_pt": css_number(grid.kind.band_pt * FOOTER_EM),
        "track_bottom": css_number(BAND_BOTTOM + footer_height(grid.kind.band_pt)),
        "tab_stops": _tab_stops(grid),
        "cut_mark_tiles": cut_mark_tiles(grid),
        "photo_height": css_number(photo_height(grid)),
        "qr_size": css_number(qr_size(grid)),
        # The header is at least as tall as the QR code in its corner (less its padding),
        # so the first stat line never runs under the code.
        "qr_header": css_number(qr_size(grid) - 1.4),
    }


def _qr(url: str) -> str:
    return qr_data_uri(url) if url else ""
