"""Visual references: every document family for every system's demo force, as page images.

`render_pages(family, key)` renders the document and rasterises its pages with PDFium
(pypdfium2, a pip-installed dev dependency: no system package needed) at a low resolution, in
grey. `compare(actual, expected)` blurs both a little before comparing, so a glyph drawn half a
pixel over on another machine's font rasteriser does not count, while a moved block, a missing
table or a different font size does.

Regenerate the reference PNGs on purpose, after looking at what changed:

    make print-references        # python -m tests.printing.references
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

REFERENCES = Path(__file__).resolve().parent / "references"
DPI = 50  # enough to see layout and text blocks; small enough to keep in the repository
# Cards at every size; every other family once; the system's wound or hit stickers.
CARD_FAMILIES = ("cards-poker", "cards-bridge", "cards-tarot", "cards-mini")
FAMILIES = (*CARD_FAMILIES, "reference", "roster", "labels", "stickers")
# A page differs when its blurred images differ by more than this on average (0-255 scale)...
MEAN_THRESHOLD = 1.5
# ...or when more than this share of its pixels differ by more than a quarter of the range.
PIXEL_THRESHOLD = 0.004
STRONG_DIFFERENCE = 64


def _document(family: str, key: str):
    from printing.documents import (
        cards_document,
        chosen_figures,
        labels_document,
        reference_document,
        roster_document,
        sticker_codes,
        stickers_document,
    )
    from printing.labels import SheetOptions
    from printing.sheets import get_preset
    from rules.system import get_system
    from tests.printing.demo_forces import demo_figures, demo_force

    system = get_system(key)
    options = system.options.validate({})
    figures = demo_figures(key)
    if family.startswith("cards-"):
        size = family.removeprefix("cards-")
        return cards_document(
            system, chosen_figures(figures), options, size=size, page="A4", blanks=1, qr=True
        )
    if family == "stickers":
        counts = {code: 4 for code, _, _ in sticker_codes(key)}
        return stickers_document(counts, True, SheetOptions(get_preset("OL5275")), system_key=key)
    if family == "reference":
        return reference_document(system, options, campaign=f"{system.name} demo campaign")
    if family == "roster":
        return roster_document(system, demo_force(key), figures, options)
    plain = [replace(f, qr_url="") for f in figures]  # text only: the QR code is its own test
    return labels_document(system, plain, SheetOptions(get_preset("OL5275")))


def render_pages(family: str, key: str) -> list:
    """Return the document's pages as greyscale PIL images at DPI."""
    import pypdfium2 as pdfium

    from printing.render import render_pdf

    document = _document(family, key)
    pdf = pdfium.PdfDocument(io.BytesIO(render_pdf(document.family, document.parts[0])))
    try:
        return [page.render(scale=DPI / 72).to_pil().convert("L") for page in pdf]
    finally:
        pdf.close()


def reference_path(family: str, key: str, page: int) -> Path:
    return REFERENCES / f"{family}-{key}-{page + 1}.png"


@dataclass(frozen=True)
class Difference:
    mean: float
    strong_share: float

    @property
    def acceptable(self) -> bool:
        return self.mean <= MEAN_THRESHOLD and self.strong_share <= PIXEL_THRESHOLD


def compare(actual, expected) -> Difference:
    """Compare two page images after a small blur (robust to sub-pixel glyph differences)."""
    from PIL import ImageChops, ImageFilter, ImageStat

    if actual.size != expected.size:
        return Difference(255.0, 1.0)
    blur = ImageFilter.BoxBlur(1)
    diff = ImageChops.difference(actual.filter(blur), expected.filter(blur))
    mean = ImageStat.Stat(diff).mean[0]
    histogram = diff.histogram()
    strong = sum(histogram[STRONG_DIFFERENCE:]) / max(sum(histogram), 1)
    return Difference(round(mean, 3), round(strong, 5))


def regenerate() -> list[Path]:
    """Render every family x system and write the reference PNGs (old pages removed)."""
    from rules.system import all_systems

    REFERENCES.mkdir(exist_ok=True)
    for old in REFERENCES.glob("*.png"):
        old.unlink()
    written = []
    for family in FAMILIES:
        for system in all_systems():
            for number, image in enumerate(render_pages(family, system.key)):
                path = reference_path(family, system.key, number)
                image.save(path, optimize=True)
                written.append(path)
    return written


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    for path in regenerate():
        print(path.relative_to(root))


if __name__ == "__main__":
    main()
