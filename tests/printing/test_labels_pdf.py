"""Label sheets as printed: page size, label count, each label's centre, each figure's text."""

from __future__ import annotations

import pytest

from printing.documents import stickers_document, wound_stickers
from printing.labels import LabelSpec, SheetOptions, label_sheet_context, qr_position, qr_size
from printing.render import render_pdf
from printing.sheets import PAGE_SIZES, Calibration, get_preset, slots
from tests.printing.pdfs import MM_PER_PT, boxes_mm, open_pdf, page_size_mm, page_text

TOLERANCE_MM = 0.2


def _figures(count: int) -> list[LabelSpec]:
    return [LabelSpec((f"Trooper {n}", "F 7 M 6", "Ex 4")) for n in range(1, count + 1)]


def _render(labels, key, **options):
    preset = get_preset(key)
    return preset, render_pdf(
        "labels", label_sheet_context(labels, SheetOptions(preset, guides=True, **options))
    )


@pytest.mark.parametrize("key", ["OL5275", "OL1575", "OL32", "A4-20MM", "A4-12MM", "AVERY5167"])
def test_each_label_sits_where_the_preset_says(key):
    preset, pdf = _render(_figures(7), key)

    page = open_pdf(pdf).pages[0]
    found = boxes_mm(page, preset.width, preset.height)

    assert page_size_mm(page) == pytest.approx(PAGE_SIZES[preset.page], abs=TOLERANCE_MM)
    assert len(found) == 7
    for box, slot in zip(found, slots(preset)[:7], strict=True):
        assert box.centre == pytest.approx((slot.centre_x, slot.centre_y), abs=TOLERANCE_MM)


def test_start_and_calibration_move_the_labels_to_the_right_slots():
    calibration = Calibration(x=1.2, y=-0.8)
    preset, pdf = _render(_figures(5), "A4-20MM", start_at=40, calibration=calibration)

    found = boxes_mm(open_pdf(pdf).pages[0], preset.width, preset.height)

    expected = slots(preset, calibration)[39:44]
    assert len(found) == 5
    for box, slot in zip(found, expected, strict=True):
        assert box.centre == pytest.approx((slot.centre_x, slot.centre_y), abs=TOLERANCE_MM)


def test_every_figures_text_is_printed_on_its_label():
    _, pdf = _render(_figures(12), "OL1575")

    text = page_text(open_pdf(pdf).pages[0])

    for n in range(1, 13):
        assert f"Trooper {n}" in text
    assert text.count("F 7 M 6") == 12 and text.count("Ex 4") == 12


def test_each_name_is_centred_on_its_label():
    preset, pdf = _render(_figures(3), "OL5275")

    page = open_pdf(pdf).pages[0]
    for slot in slots(preset)[:3]:
        inside = [
            w
            for w in page.extract_words()
            if slot.left <= w["x0"] * MM_PER_PT
            and w["x1"] * MM_PER_PT <= slot.left + 19.05
            and slot.top <= w["top"] * MM_PER_PT <= slot.top + 19.05
        ]
        first_line = [w for w in inside if w["top"] == min(x["top"] for x in inside)]
        centre = (min(w["x0"] for w in first_line) + max(w["x1"] for w in first_line)) / 2
        assert centre * MM_PER_PT == pytest.approx(slot.centre_x, abs=TOLERANCE_MM)


def test_more_labels_than_slots_run_onto_more_pages():
    preset, pdf = _render(_figures(130), "OL5275", start_at=100)  # 9 on the first sheet

    document = open_pdf(pdf)

    assert [len(boxes_mm(p, preset.width, preset.height)) for p in document.pages] == [9, 108, 13]
    assert "Trooper 130" in page_text(document.pages[2])


def test_a_name_too_long_is_printed_shortened_with_a_mark():
    labels = [LabelSpec(("Lieutenant-Colonel Bartholomew Fitzwilliam", "F 7 M 6"))]
    _, pdf = _render(labels, "OL32")

    text = page_text(open_pdf(pdf).pages[0])

    assert "Lieutenant" in text and "…" in text and "Fitzwilliam" not in text


