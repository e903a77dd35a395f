"""How a rule system's values read on a page: stat lines, equipment, state keys.

Pure functions over the rules schemas; no database. The pages show what `rules/` says a stat
is (its label, its choices' labels), so a new system needs no template change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common.stats import known_stats
from rules import narrate
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Field
from rules.system import RuleSystem

if TYPE_CHECKING:
    from battles.services.adjust import Marker

#: Battle-state values that mean a figure is out of the fight (drawn greyed, counted apart).
OUT_OF_ACTION = frozenset({"out", "dead", "removed", "routed", "captured", "fled"})


@dataclass(frozen=True)
class Stat:
    name: str
    label: str
    value: str


def value_text(field: Field, value: Any) -> str:
    """Return one stat's value as a player writes it: d8 for a die, a choice by its label."""
    if value is None or value == "" or value == []:
        return "—"
    if field.kind == "die":
        return f"d{value}" if isinstance(value, int) and value else str(value or "—")
    if field.kind == "bool":
        return "yes" if value else "no"
    if field.kind in ("choice", "multichoice"):
        labels = dict(field.choices)
        items = value if isinstance(value, list | tuple) else [value]
        return ", ".join(str(labels.get(item, item)) for item in items)
    if field.kind == "list":
        return ", ".join(str(item) for item in value)
    return str(value)


def stat_block(system: RuleSystem, stats: Mapping[str, object]) -> tuple[Stat, ...]:
    """Return the short stats (numbers, dice, choices, flags that are on), in schema order."""
    shown = []
    for field in system.stats.fields:
        if field.kind in ("multichoice", "list", "text"):
            continue
        if field.kind == "bool" and not stats.get(field.name):
            continue
        shown.append(Stat(field.name, field.title, value_text(field, stats.get(field.name))))
    return tuple(shown)


def equipment(system: RuleSystem, stats: Mapping[str, object]) -> tuple[Stat, ...]:
    """Return the list-valued stats (weapons, permanent wounds ...) that hold anything."""
    return tuple(
        Stat(field.name, field.title, value_text(field, stats.get(field.name)))
        for field in system.stats.fields
        if field.kind in ("multichoice", "list", "text") and stats.get(field.name)
    )


def stat_line(system: RuleSystem, name: str, stats: Mapping[str, object]) -> tuple[str, ...]:
    """Return the base-sticker lines after the name: the system's own compact stat line."""
    try:
        lines = system.label_text(name, stats)
    except RulesValidationError:  # a choice the house rules have since dropped
        lines = system.label_text(name, known_stats(system.stats, stats))
    return tuple(lines[1:]) if lines and lines[0] == name else tuple(lines)


def state_items(state: Mapping[str, object]) -> tuple[tuple[str, bool], ...]:
    """Return a figure's battle state as (text, is_bad) worth showing; empty values hidden.

    The status reads as itself ("wounded"), a flag by its name ("loaded"), a count as
    "wounds 2"; wounds, shaken, hits and being out of action are marked as bad news.
    """
    items = []
    for key, value in state.items():
        if value in (None, False, 0, "", [], {}):
            continue
        bad = key in ("wounds", "shaken", "hits") or str(value) in OUT_OF_ACTION
        name = key.replace("_", " ")
        text = str(value) if key == "status" else name if value is True else f"{name} {value}"
        items.append((text.replace("_", " "), bad))
    return tuple(items)


def is_out(state: Mapping[str, object]) -> bool:
    return str(state.get("status", "")) in OUT_OF_ACTION


def change_text(change: Mapping[str, object]) -> str:
    """Write a post-battle change (a `rules.campaign.Change` as JSON) as a short phrase."""
    what = str(change.get("field") or change.get("kind") or "").replace("_", " ")
    before, after = change.get("before"), change.get("after")
    if change.get("kind") == "recovers_on":
        return f"recovering until {after}"
    if change.get("kind") == "permanent_wound":
        return f"permanent wound: {after}"
    if before in (None, "", []):
        return f"{what}: {after}"
    return f"{what}: {before} → {after}"


@dataclass(frozen=True)
class Chip:
    """One chip of a figure's state; `key` names an adjustable state key (tap to take off)."""

    text: str
    bad: bool
    key: str = ""
    label: str = ""


def figure_chips(
    system: RuleSystem, state: dict[str, object], markers: tuple[Marker, ...]
) -> tuple[Chip, ...]:
    """The figure's chips in state order, each knowing the key it shows (if adjustable)."""
    adjustable = {m.key: m for m in markers}
    out = is_out(state)
    chips = []
    for key, value in state.items():
        for text, bad in narrate.state_chips(system.key, {key: value}):
            if out and not bad and key != "status":
                continue  # a man out of the fight shows what put him there
            marker = adjustable.get(key)
            chips.append(Chip(text, bad, key if marker else "", marker.label if marker else ""))
    return tuple(chips)
