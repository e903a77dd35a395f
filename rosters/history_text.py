"""A service-record entry said as a list of changes in the game's terms:
"Fire skill: 6 → 7", "Status: Active → Dead", never the raw JSON before/after."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rosters.models import CharacterStatus
from rules.errors import UnknownSystem
from rules.schema import Field
from rules.system import get_system

#: One changed field in words: (what, before, after).
ChangeLine = tuple[str, str, str]

TITLES = {
    "name": "Name",
    "rank": "Rank",
    "status": "Status",
    "unit": "Unit",
    "permanent_wounds": "Permanent wounds",
    "notes": "Notes",
    "photo": "Photo",
}


def stat_text(field: Field | None, value: object) -> str:
    """Return a stat as a player writes it: d8 for a die, a choice by its label."""
    if value is None or value == "" or value == []:
        return "—"
    if field is None:
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    if field.kind == "die":
        return f"d{value}" if isinstance(value, int) else str(value)
    if field.kind == "bool":
        return "yes" if value else "no"
    if field.kind in ("choice", "multichoice"):
        labels = dict(field.choices)
        items = value if isinstance(value, list | tuple) else [value]
        return ", ".join(str(labels.get(item, item)) for item in items)
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def _plain(name: str, value: Any) -> str:
    if name == "status" and value:
        return str(CharacterStatus(value).label) if value in CharacterStatus.values else value
    if name == "permanent_wounds" and value:
        return "; ".join(w.get("text", str(w)) if isinstance(w, dict) else str(w) for w in value)
    return stat_text(None, value)


def change_lines(
    system_key: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[ChangeLine]:
    """Return (what, before, after) for every field and stat an entry changed, in order."""
    try:
        fields = {f.name: f for f in get_system(system_key).stats.fields}
    except UnknownSystem:
        fields = {}
    lines: list[ChangeLine] = []
    for name in TITLES.keys() | {"stats"}:
        if name not in before and name not in after:
            continue
        if name == "stats":
            lines.extend(_stat_lines(fields, before.get("stats") or {}, after.get("stats") or {}))
        elif before.get(name) != after.get(name):
            lines.append(
                (TITLES[name], _plain(name, before.get(name)), _plain(name, after.get(name)))
            )
    return sorted(lines, key=lambda line: _order(line[0], fields))


def _stat_lines(
    fields: Mapping[str, Field], old: Mapping[str, object], new: Mapping[str, object]
) -> list[ChangeLine]:
    names = [n for n in fields if n in old or n in new] + sorted(
        n for n in {*old, *new} if n not in fields
    )
    return [
        (
            fields[n].title if n in fields else n.replace("_", " ").capitalize(),
            stat_text(fields.get(n), old.get(n)),
            stat_text(fields.get(n), new.get(n)),
        )
        for n in names
        if old.get(n) != new.get(n)
    ]


def _order(title: str, fields: Mapping[str, Field]) -> int:
    plain = list(TITLES.values())
    stats = [f.title for f in fields.values()]
    if title in plain[:4]:
        return plain.index(title)
    if title in stats:
        return 10 + stats.index(title)
    return 1000 + (plain.index(title) if title in plain else 0)
