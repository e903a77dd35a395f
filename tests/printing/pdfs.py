"""Read printed PDFs back in millimetres (pdfplumber's units are points, origin top-left)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pdfplumber

MM_PER_PT = 25.4 / 72


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.left + self.width / 2, self.top + self.height / 2


def open_pdf(pdf: bytes) -> pdfplumber.PDF:
    return pdfplumber.open(io.BytesIO(pdf))


def page_size_mm(page: pdfplumber.page.Page) -> tuple[float, float]:
    return page.width * MM_PER_PT, page.height * MM_PER_PT


def boxes_mm(
    page: pdfplumber.page.Page, width: float, height: float, tolerance: float = 0.1
) -> list[Box]:
    """Return drawn shapes (rects and curves) of about width x height mm, in reading order."""
    found = []
    for shape in page.rects + page.curves:
        box = Box(
            shape["x0"] * MM_PER_PT,
            shape["top"] * MM_PER_PT,
            (shape["x1"] - shape["x0"]) * MM_PER_PT,
            (shape["bottom"] - shape["top"]) * MM_PER_PT,
        )
        if abs(box.width - width) <= tolerance and abs(box.height - height) <= tolerance:
            found.append(box)
    # A card's fill and its border are two shapes with the same outline: count it once.
    unique = {(round(b.left, 2), round(b.top, 2)): b for b in found}
    return sorted(unique.values(), key=lambda b: (round(b.top, 1), b.left))


def page_text(page: pdfplumber.page.Page) -> str:
    """Return the page's words in the order they were drawn (each cell's text stays together,
    where reading order would interleave the lines of two wrapped table cells)."""
    words = page.extract_words(use_text_flow=True, keep_blank_chars=False)
    return " ".join(word["text"].replace("\u200b", "") for word in words)
