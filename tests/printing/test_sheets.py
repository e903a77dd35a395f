"""Label sheet presets: the stated geometry, validation, calibration, start position, slots."""

from __future__ import annotations

import dataclasses

import pytest

from printing.sheets import (
    PRESETS,
    Calibration,
    SheetError,
    get_preset,
    paginate,
    slots,
    validate_calibration,
    validate_preset,
    validate_start,
)


@pytest.mark.parametrize(
    ("key", "page", "shape", "size", "grid", "left", "top", "pitch"),
    [
        ("OL5275", "Letter", "round", (19.05, 19.05), (9, 12), 15.88, 16.66, (20.65, 20.65)),
        ("OL1575", "Letter", "round", (15.88, 15.88), (11, 14), 13.02, 18.67, (17.40, 17.40)),
        ("OL32", "Letter", "round", (12.7, 12.7), (11, 14), 6.35, 9.52, (19.05, 19.05)),
        ("A4-20MM", "A4", "round", (20.0, 20.0), (8, 12), 16.25, 14.75, (22.5, 22.5)),
        ("A4-12MM", "A4", "round", (12.0, 12.0), (13, 18), 9.0, 15.0, (15.0, 15.0)),
        ("AVERY5167", "Letter", "rect", (44.45, 12.7), (4, 20), 7.62, 12.7, (52.07, 12.7)),
    ],
)
def test_each_preset_has_the_geometry_its_maker_states(
    key, page, shape, size, grid, left, top, pitch
):
    preset = get_preset(key)

    assert (preset.page, preset.shape) == (page, shape)
    assert (preset.width, preset.height) == pytest.approx(size)
    assert (preset.columns, preset.rows) == grid
    assert (preset.left, preset.top) == pytest.approx((left, top))
    assert (preset.pitch_x, preset.pitch_y) == pytest.approx(pitch)


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_built_in_preset_passes_validation(key):
    assert validate_preset(PRESETS[key]) is PRESETS[key]


def test_an_unknown_preset_is_named_with_the_known_ones():
    with pytest.raises(SheetError, match=r"unknown label sheet 'OL9999'.*OL1575"):
        get_preset("OL9999")


def test_labels_closer_than_their_width_overlap():
    preset = dataclasses.replace(get_preset("OL1575"), pitch_x=15.0)

    with pytest.raises(SheetError, match="overlap across"):
        validate_preset(preset)


def test_labels_closer_than_their_height_overlap():
    preset = dataclasses.replace(get_preset("AVERY5167"), pitch_y=12.0)

    with pytest.raises(SheetError, match="overlap down"):
        validate_preset(preset)


def test_a_grid_wider_than_the_page_leaves_it():
    preset = dataclasses.replace(get_preset("OL1575"), columns=12)

    with pytest.raises(SheetError, match="leave the page across"):
        validate_preset(preset)


def test_a_grid_taller_than_the_page_leaves_it():
    preset = dataclasses.replace(get_preset("A4-12MM"), rows=20)

    with pytest.raises(SheetError, match="leave the page down"):
        validate_preset(preset)


def test_a_round_label_has_one_diameter():
    preset = dataclasses.replace(get_preset("OL1575"), height=14.0)

    with pytest.raises(SheetError, match="round label has one diameter"):
        validate_preset(preset)


def test_the_slots_run_row_by_row_from_the_first_labels_edge():
    preset = get_preset("OL1575")

    grid = slots(preset)

    assert len(grid) == 154
    assert (grid[0].centre_x, grid[0].centre_y) == pytest.approx((13.02 + 7.94, 18.67 + 7.94))
    assert (grid[12].centre_x, grid[12].centre_y) == pytest.approx(
        (13.02 + 17.40 + 7.94, 18.67 + 17.40 + 7.94)
    )


def test_calibration_shifts_every_slot_by_the_same_offset():
    preset = get_preset("A4-20MM")

    shifted = slots(preset, Calibration(x=1.5, y=-0.75))

    for plain, moved in zip(slots(preset), shifted, strict=True):
        assert (moved.centre_x - plain.centre_x, moved.centre_y - plain.centre_y) == pytest.approx(
            (1.5, -0.75)
        )


def test_a_calibration_that_pushes_labels_off_the_page_is_refused():
    preset = get_preset("OL32")  # its first label is 6.35 mm from the left edge

    with pytest.raises(SheetError, match="leave the page across"):
        validate_calibration(preset, Calibration(x=-7.0))


def test_a_calibration_beyond_ten_millimetres_is_refused():
    with pytest.raises(SheetError, match="within ±10 mm"):
        validate_calibration(get_preset("A4-20MM"), Calibration(y=12.0))


@pytest.mark.parametrize("start", [0, 155])
def test_a_start_position_off_the_sheet_is_refused(start):
    with pytest.raises(SheetError, match="start must be between 1 and 154"):
        validate_start(get_preset("OL1575"), start)


def test_a_half_used_sheet_fills_from_the_start_label_then_whole_sheets_follow():
    preset = get_preset("OL5275")  # 108 labels a sheet

    pages = paginate(150, preset, start_at=100)

    assert [len(page) for page in pages] == [9, 108, 33]
    assert pages[0][0] == 99 and pages[1][0] == 0
