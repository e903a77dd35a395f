"""Each document family for each system's demo force looks as its reference images do
(tests/printing/references/, regenerated on purpose with `make print-references`)."""

from __future__ import annotations

import pytest

from rules.system import all_systems
from tests.printing.references import (
    FAMILIES,
    MEAN_THRESHOLD,
    PIXEL_THRESHOLD,
    compare,
    reference_path,
    render_pages,
)

CASES = [(family, system.key) for family in FAMILIES for system in all_systems()]


@pytest.mark.parametrize(("family", "key"), CASES)
def test_the_demo_forces_pages_match_their_reference_images(family, key):
    from PIL import Image

    pages = render_pages(family, key)
    expected = sorted(
        reference_path(family, key, 0).parent.glob(f"{family}-{key}-*.png"),
        key=lambda p: int(p.stem.rsplit("-", 1)[1]),
    )

    assert len(pages) == len(expected), "page count changed: make print-references"
    for number, image in enumerate(pages):
        with Image.open(reference_path(family, key, number)) as reference:
            difference = compare(image, reference.convert("L"))
        assert difference.acceptable, (
            f"{family} {key} page {number + 1} differs from its reference: mean "
            f"{difference.mean} (limit {MEAN_THRESHOLD}), strongly different pixels "
            f"{difference.strong_share:.2%} (limit {PIXEL_THRESHOLD:.2%})"
        )


def test_the_comparison_ignores_a_one_pixel_shift_of_text_but_not_a_missing_block():
    from PIL import Image, ImageChops, ImageDraw

    page = render_pages("roster", "rencounter")[0]
    nudged = ImageChops.offset(page, 1, 0)
    blanked = page.copy()
    ImageDraw.Draw(blanked).rectangle((40, 150, 360, 260), fill=255)

    assert compare(page, page).acceptable
    assert not compare(blanked, page).acceptable
    assert compare(nudged, page).mean < compare(blanked, page).mean
    assert isinstance(page, Image.Image)
