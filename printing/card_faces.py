"""Lay a card out by measurement: every line's height is known before WeasyPrint sees it.

The bottom band (the wound or hit track, the marks such as Shaken, the footer) is laid out
first and pinned to the card's bottom edge; the body (header, stat lines, weapons, notes)
gets the room above it. The body takes the largest type of its card size that fits, shrinking
step by step (a long name may wrap rather than shrink the whole card); what does not fit even
at the smallest type moves, block by block, to a second face of the card ("continued").
Nothing is ever clipped or shortened.

Heights are exact because every block prints one font size with a fixed line height (a row's
heading, in smaller type, sits inside the row's line height), under
`white-space: pre` with its lines broken here (printing.fit measures the fonts' advance
widths), and blocks are separated by padding and borders, never by margins that collapse.
The numbers below are the ones static/printing/cards.css uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from printing.fit import PT_PER_MM, text_width_em, wrap_to

MM_PER_PT = 1 / PT_PER_MM
BORDER = 0.25  # mm, the card's border
SIDE = 2.0  # mm of padding left and right
CARD_INSET = 2 * (BORDER + SIDE)
BAND_BOTTOM = 1.2  # mm between the band and the card's bottom border
BAND_GAP = 0.8  # mm kept free between the body and the band
HEADER_PAD = 2.2  # mm, header padding top and bottom
HEADER_AFTER = 1.0  # mm below the header
# (font size in em of the card's type, line height as a multiple of that size, extra mm)
BLOCKS: dict[str, tuple[float, float, float]] = {
    "nm": (1.45, 1.15, 0.0),  # the name, bold
    "sub": (0.9, 1.2, 0.0),  # rank, unit, Wild Card
    # A heading block of its own (a blank card's WEAPONS, a section without rows), padding
    # 0.3 mm above and below; other headings are the first line of their section's first row.
    "hd": (0.8, 1.2, 0.6),
    "tb": (1.0, 1.2, 0.65),  # a stat row: labels, then values in bold, under a rule
    "wp": (1.0, 1.2, 0.45),  # a weapon: its name and values in bold, the labels between
    "nt": (0.9, 1.2, 0.4),  # the notes (0.4 mm padding above)
    "lg": (0.8, 1.15, 0.4),  # what the abbreviations stand for
    "wl": (1.0, 2.2, 0.15),  # a line to write on (blank cards), its rule below
}
# The band: the track's boxes are big enough to cross out with a pencil.
TRACK_EM, TRACK_LINE, TRACK_LABEL_EM = 1.8, 1.25, 0.55
FOOTER_EM, FOOTER_LINE, FOOTER_PAD = 0.8, 1.2, 0.3
EMPTY_BOX, FILLED_BOX = "\u25a1", "\u25a0"  # □ ■, both in DejaVu Sans (Condensed)
HEADING_SHRINK_STEPS = 3  # a long name is better on two lines than the card in small type


@dataclass(frozen=True)
class Block:
    """One printed block: a CSS class, its text (lines joined by newlines), its height."""

    css: str
    text: str
    height: float
    keep_with_next: bool = False  # a heading never ends a face
    splittable: bool = False  # notes may continue on the next face line by line
    # (bold, text) runs printed one under the other in one block (a row's labels, its values):
    # one element instead of one per run, which is what a 90-card deck pays for.
    runs: tuple[tuple[bool, str], ...] = ()
    # A section's heading as the block's first line (smaller type, inside the block's line
    # height, so the line is as tall as the others): one element fewer than a heading block.
    heading: str = ""

    @property
    def bold_lead(self) -> bool:
        """Whether the block opens with one bold line and no heading (a weapon's name): the
        block's `::first-line` rule makes it bold, so it needs no `<b>` element."""
        return (
            not self.heading and bool(self.runs) and self.runs[0][0] and "\n" not in self.runs[0][1]
        )


def block(
    css: str,
    lines: Sequence[str],
    font_pt: float,
    *,
    tabs: int = 0,
    keep_with_next: bool = False,
    splittable: bool = False,
) -> Block:
    """Return a block of `lines` at the card's type `font_pt`, with its measured height."""
    size, line, extra = BLOCKS[css]
    height = len(lines) * size * line * font_pt * MM_PER_PT + extra
    classes = f"{css} t{tabs}" if tabs else css
    return Block(classes, "\n".join(lines), height, keep_with_next, splittable)


def run_block(
    css: str,
    runs: Sequence[tuple[bool, Sequence[str]]],
    font_pt: float,
    *,
    tabs: int = 0,
    heading: str = "",
) -> Block:
    """Return one block of runs (bold or not, their lines), all in the card's type, under
    `heading` (a section's name, upper case) if given."""
    kept = [(bold, lines) for bold, lines in runs if lines]
    count = sum(len(lines) for _, lines in kept) + (1 if heading else 0)
    size, line, extra = BLOCKS[css]
    height = count * size * line * font_pt * MM_PER_PT + extra
    classes = f"{css} t{tabs}" if tabs else css
    printed = tuple((b, "\n".join(ls)) for b, ls in kept)
    made = Block(classes, "", height, runs=printed, heading=heading.upper())
    # The first line's look comes from a ::first-line rule (cards.css), not from an element
    # around it: a 90-card deck pays for every element (about 0.5 ms each in WeasyPrint).
    if heading:
        return replace(made, css=f"{classes} hh")
    return replace(made, css=f"{classes} bn") if made.bold_lead else made


def split_block(b: Block, room: float, font_pt: float) -> tuple[Block, Block] | None:
    """Split a splittable block so its first part fits `room` mm; None if no line fits."""
    css = b.css.split()[0]
    size, line, extra = BLOCKS[css]
    per_line = size * line * font_pt * MM_PER_PT
    lines = b.text.split("\n")
    count = int((room - extra) / per_line)
    if count < 1 or count >= len(lines):
        return None
    # Break between two notes where one ends on this face, not inside a note.
    between = [n for n in range(1, count + 1) if not lines[n].startswith("  ")]
    count = between[-1] if between else count
    first = block(css, lines[:count], font_pt, splittable=True)
    return first, block(css, lines[count:], font_pt, splittable=True)


@dataclass(frozen=True)
class Band:
    """The bottom band: track lines of (label, boxes) pairs, and the footer."""

    lines: tuple[tuple[tuple[str, str], ...], ...]
    footer: str
    height: float


def boxes(count: int, marked: int = 0) -> list[str]:
    """Return the track as groups of five box glyphs, the first `marked` filled."""
    marked = min(marked, count)
    glyphs = FILLED_BOX * marked + EMPTY_BOX * (count - marked)
    return [glyphs[i : i + 5] for i in range(0, len(glyphs), 5)]


def band(track: Sequence[tuple[str, int, int]], footer: str, width: float, band_pt: float) -> Band:
    """Lay the band out: each (label, boxes, marked) after the last while the line has room."""
    room = width * PT_PER_MM / (band_pt * TRACK_EM)  # in em of the boxes' size
    lines: list[list[tuple[str, str]]] = []
    used = room + 1.0
    for label, count, marked in track:
        if count <= 0:
            continue
        label_em = text_width_em(label + " ", bold=True) * TRACK_LABEL_EM
        for n, group in enumerate(boxes(count, marked)):
            piece = (label if n == 0 else "", group)
            width_em = (label_em if n == 0 else 0.0) + text_width_em(group + "  ")
            if used + width_em > room:
                lines.append([])
                used = 0.0
            lines[-1].append(piece)
            used += width_em
    height = len(lines) * TRACK_EM * TRACK_LINE * band_pt * MM_PER_PT
    height += footer_height(band_pt) if footer else 0.0
    return Band(tuple(tuple(line) for line in lines), footer, height)


def footer_height(band_pt: float) -> float:
    """Return the footer's height (mm) with the gap above it, under the track."""
    return FOOTER_EM * FOOTER_LINE * band_pt * MM_PER_PT + FOOTER_PAD


def header_height(title_lines: int, sub_lines: int, font_pt: float, qr_min: float) -> float:
    """Return the header's height (mm): name and subtitle lines, at least the QR code's."""
    nm, sub = BLOCKS["nm"], BLOCKS["sub"]
    text = (title_lines * nm[0] * nm[1] + sub_lines * sub[0] * sub[1]) * font_pt * MM_PER_PT
    return max(text, qr_min) + HEADER_PAD + HEADER_AFTER


def wrapped(
    text: str, width: float, font_pt: float, em: float = 1.0, bold: bool = False
) -> list[str]:
    """Return `text` broken into lines that fit `width` mm at `em` of the card's type."""
    return wrap_to(text, width, font_pt * em, bold=bold) if text else []


@dataclass(frozen=True)
class Face:
    """One printed face of a card: the header's lines, the body's blocks, the band."""

    title: str
    subtitle: str
    blocks: tuple[Block, ...]
    band: Band
    font_pt: float
    header: float  # mm, the header's height (with what follows it)
    photo: bool = False
    qr: bool = False
    continued: bool = False

    @property
    def one_line_title(self) -> bool:
        """Whether the name is one line: then name and subtitle print as one block, the name
        styled by the block's ::first-line rule (two elements fewer a card than a header
        around two blocks); a wrapped name keeps a block of its own."""
        return "\n" not in self.title


def _chains(blocks: Sequence[Block]) -> list[list[Block]]:
    """Group each block with those it must stay with (a heading and its first row, a weapon's
    name, column labels and values)."""
    chains: list[list[Block]] = []
    for b in blocks:
        if chains and chains[-1][-1].keep_with_next:
            chains[-1].append(b)
        else:
            chains.append([b])
    return chains


def fill_faces(first: Face, rest: Face, blocks: Sequence[Block], room: float) -> list[Face]:
    """Place blocks on the first face while they fit `room` (mm above the band), the rest on
    continuation faces `rest`; what belongs together stays together, notes split by lines."""
    faces: list[Face] = []
    queue = _chains(blocks)
    face, used, placed = first, first.header, []
    while queue:
        chain = queue.pop(0)
        height = sum(b.height for b in chain)
        if used + height <= room:
            placed += chain
            used += height
            continue
        if len(chain) == 1 and chain[0].splittable:
            parts = split_block(chain[0], room - used, face.font_pt)
            if parts:
                placed.append(parts[0])
                chain = [parts[1]]
        if not placed and face is rest:
            # Taller than a whole face: nothing else can be done with it (the card tests
            # render every system's worst case, and no system's chain is).
            placed += chain
            used += height
            continue
        queue.insert(0, chain)
        faces.append(replace(face, blocks=tuple(placed)))
        face, used, placed = rest, rest.header, []
    faces.append(replace(face, blocks=tuple(placed)))
    return faces
