"""How a logged event reads at the table and after it: one sentence, the dice, the effects.

The words come from the rules engine where it has them; this module only picks the names of
the figures and hands the event over as JSON, so the table, the after-battle page and the API
tell a check the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.models import BattleEvent, EventKind
from pages.activation import activation_text
from rules.system import RuleSystem


@dataclass(frozen=True)
class EventView:
    """One event as a player reads it."""

    event: BattleEvent
    sentence: str
    dice: str
    effects: tuple[str, ...]
    lines: tuple[str, ...]
    friendly_fire: bool


def words(key: Any) -> str:
    return str(key).replace("_", " ")


def dice_text(dice: Sequence[Mapping[str, Any]]) -> str:
    """Return the dice with what each was for: "to hit d12: 3 · damage d12: 4"."""
    parts = []
    for die in dice:
        label = str(die.get("label") or "").strip()
        name = f"{label} {die.get('die', '')}".strip()
        parts.append(f"{name}: {die.get('value')}" if name else str(die.get("value")))
    return " · ".join(parts)


def effect_text(effect: Mapping[str, Any], name: str) -> str:
    """Return one effect on a figure as a phrase: "Will Cooper: wounded", "+1 wound"."""
    key, value, note = words(effect.get("key", "")), effect.get("value"), effect.get("note")
    if effect.get("op") == "add":
        amount = f"{'+' if int(value or 0) >= 0 else ''}{value} {key}"
        text = f"{name}: {amount}"
    elif value is True:
        text = f"{name} is {key}"
    elif value is False:
        text = f"{name} is no longer {key}"
    elif key == "status":
        text = f"{name} is {words(value)}"
    else:
        text = f"{name}: {key} now {words(value)}"
    return f"{text} ({note})" if note else text


def _names(event: BattleEvent) -> dict[str, str]:
    actor = event.actor.name if event.actor_id else "the actor"
    target = event.target.name if event.target_id else "the target"
    return {"actor": actor, "target": target}


def check_sentence(system: RuleSystem, event: BattleEvent) -> str:
    names = _names(event)
    check = system.checks.get(event.check_name)
    title = (check.title.split(":")[0] if check else words(event.check_name)).strip()
    against = f" at {names['target']}" if event.target_id else ""
    return f"{names['actor']}: {title.lower()}{against} — {words(event.outcome)}"


def event_view(system: RuleSystem, event: BattleEvent) -> EventView:
    """Return the event in words: a sentence, its dice and effects (or activation lines)."""
    friendly = bool((event.details or {}).get("friendly_fire"))
    if event.kind == EventKind.ACTIVATION:
        headline, lines = activation_text(event.details or {})
        # The lines already show what each die decided, by unit name.
        return EventView(event, headline, "", (), lines, friendly)
    names = _names(event)
    effects = tuple(effect_text(e, names.get(e.get("who"), "")) for e in event.effects or ())
    sentence = check_sentence(system, event)
    if friendly:
        sentence = f"{sentence} (friendly fire)"
    return EventView(event, sentence, dice_text(event.dice), effects, (), friendly)
