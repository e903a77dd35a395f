"""Server-rendered SVG charts: geometry here, markup in `templates/pages/charts/`.

No chart library runs in the browser. Coordinates are in the SVG's own viewBox units; the
stylesheet scales the picture to the column, so one geometry serves a phone and a desktop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Approximate width of one 13px label character in viewBox units, used to size the label
#: column so that long outcome names ("hits 12 out of missiles") are not clipped.
CHAR_WIDTH = 7.2
ROW_HEIGHT = 30
BAR_HEIGHT = 20
VALUE_WIDTH = 64
BAR_AREA = 220
PAD = 8


@dataclass(frozen=True)
class Bar:
    """One bar: its label, its share (0..1) and the text written at its end."""

    label: str
    share: float
    text: str


@dataclass(frozen=True)
class PlacedBar:
    label: str
    text: str
    y: float
    width: float
    text_y: float
    value_x: float
    is_top: bool


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart: one row per outcome, longest bar the most likely."""

    title: str
    width: float
    height: float
    label_width: float
    bar_x: float
    bar_area: float
    bar_height: float
    bars: tuple[PlacedBar, ...]


def bar_chart(bars: Sequence[Bar], *, title: str) -> BarChart:
    """Lay out `bars` as horizontal bars scaled to the largest share."""
    longest = max((len(bar.label) for bar in bars), default=4)
    label_width = min(max(longest * CHAR_WIDTH, 60), 220)
    bar_x = label_width + PAD * 2
    largest = max((bar.share for bar in bars), default=0) or 1
    placed = tuple(
        _place(bar, index, bar_x, largest, bar.share == largest and bar.share > 0)
        for index, bar in enumerate(bars)
    )
    width = bar_x + BAR_AREA + VALUE_WIDTH + PAD
    return BarChart(
        title,
        width,
        len(bars) * ROW_HEIGHT + PAD,
        label_width + PAD,
        bar_x,
        BAR_AREA,
        BAR_HEIGHT,
        placed,
    )


def _place(bar: Bar, index: int, bar_x: float, largest: float, is_top: bool) -> PlacedBar:
    top = PAD / 2 + index * ROW_HEIGHT + (ROW_HEIGHT - BAR_HEIGHT) / 2
    width = round(BAR_AREA * bar.share / largest, 2)
    return PlacedBar(
        label=bar.label,
        text=bar.text,
        y=top,
        width=width,
        text_y=top + BAR_HEIGHT / 2 + 4.5,
        value_x=bar_x + width + PAD,
        is_top=is_top,
    )


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    label: str


@dataclass(frozen=True)
class Tick:
    y: float
    text: str


@dataclass(frozen=True)
class StepChart:
    """One stat's value after each entry of a career, drawn as a stepped line."""

    title: str
    width: float
    height: float
    left: float
    right: float
    points: tuple[Point, ...]
    path: str
    ticks: tuple[Tick, ...]


STEP_WIDTH = 320
STEP_HEIGHT = 120
STEP_LEFT = 30
STEP_TOP = 12
STEP_BOTTOM = 18


def step_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str,
    low: float,
    high: float,
    left: float = STEP_LEFT,
) -> StepChart:
    """Lay out (label, value) points left to right on a fixed `low..high` scale.

    A stat holds its value until the next change, so the line steps rather than slopes.
    `left` makes room for the scale's labels (four digits for a rating).
    """
    values = [value for _, value in points]
    low, high = min([low, *values]), max([high, *values])
    span = (high - low) or 1
    plot_height = STEP_HEIGHT - STEP_TOP - STEP_BOTTOM
    step = (STEP_WIDTH - left - 12) / max(len(points) - 1, 1)

    def y_of(value: float) -> float:
        return round(STEP_TOP + plot_height * (high - value) / span, 2)

    placed = tuple(
        Point(round(left + index * step, 2), y_of(value), value, label)
        for index, (label, value) in enumerate(points)
    )
    ticks = (Tick(y_of(high), _number(high)), Tick(y_of(low), _number(low)))
    return StepChart(
        title,
        STEP_WIDTH,
        STEP_HEIGHT,
        left,
        STEP_WIDTH - 12,
        placed,
        _step_path(placed),
        ticks,
    )


def _step_path(points: Sequence[Point]) -> str:
    if not points:
        return ""
    parts = [f"M{points[0].x},{points[0].y}"]
    for point in points[1:]:
        parts.append(f"H{point.x}V{point.y}")
    return " ".join(parts)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
