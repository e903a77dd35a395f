"""Shrink label text to fit its label, and shorten (with a visible "…") what cannot fit.

Widths come from the font's own advance widths (fontTools reads the same TTF files WeasyPrint
uses), so the fit is measured, not guessed. If the font file cannot be found, a conservative
width per character is used instead, which errs toward smaller text, never toward spilling.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PT_PER_MM = 72 / 25.4
LINE_HEIGHT = 1.15  # multiple of the font size, matched by the templates' CSS
MAX_FONT_PT = 9.0
MIN_FONT_PT = 4.0  # below this a club printer's output stops being readable at the table
ELLIPSIS = "…"
MARGIN = 0.05  # of the label's smaller side: slack for die-cut labels that sit off-centre
FALLBACK_EM_PER_CHAR = 0.62  # wider than DejaVu Sans Condensed's widest common letters average

FONT_FAMILY = "DejaVu Sans Condensed"
_KNOWN_FILES = {
    False: "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    True: "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=2)
def _font_file(bold: bool) -> Path | None:
    known = Path(_KNOWN_FILES[bold])
    if known.exists():
        return known
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    pattern = f"{FONT_FAMILY}:bold" if bold else FONT_FAMILY
    found = subprocess.run([fc_match, "-f", "%{file}", pattern], capture_output=True, text=True)
    path = Path(found.stdout.strip())
    return path if path.is_file() else None


@lru_cache(maxsize=2)
def _advances(bold: bool) -> dict[int, float] | None:
    """Return each code point's advance width in em, or None when the font is missing."""
    path = _font_file(bold)
    if path is None:
        return None
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    units = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    return {code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}


@lru_cache(maxsize=65536)
def text_width_em(text: str, bold: bool = False) -> float:
    """Return the width of `text` in em (multiply by the font size for a length).

    Cached: a deck of cards measures the same labels and values at every font step.
    """
    advances = _advances(bold)
    if advances is None:
        return len(text) * FALLBACK_EM_PER_CHAR
    return sum(advances.get(ord(char), FALLBACK_EM_PER_CHAR) for char in text)


@dataclass(frozen=True)
class Area:
    """Where text may go on a label, in mm relative to the label's centre.

    `round_radius` is set for round labels (text must stay inside that circle); `width` is the
    usable width of a rectangular area; `band` is the vertical span (top, bottom) for the text.
    """

    band: tuple[float, float]
    width: float = 0.0
    round_radius: float = 0.0

    def width_at(self, y_top: float, y_bottom: float) -> float:
        """Return the usable width for a line spanning y_top..y_bottom."""
        if not self.round_radius:
            return self.width
        farthest = max(abs(y_top), abs(y_bottom))
        if farthest >= self.round_radius:
            return 0.0
        return 2 * math.sqrt(self.round_radius**2 - farthest**2)


@dataclass(frozen=True)
class FittedText:
    """Lines as printed, the font size, and the text block's top edge (mm below the centre)."""

    lines: tuple[str, ...]
    font_pt: float
    top: float
    shortened: bool


def line_height_mm(font_pt: float) -> float:
    return font_pt / PT_PER_MM * LINE_HEIGHT


def _line_bands(count: int, font_pt: float, area: Area) -> list[tuple[float, float]]:
    height = line_height_mm(font_pt)
    top = (area.band[0] + area.band[1]) / 2 - count * height / 2
    return [(top + i * height, top + (i + 1) * height) for i in range(count)]


def _fits(lines: tuple[str, ...], font_pt: float, area: Area) -> bool:
    if len(lines) * line_height_mm(font_pt) > area.band[1] - area.band[0]:
        return False
    bands = _line_bands(len(lines), font_pt, area)
    return all(
        text_width_em(line, bold=i == 0) * font_pt / PT_PER_MM <= area.width_at(*band)
        for i, (line, band) in enumerate(zip(lines, bands, strict=True))
    )


def _largest_size(lines: tuple[str, ...], area: Area) -> float | None:
    # Sizes step by 0.25 pt so a sheet of labels shares a handful of CSS classes; fitting is
    # monotonic in the size, so a binary search over the steps finds the largest.
    low, high = 0, int((MAX_FONT_PT - MIN_FONT_PT) / 0.25)
    if not _fits(lines, MIN_FONT_PT, area):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if _fits(lines, MIN_FONT_PT + middle * 0.25, area):
            low = middle
        else:
            high = middle - 1
    return MIN_FONT_PT + low * 0.25


def fit_text(lines: tuple[str, ...], area: Area) -> FittedText:
    """Return the largest font size at which every line fits; shorten lines if none does.

    The first line (the name) is bold. Lines that do not fit even at MIN_FONT_PT are shortened
    from the end and marked with "…"; lines that do not fit in height are dropped, and the last
    kept line gets the mark, so a reader can always see that something is missing.
    """
    lines = tuple(line for line in lines if line) or ("",)
    size = _largest_size(lines, area)
    if size is not None:
        return _placed(lines, size, area, shortened=False)
    kept = _drop_lines_to_height(lines, area)
    shortened = tuple(_shorten(line, i, len(kept), area) for i, line in enumerate(kept))
    return _placed(shortened, MIN_FONT_PT, area, shortened=True)


def largest_size(lines: tuple[str, ...], area: Area) -> float | None:
    """Return the largest size (0.25 pt steps) at which every line fits, None if none does."""
    return _largest_size(tuple(line for line in lines if line) or ("",), area)


def fit_text_at(lines: tuple[str, ...], area: Area, size: float) -> FittedText:
    """Return the lines at a given font size (a sheet's one size), shortened with "…" where
    they do not fit at it: every label of the sheet is shortened by the same rule."""
    lines = tuple(line for line in lines if line) or ("",)
    if _fits(lines, size, area):
        return _placed(lines, size, area, shortened=False)
    kept = _drop_lines_to_height(lines, area, size)
    shortened = tuple(_shorten(line, i, len(kept), area, size) for i, line in enumerate(kept))
    return _placed(shortened, size, area, shortened=True)


