"""A test-only house spec: Game the 90% with its missiles made editable, for the Django side.

The systems' own house specs (rules/systems/<s>/house.py) arrive separately; the Django side of
house rules (versions, battles fixed to a version, the API, printing, backups) is tested against
this one, installed by the `house_rules_system` fixture in place of Game the 90%. A club edits
the `missiles` table: each missile's range (which the unit card and the reference sheet quote)
and the face a `volley` check hits on. The volley check reads the table when it resolves and is
priced exactly, so a battle's odds and dice re-derive only under the pack it was played by; a
missile the club adds is offered by the check's schema, rebuilt per pack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import partial
from typing import Any

from rules import house
from rules.checks import Check, Effect, Outcome
from rules.dice import D6, Dice
from rules.house import Column, EditableTable, HouseSpec, Probe
from rules.schema import Field, Schema
from rules.system import RuleSystem
from rules.systems.game_the_90 import tables as g90
from rules.systems.game_the_90.checks import build_checks
from rules.systems.game_the_90.tables import reference_tables

KEY = "game_the_90"

Missiles = Mapping[str, Mapping[str, int]]


@dataclass(frozen=True, eq=False)
class VolleyTables(g90.G90Tables):
    """Game the 90%'s tables snapshot with the test's missiles table beside them."""

    MISSILES: Missiles = field(default_factory=dict)


BASE = VolleyTables(
    **{f.name: getattr(g90.BASE, f.name) for f in fields(g90.G90Tables)},
    MISSILES={"bows": {"range": 18, "volley": 4}, "javelins": {"range": 6, "volley": 5}},
)


def _rows() -> list[dict[str, Any]]:
    return [{"key": key, **values} for key, values in BASE.MISSILES.items()]


def _build(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"MISSILES": {r["key"]: {"range": r["range"], "volley": r["volley"]} for r in rows}}


def _probes(row: Mapping[str, Any]) -> list[Probe]:
    return [Probe("volley", {"missile": row["key"]}, f"Volley of {row['key']}")]


MISSILES_TABLE = EditableTable(
    name="missiles",
    title="Missiles",
    columns=(
        Column("key", "text", "Missile", max=20),
        Column("range", "int", 'Range "', min=1, max=48),
        Column("volley", "int", "Volley hits on", min=2, max=6),
    ),
    rows=_rows,
    build=_build,
    probes=_probes,
)


# --- the volley check: reads the snapshot's table when it resolves ------------------------------


def _resolve_volley(tables: VolleyTables, params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(D6, "volley")
    needed = tables.MISSILES[params["missile"]]["volley"]
    if face >= needed:
        return Outcome(
            "hit", {"roll": face, "needed": needed}, (Effect("target", "hits", "add", 1),)
        )
    return Outcome("miss", {"roll": face, "needed": needed})


def _volley_odds(tables: VolleyTables, params: Mapping[str, Any]) -> dict[str, Fraction]:
    needed = tables.MISSILES[params["missile"]]["volley"]
    return {"hit": Fraction(7 - needed, 6), "miss": Fraction(needed - 1, 6)}


def volley_check(tables: VolleyTables) -> Check:
    """The volley check, offering the snapshot's missiles."""
    choices = tuple((key, key.capitalize()) for key in tables.MISSILES)
    params = Schema((Field("missile", "choice", "Missile", "bows", choices=choices),))
    return Check(
        "volley",
        "Volley",
        params,
        ("hit", "miss"),
        partial(_resolve_volley, tables),
        partial(_volley_odds, tables),
        description="A test check: one D6 against the missile's volley face.",
    )


def _checks(tables: VolleyTables) -> dict[str, Check]:
    return {**build_checks(tables), "volley": volley_check(tables)}


def _tables(options: Mapping[str, Any], *, tables: VolleyTables = BASE) -> dict[str, Any]:
    sheet = reference_tables(options, tables=tables)
    ranges = {key: row["range"] for key, row in tables.MISSILES.items()}
    return {**sheet, "shooting": {**sheet["shooting"], "ranges": ranges}}


def _built_from(tables: VolleyTables, changed: tuple[str, ...]) -> dict[str, Any]:
    return {"checks": _checks(tables), "tables": partial(_tables, tables=tables)}


HOUSE = HouseSpec(module=__name__, tables=(MISSILES_TABLE,), built_from=_built_from)


def build(base: RuleSystem) -> RuleSystem:
    """Game the 90% with the volley check, its tables quoting the missiles table."""
    return replace(base, house_from=__name__, checks=_checks(BASE), tables=_tables, snapshot=BASE)


def marked_sheet(sheet: Any) -> Any:
    """The reference module's `sheet`, marking its shooting section when the pack edits missiles
    (what the systems' own reference modules do for their tables)."""

    def marked(
        tables: Mapping[str, Any], options: Mapping[str, Any], changed: Any = ()
    ) -> list[dict[str, Any]]:
        sections = sheet(tables, options, changed)
        if "missiles" not in changed:
            return sections
        return [
            {**s, "house": True} if s["title"].lower().startswith("shooting") else s
            for s in sections
        ]

    return marked


def pack(**missiles_by_key: Mapping[str, int]) -> dict[str, Any]:
    """A pack document whose missiles table holds the base missiles with these changes."""
    rows = {key: dict(values) for key, values in BASE.MISSILES.items()}
    for key, values in missiles_by_key.items():
        rows[key] = {**rows.get(key, {}), **values}
    return house.pack_document(KEY, {"missiles": [{"key": k, **v} for k, v in rows.items()]})
