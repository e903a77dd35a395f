"""Label sheet presets as data, their validation, and where each label slot sits on the page.

Every length is in millimetres from the top-left corner of the page. A preset gives the first
label's outer edge (left, top) and the pitch (distance from one label's edge to the next), as
label makers print them on the sheet's packaging.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MM_PER_INCH = 25.4
# Labels may not sit closer than this to the paper's edge: no printer reaches it anyway.
MAX_CALIBRATION_MM = 10.0

PAGE_SIZES: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "Letter": (215.9, 279.4),
}

Shape = Literal["round", "rect"]


class SheetError(ValueError):
    """A preset, calibration or start position that cannot be printed."""


@dataclass(frozen=True)
class Slot:
    """One label position on a page: its 0-based index, edge and centre in mm."""

    index: int
    left: float
    top: float
    centre_x: float
    centre_y: float


@dataclass(frozen=True)
class SheetPreset:
    """A label stock: page, label shape and size, grid, first-label offset and pitch."""

    key: str
    name: str
    page: str
    shape: Shape
    width: float
    height: float
    columns: int
    rows: int
    left: float
    top: float
    pitch_x: float
    pitch_y: float

    @property
    def page_size(self) -> tuple[float, float]:
        return PAGE_SIZES[self.page]

    @property
    def slots_per_sheet(self) -> int:
        return self.columns * self.rows

    def as_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "page": self.page,
            "shape": self.shape,
            "width": self.width,
            "height": self.height,
            "columns": self.columns,
            "rows": self.rows,
            "left": self.left,
            "top": self.top,
            "pitch_x": self.pitch_x,
            "pitch_y": self.pitch_y,
        }


def round_preset(
    key: str,
    name: str,
    page: str,
    diameter: float,
    grid: tuple[int, int],
    left: float,
    top: float,
    pitch: float,
) -> SheetPreset:
    """Build a round-label preset with the same pitch across and down."""
    columns, rows = grid
    return SheetPreset(
        key, name, page, "round", diameter, diameter, columns, rows, left, top, pitch, pitch
    )


def inches(value: float) -> float:
    """Convert inches to millimetres, rounded to the hundredth the presets are stated in."""
    return round(value * MM_PER_INCH, 2)


PRESETS: dict[str, SheetPreset] = {
    p.key: p
    for p in (
        round_preset(
            "OL5275",
            '3/4" round, 108 per Letter sheet (OnlineLabels OL5275)',
            "Letter",
            19.05,
            (9, 12),
            15.88,
            16.66,
            20.65,
        ),
        round_preset(
            "OL1575",
            '5/8" round, 154 per Letter sheet (OnlineLabels OL1575)',
            "Letter",
            15.88,
            (11, 14),
            13.02,
            18.67,
            17.40,
        ),
        round_preset(
            "OL32",
            '1/2" round, 154 per Letter sheet (OnlineLabels OL32)',
            "Letter",
            12.7,
            (11, 14),
            6.35,
            9.52,
            19.05,
        ),
        round_preset(
            "A4-20MM", "20 mm round, 96 per A4 sheet", "A4", 20.0, (8, 12), 16.25, 14.75, 22.5
        ),
        round_preset(
            "A4-12MM", "12 mm round, 234 per A4 sheet", "A4", 12.0, (13, 18), 9.0, 15.0, 15.0
        ),
        # Avery 5167 "return address": 1/2" x 1-3/4", 4 x 20, left 0.3", top 0.5",
        # pitch 2.05" across and 0.5" down; the long thin label suits a 15 mm sabot's lip.
        SheetPreset(
            "AVERY5167",
            'Avery 5167, 1/2" x 1 3/4", 80 per Letter sheet',
            "Letter",
            "rect",
            inches(1.75),
            inches(0.5),
            4,
            20,
            inches(0.3),
            inches(0.5),
            inches(2.05),
            inches(0.5),
        ),
    )
}
DEFAULT_PRESET = "OL1575"


def get_preset(key: str) -> SheetPreset:
    """Return a built-in preset by key or raise SheetError naming the known ones."""
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(PRESETS)
        raise SheetError(f"unknown label sheet {key!r}; known sheets: {known}") from None


def validate_preset(preset: SheetPreset) -> SheetPreset:
    """Return the preset if it can be printed; raise SheetError saying what is wrong."""
    if preset.page not in PAGE_SIZES:
        raise SheetError(f"page must be one of {', '.join(PAGE_SIZES)}, not {preset.page!r}")
    _check_sizes(preset)
    _check_no_overlap(preset)
    _check_on_page(preset, 0.0, 0.0)
    return preset


def _check_sizes(preset: SheetPreset) -> None:
    if preset.shape not in ("round", "rect"):
        raise SheetError(f"shape must be round or rect, not {preset.shape!r}")
    if preset.width <= 0 or preset.height <= 0:
        raise SheetError("label width and height must be more than 0 mm")
    if preset.shape == "round" and abs(preset.width - preset.height) > 1e-9:
        raise SheetError("a round label has one diameter: width and height must be equal")
    if preset.columns < 1 or preset.rows < 1:
        raise SheetError("a sheet needs at least one column and one row")
    if preset.left < 0 or preset.top < 0:
        raise SheetError("the first label's left and top offsets cannot be negative")


def _check_no_overlap(preset: SheetPreset) -> None:
    # A pitch smaller than the label means neighbouring labels overlap; 1 µm of slack absorbs
    # rounding in presets stated in inches.
    if preset.columns > 1 and preset.pitch_x < preset.width - 1e-3:
        raise SheetError(
            f"labels overlap across: pitch {preset.pitch_x} mm < label width {preset.width} mm"
        )
    if preset.rows > 1 and preset.pitch_y < preset.height - 1e-3:
        raise SheetError(
            f"labels overlap down: pitch {preset.pitch_y} mm < label height {preset.height} mm"
        )


def _check_on_page(preset: SheetPreset, dx: float, dy: float) -> None:
    page_w, page_h = PAGE_SIZES[preset.page]
    right = preset.left + dx + (preset.columns - 1) * preset.pitch_x + preset.width
    bottom = preset.top + dy + (preset.rows - 1) * preset.pitch_y + preset.height
    if preset.left + dx < 0 or right > page_w + 1e-3:
        raise SheetError(
            f"labels leave the page across: they span to {right:.2f} mm "
            f"on a {page_w} mm wide {preset.page} page"
        )
    if preset.top + dy < 0 or bottom > page_h + 1e-3:
        raise SheetError(
            f"labels leave the page down: they span to {bottom:.2f} mm "
            f"on a {page_h} mm tall {preset.page} page"
        )


@dataclass(frozen=True)
class Calibration:
    """A printer's offset: how far (mm) to shift everything right (x) and down (y)."""

    x: float = 0.0
    y: float = 0.0