def _placed(lines: tuple[str, ...], size: float, area: Area, shortened: bool) -> FittedText:
    return FittedText(lines, size, _line_bands(len(lines), size, area)[0][0], shortened)


def _drop_lines_to_height(
    lines: tuple[str, ...], area: Area, size: float = MIN_FONT_PT
) -> tuple[str, ...]:
    fit_count = max(1, int((area.band[1] - area.band[0]) / line_height_mm(size)))
    if fit_count >= len(lines):
        return lines
    kept = lines[:fit_count]
    return (*kept[:-1], kept[-1].rstrip() + ELLIPSIS)


def _shorten(line: str, index: int, count: int, area: Area, size: float = MIN_FONT_PT) -> str:
    band = _line_bands(count, size, area)[index]
    room = area.width_at(*band) * PT_PER_MM / size  # in em
    bold = index == 0
    if text_width_em(line, bold) <= room:
        return line
    # Keep a mark that is already there (lines were dropped below this one) as well as adding one.
    text = line.removesuffix(ELLIPSIS)
    while text and text_width_em(text.rstrip() + ELLIPSIS, bold) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def shorten_to(text: str, width_mm: float, font_pt: float, bold: bool = False) -> str:
    """Return `text`, or its longest start that fits `width_mm` followed by "…"."""
    room = width_mm * PT_PER_MM / font_pt
    if text_width_em(text, bold) <= room:
        return text
    while text and text_width_em(text.rstrip() + ELLIPSIS, bold) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def label_area(shape: str, width: float, height: float, qr: float = 0.0) -> Area:
    """Return the text area of a label, leaving a margin for cutting slack and any QR code."""
    margin = MARGIN * min(width, height)
    if shape == "round":
        radius = width / 2 - margin
        top = qr_bottom(width, qr) if qr else -radius
        return Area(band=(top, radius), round_radius=radius)
    usable = width - 2 * margin - (qr + margin if qr else 0.0)
    return Area(band=(-height / 2 + margin, height / 2 - margin), width=usable)


def qr_top(diameter: float, qr: float) -> float:
    """Return how far above the centre a QR code of side `qr` starts on a round label."""
    radius = diameter / 2 - MARGIN * diameter
    return -math.sqrt(max(radius**2 - (qr / 2) ** 2, 0.0))


def qr_bottom(diameter: float, qr: float) -> float:
    """Return the y (from the centre) just below a QR code at the top of a round label."""
    return qr_top(diameter, qr) + qr + 0.03 * diameter


def _pieces(text: str) -> list[str]:
    # Break points: after spaces, after "/" so ranges like 10/18/26/45 wrap between values,
    # and after a hyphen, so a double-barrelled name breaks where a reader expects.
    pieces, current = [], ""
    for char in text:
        current += char
        if char in " /-":
            pieces.append(current)
            current = ""
    return [*pieces, current] if current else pieces


@lru_cache(maxsize=8192)
def widest_word_em(text: str, bold: bool = False) -> float:
    """The width (em) of the widest piece of `text` that `wrap_to` breaks only between letters
    (the pieces between spaces, "/" and "-"): how narrow a column may be before it must.
    Cached: a deck asks it of the same labels and values card after card."""
    return max((text_width_em(piece.rstrip(), bold) for piece in _pieces(text)), default=0.0)


def wrap_to(text: str, width_mm: float, font_pt: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width_mm` (see `_wrapped`); a new list."""
    return list(_wrapped(text, width_mm, font_pt, bold))


@lru_cache(maxsize=4096)
def wrap_items(text: str, width_mm: float, font_pt: float, sep: str = " · ") -> tuple[str, ...]:
    """Break a list written as `text` ("Ex Experience · F Fire skill · ...") into lines no
    wider than `width_mm` between its items, so an abbreviation stays beside what it stands
    for ("Hm" / "Horsemanship" split over two lines reads as two entries). An item wider than
    a line on its own is wrapped between words like any text (`wrap_to`)."""
    room = width_mm * PT_PER_MM / font_pt
    lines: list[str] = []
    current = ""
    for item in text.split(sep):
        joined = f"{current}{sep}{item}" if current else item
        if not current or text_width_em(joined) <= room:
            current = joined
            continue
        lines.append(current)
        current = item
    lines.append(current)
    return tuple(part for line in lines for part in _wrapped(line, width_mm, font_pt, False))


@lru_cache(maxsize=8192)
def _wrapped(text: str, width_mm: float, font_pt: float, bold: bool) -> tuple[str, ...]:
    """Break `text` into lines no wider than `width_mm`, between words (and after "/", "-").

    A single word wider than the width is broken between letters: nothing is ever cut off or
    shortened. Returns at least one line (empty for empty text).
    """
    room = width_mm * PT_PER_MM / font_pt
    lines: list[str] = []
    current = ""
    for piece in _pieces(text):
        if current and text_width_em((current + piece).rstrip(), bold) > room:
            lines.append(current.rstrip())
            current = ""
        current += piece
    lines.append(current.rstrip())
    return tuple(part for line in lines for part in _split_letters(line, room, bold))


def _split_letters(line: str, room_em: float, bold: bool) -> list[str]:
    parts: list[str] = []
    while text_width_em(line, bold) > room_em and len(line) > 1:
        cut = len(line) - 1
        while cut > 1 and text_width_em(line[:cut], bold) > room_em:
            cut -= 1
        parts.append(line[:cut])
        line = line[cut:]
    return [*parts, line]
