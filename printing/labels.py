"""Base labels and wound stickers: lay plain label data out on a sheet preset.

Works on plain data (`LabelSpec`), so it prints the same for a roster from the database, a
preview posted to the API, or a benchmark. The result is the context of the `labels` template.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import segno

from printing.fit import (
    MARGIN,
    MIN_FONT_PT,
    Area,
    FittedText,
    fit_text_at,
    label_area,
    largest_size,
    qr_top,
)
from printing.sheets import (
    Calibration,
    SheetPreset,
    paginate,
    slots,
    validate_calibration,
    validate_preset,
    validate_start,
)

# A QR code on a round label takes this share of the diameter; enough modules to scan a short
# URL from a 3/4" label, and room left for the name below.
ROUND_QR_SHARE = 0.5


@dataclass(frozen=True)
class LabelSpec:
    """What one label says: lines (the first, the figure's name, in bold), an optional QR link
    and an optional tone (a colour class, used by the wound stickers)."""

    lines: tuple[str, ...]
    qr_url: str = ""
    tone: str = ""


@dataclass(frozen=True)
class SheetOptions:
    """How to print: the stock, the printer's calibration, the first free label, guide rings."""

    preset: SheetPreset
    calibration: Calibration = field(default_factory=Calibration)
    start_at: int = 1
    guides: bool = False

    def validated(self) -> SheetOptions:
        validate_preset(self.preset)
        validate_calibration(self.preset, self.calibration)
        validate_start(self.preset, self.start_at)
        return self


@dataclass(frozen=True)
class PlacedLabel:
    slot: int
    name: str
    rest: str
    text_class: str
    tone: str
    qr_uri: str
    shortened: bool


def css_number(value: float) -> str:
    """Format a length for CSS: plain digits and a dot, whatever the active locale."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def qr_size(preset: SheetPreset) -> float:
    """Return the side (mm) of a QR code on this stock's labels."""
    if preset.shape == "round":
        return ROUND_QR_SHARE * preset.width
    return preset.height - 2 * MARGIN * preset.height


def qr_position(preset: SheetPreset) -> tuple[float, float]:
    """Return the QR code's (left, top) inside a label, in mm from the label's edge."""
    side = qr_size(preset)
    if preset.shape == "round":
        return (preset.width - side) / 2, preset.height / 2 + qr_top(preset.width, side)
    margin = MARGIN * preset.height
    return margin, (preset.height - side) / 2


def qr_data_uri(url: str) -> str:
    """Return an SVG data URI of a QR code for `url` (vector, so sharp at any label size)."""
    return segno.make(url, error="m", micro=False).svg_data_uri(border=1)


class _TextClasses:
    """Give each distinct (font size, padding) a short CSS class name, shared across labels."""

    def __init__(self) -> None:
        self.classes: dict[tuple[float, float, float, float], str] = {}

    def name_for(self, key: tuple[float, float, float, float]) -> str:
        return self.classes.setdefault(key, f"t{len(self.classes)}")

    def as_rules(self) -> list[dict[str, str]]:
        return [
            {
                "name": name,
                "font_pt": css_number(key[0]),
                "top": css_number(key[1]),
                "left": css_number(key[2]),
                "right": css_number(key[3]),
            }
            for key, name in self.classes.items()
        ]


def _padding(preset: SheetPreset, fitted: FittedText, qr: bool) -> tuple[float, float, float]:
    top = round(preset.height / 2 + fitted.top, 2)
    if preset.shape == "round":
        return top, 0.0, 0.0
    margin = MARGIN * preset.height
    left = margin + (qr_size(preset) + margin if qr else 0.0)
    return top, round(left, 2), round(margin, 2)


def _area(spec: LabelSpec, preset: SheetPreset) -> Area:
    qr = qr_size(preset) if spec.qr_url else 0.0
    return label_area(preset.shape, preset.width, preset.height, qr)


def sheet_font(labels: list[LabelSpec], preset: SheetPreset) -> float:
    """Return the sheet's one font size: the largest at which every label fits.

    A label that does not fit even at the smallest readable size does not drag the whole
    sheet down to it: it is shortened (with "…") at the size the others share.
    """
    sizes = [largest_size(spec.lines, _area(spec, preset)) for spec in labels]
    fitting = [size for size in sizes if size is not None]
    return min(fitting) if fitting else MIN_FONT_PT


def _place(
    spec: LabelSpec, slot: int, preset: SheetPreset, classes: _TextClasses, font_pt: float
) -> PlacedLabel:
    qr = bool(spec.qr_url)
    fitted = fit_text_at(spec.lines, _area(spec, preset), font_pt)
    text_class = classes.name_for((fitted.font_pt, *_padding(preset, fitted, qr)))
    return PlacedLabel(
        slot=slot,
        name=fitted.lines[0],
        rest="\n".join(fitted.lines[1:]),
        text_class=text_class,
        tone=spec.tone,
        qr_uri=qr_data_uri(spec.qr_url) if qr else "",
        shortened=fitted.shortened,
    )


def label_sheet_context(labels: list[LabelSpec], options: SheetOptions) -> dict[str, object]:
    """Return the `labels` template context: pages of placed labels and the sheet geometry."""
    options = options.validated()
    preset = options.preset
    classes = _TextClasses()
    specs = iter(labels)
    font_pt = sheet_font(labels, preset)
    pages = [
        [_place(next(specs), slot, preset, classes, font_pt) for slot in page]
        for page in paginate(len(labels), preset, options.start_at)
    ]
    page_width, page_height = (css_number(side) for side in preset.page_size)
    qr_left, qr_top_mm = qr_position(preset)
    return {
        "page_width": page_width,
        "page_height": page_height,
        "label_width": css_number(preset.width),
        "label_height": css_number(preset.height),
        "round": preset.shape == "round",
        "guides": options.guides,
        "pages": pages,
        "slots": [
            {"index": s.index, "left": css_number(s.left), "top": css_number(s.top)}
            for s in slots(preset, options.calibration)
        ],
        "text_classes": classes.as_rules(),
        "qr": {
            "size": css_number(qr_size(preset)),
            "left": css_number(qr_left),
            "top": css_number(qr_top_mm),
        },
    }
