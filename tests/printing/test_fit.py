"""Label text fitting: the largest size that fits, and a visible mark when it cannot."""

from __future__ import annotations

import pytest

from printing.fit import (
    ELLIPSIS,
    MIN_FONT_PT,
    PT_PER_MM,
    fit_text,
    label_area,
    line_height_mm,
    text_width_em,
)

GRIDLEY = ("Sgt. Gridley", "F 7 M 6", "Ex 4")


def _every_line_fits(fitted, area) -> bool:
    height = line_height_mm(fitted.font_pt)
    for index, line in enumerate(fitted.lines):
        top = fitted.top + index * height
        width = text_width_em(line, bold=index == 0) * fitted.font_pt / PT_PER_MM
        if width > area.width_at(top, top + height) + 1e-9:
            return False
    return (
        fitted.top >= area.band[0] - 1e-9
        and fitted.top + len(fitted.lines) * height <= area.band[1] + 1e-9
    )


@pytest.mark.parametrize(
    ("shape", "width", "height"),
    [
        ("round", 12.0, 12.0),
        ("round", 15.88, 15.88),
        ("round", 20.0, 20.0),
        ("rect", 44.45, 12.7),
    ],
)
def test_the_rencounter_label_fits_whole_on_every_stock(shape, width, height):
    area = label_area(shape, width, height)

    fitted = fit_text(GRIDLEY, area)

    assert fitted.lines == GRIDLEY and not fitted.shortened
    assert _every_line_fits(fitted, area)


def test_a_bigger_label_gets_bigger_text():
    small = fit_text(GRIDLEY, label_area("round", 12.0, 12.0))
    large = fit_text(GRIDLEY, label_area("round", 20.0, 20.0))

    assert large.font_pt > small.font_pt


def test_a_name_too_long_is_shortened_with_a_visible_mark():
    area = label_area("round", 12.7, 12.7)
    name = "Lieutenant-Colonel Bartholomew Fitzwilliam-Smythe"

    fitted = fit_text((name, "F 7 M 6"), area)

    assert fitted.shortened and fitted.font_pt == MIN_FONT_PT
    assert fitted.lines[0].endswith(ELLIPSIS)
    assert name.startswith(fitted.lines[0].removesuffix(ELLIPSIS))
    assert _every_line_fits(fitted, area)


def test_lines_beyond_the_labels_height_are_dropped_and_the_last_kept_is_marked():
    area = label_area("round", 12.0, 12.0)
    lines = ("Sgt. Gridley", *(f"line {n}" for n in range(10)))

    fitted = fit_text(lines, area)

    assert len(fitted.lines) < len(lines)
    assert fitted.lines[-1].endswith(ELLIPSIS)
    assert _every_line_fits(fitted, area)


def test_a_qr_code_leaves_less_room_for_the_text():
    plain = fit_text(GRIDLEY, label_area("rect", 44.45, 12.7))
    with_qr = fit_text(GRIDLEY, label_area("rect", 44.45, 12.7, qr=11.4))

    assert with_qr.font_pt <= plain.font_pt
    assert _every_line_fits(with_qr, label_area("rect", 44.45, 12.7, qr=11.4))


def test_wrap_to_breaks_between_words_and_after_slashes_within_the_width():
    from printing.fit import text_width_em, wrap_to

    lines = wrap_to("10/18/26/45 long range", 8.0, 7.0)

    assert "".join(lines).replace(" ", "") == "10/18/26/45longrange"
    assert len(lines) > 1
    assert all(text_width_em(line) * 7.0 / PT_PER_MM <= 8.0 for line in lines)


def test_wrap_to_breaks_a_single_word_wider_than_the_column_between_letters_never_cutting_it():
    from printing.fit import text_width_em, wrap_to

    lines = wrap_to("Horsemanshipfulness", 5.0, 7.0)

    assert "".join(lines) == "Horsemanshipfulness" and len(lines) > 1
    assert not any("…" in line for line in lines)
    assert all(text_width_em(line) * 7.0 / PT_PER_MM <= 5.0 for line in lines)


def test_wrap_to_breaks_a_double_barrelled_name_after_its_hyphen():
    from printing.fit import wrap_to

    assert wrap_to("Featherstonehaugh-Smythe", 30.0, 9.0) == ["Featherstonehaugh-", "Smythe"]