def test_a_qr_code_is_drawn_in_its_square_when_a_link_is_given():
    labels = [LabelSpec(("Sgt. Gridley", "F 7 M 6"), qr_url="https://muster.example/c/1")]
    preset, pdf = _render(labels, "AVERY5167")
    slot = slots(preset)[0]
    left, top = qr_position(preset)
    side = qr_size(preset)

    page = open_pdf(pdf).pages[0]
    modules = page.lines + page.rects[2:] + page.curves  # the first two rects are the guide

    assert len(modules) > 20
    for shape in modules:
        assert slot.left + left - 0.01 <= shape["x0"] * MM_PER_PT
        assert shape["x1"] * MM_PER_PT <= slot.left + left + side + 0.01
        assert slot.top + top - 0.01 <= shape["top"] * MM_PER_PT
        assert shape["bottom"] * MM_PER_PT <= slot.top + top + side + 0.01
    assert "Sgt. Gridley" in page_text(page)


def test_wound_stickers_print_each_code_as_often_as_asked():
    preset = get_preset("A4-12MM")
    document = stickers_document({"MW": 5, "SW": 3, "CW": 2}, True, SheetOptions(preset))

    pdf = render_pdf(document.family, document.parts[0])
    page = open_pdf(pdf).pages[0]
    words = [w["text"] for w in page.extract_words()]
    filled = boxes_mm(page, preset.width, preset.height)

    assert (words.count("MW"), words.count("SW"), words.count("CW")) == (5, 3, 2)
    assert len(filled) == 10
    for box, slot in zip(filled, slots(preset), strict=False):
        assert box.centre == pytest.approx((slot.centre_x, slot.centre_y), abs=TOLERANCE_MM)


def test_plain_wound_stickers_have_no_colour():
    assert {s.tone for s in wound_stickers({"MW": 2, "CW": 1}, colour=False)} == {""}
    assert [s.tone for s in wound_stickers({"MW": 1, "CW": 1}, colour=True)] == ["mw", "cw"]


def test_every_label_on_a_sheet_shares_one_font_size_the_largest_that_fits_them_all():
    from printing.fit import label_area, largest_size
    from printing.labels import LabelSpec, SheetOptions, label_sheet_context
    from printing.sheets import get_preset

    preset = get_preset("OL1575")
    specs = [
        LabelSpec(("Ned", "F 7 M 6")),
        LabelSpec(("Sgt. Gridley", "F 7 M 6", "Ex 4")),
        LabelSpec(("Bartholomew Featherstonehaugh-Smythe the Younger of Ditchling", "F 7")),
    ]

    context = label_sheet_context(specs, SheetOptions(preset))

    assert len({rule["font_pt"] for rule in context["text_classes"]}) == 1
    area = label_area("round", preset.width, preset.height)
    expected = min(
        size for size in (largest_size(s.lines, area) for s in specs) if size is not None
    )
    assert float(context["text_classes"][0]["font_pt"]) == expected
    labels = [label for page in context["pages"] for label in page]
    assert [label.shortened for label in labels] == [False, False, True]
    assert labels[2].name.endswith("…")


def test_a_name_too_long_for_any_label_is_shortened_the_same_way_on_every_sheet():
    from printing.labels import LabelSpec, SheetOptions, label_sheet_context
    from printing.sheets import get_preset

    long = LabelSpec(("Bartholomew Featherstonehaugh-Smythe the Younger of Ditchling", "F 7"))
    options = SheetOptions(get_preset("OL1575"))

    first = label_sheet_context([long, LabelSpec(("Ned", "F 7"))], options)["pages"][0][0]
    again = label_sheet_context([long, LabelSpec(("Ned", "F 7"))], options)["pages"][0][0]

    assert first.name == again.name and first.name.endswith("…")