def validate_calibration(preset: SheetPreset, calibration: Calibration) -> Calibration:
    """Return the calibration if it is small and keeps every label on the page."""
    if max(abs(calibration.x), abs(calibration.y)) > MAX_CALIBRATION_MM:
        raise SheetError(f"calibration offsets must be within ±{MAX_CALIBRATION_MM:g} mm")
    _check_on_page(preset, calibration.x, calibration.y)
    return calibration


def validate_start(preset: SheetPreset, start_at: int) -> int:
    """Return the 1-based first slot if it is on the sheet, else raise SheetError."""
    if not 1 <= start_at <= preset.slots_per_sheet:
        raise SheetError(
            f"start must be between 1 and {preset.slots_per_sheet} "
            f"(the {preset.key} sheet has {preset.slots_per_sheet} labels), "
            f"not {start_at}"
        )
    return start_at


def slots(preset: SheetPreset, calibration: Calibration = Calibration()) -> tuple[Slot, ...]:
    """Return every slot of one sheet in reading order (row by row, left to right)."""
    return tuple(_slot(preset, calibration, index) for index in range(preset.slots_per_sheet))


def _slot(preset: SheetPreset, calibration: Calibration, index: int) -> Slot:
    row, column = divmod(index, preset.columns)
    left = preset.left + calibration.x + column * preset.pitch_x
    top = preset.top + calibration.y + row * preset.pitch_y
    return Slot(index, left, top, left + preset.width / 2, top + preset.height / 2)


def paginate(count: int, preset: SheetPreset, start_at: int = 1) -> list[list[int]]:
    """Split `count` labels into pages of slot indexes; the first page starts at `start_at`."""
    pages: list[list[int]] = []
    first = start_at - 1
    remaining = count
    while remaining > 0:
        page = list(range(first, min(preset.slots_per_sheet, first + remaining)))
        pages.append(page)
        remaining -= len(page)
        first = 0
    return pages
