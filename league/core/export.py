"""Standings as CSV text, ready for a spreadsheet or the club's noticeboard."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from league.core.records import PlayerId
from league.core.settings import TIE_BREAKERS
from league.core.standings import POINTS, StandingRow

HEADER = (
    "Rank",
    "Player",
    "Played",
    "Won",
    "Drawn",
    "Lost",
    "Byes",
    "Result points",
    "Bonus points",
    "Adjustment points",
    "Points",
    "VP for",
    "VP against",
    "VP difference",
    "Figures lost",
    "Strength of schedule",
    "Placed below the row above by",
    "Adjustments",
)
SEPARATION_LABELS = {POINTS: "Points", **TIE_BREAKERS}
# A spreadsheet runs a cell starting with one of these as a formula; a player could name
# themself "=HYPERLINK(...)". A leading apostrophe makes the spreadsheet show it as text.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def standings_csv(rows: Sequence[StandingRow], names: Mapping[PlayerId, str] | None = None) -> str:
    """Return the table as CSV text, one line per row, players shown by `names` if given."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(_csv_line(row, names or {}) for row in rows)
    return buffer.getvalue()


def _csv_line(row: StandingRow, names: Mapping[PlayerId, str]) -> tuple[object, ...]:
    name = names.get(row.player, str(row.player))
    separated = SEPARATION_LABELS.get(row.separated_by, "") if row.separated_by else ""
    reasons = "; ".join(f"{a.reason} ({a.points:+d})" for a in row.adjustments)
    return (
        row.rank,
        _as_text(name),
        row.played,
        row.won,
        row.drawn,
        row.lost,
        row.byes,
        row.result_points,
        row.bonus_points,
        row.adjustment_points,
        row.points,
        row.vp_for,
        row.vp_against,
        row.vp_difference,
        row.figures_lost,
        row.strength_of_schedule,
        separated,
        _as_text(reasons),
    )


def _as_text(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_STARTS) else value
