"""Printed-only cells: numbers a club may edit that only the reference sheet carries.

A few editable cells are rules the players apply themselves, and no check reads them (a Game
the 90% unit's turns per move, a Grits & Glory pistol, the victory points): the house-rules
editor says so for each ("Printed only", `rules.house.Column.sheet_only`). The sheet says so
too: a system's reference module lists them as `PRINTED_ONLY`, its sheet marks each one it
shows with `MARK` and prints `LEGEND` beside it, and `python -m rules tables` names the ones its
tables show. Row names and distances the player measures are sheet-only as well, but they are
not marked: nobody expects a check to apply a name or a measured range.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

MARK = "\u2020"
LEGEND = f"{MARK} Printed only: the table assistant does not apply this; the players do."


class PrintedOnly(NamedTuple):
    """One printed-only column: the editable table and its column (`house.py`), the reference
    table (`RuleSystem.tables`) that shows it, and where in it, e.g. `unit_types[].turns` (each
    row's `turns`) or `victory_points.*` (every value)."""

    house_table: str
    house_column: str
    table: str
    path: str


def marked(text: str) -> str:
    """A heading or cell marked as printed only."""
    return f"{text} {MARK}"


def legend() -> dict[str, str]:
    """The sheet item that explains the mark, printed in each section that shows it."""
    return {"text": LEGEND}


def shown(entries: Iterable[PrintedOnly], tables: Mapping[str, Any]) -> dict[str, Any] | None:
    """What `python -m rules tables` adds when its tables show a printed-only column: the mark's
    legend and each column's path (`table.field`); None when they show none."""
    paths = [entry.path for entry in entries if tables.get(entry.table)]
    if not paths:
        return None
    return {"mark": MARK, "legend": LEGEND, "cells": paths}
