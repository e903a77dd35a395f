"""How a logged event reads at the table and after it: one sentence, its dice, extra lines.

The sentence comes from the rules engine (through `battles.words`, which the API shares);
an activation adds a line per die roll or counter so a tie and its re-roll can be followed.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.models import BattleEvent, EventKind
from battles.words import event_dice_text, event_sentence, is_friendly_fire
from pages.activation import activation_lines
from rules.system import RuleSystem


@dataclass(frozen=True)
class EventView:
    """One event as a player reads it."""

    event: BattleEvent
    sentence: str
    dice: str
    lines: tuple[str, ...]
    friendly_fire: bool


def event_view(system: RuleSystem, event: BattleEvent) -> EventView:
    """Return the event in words: its sentence, its dice, an activation's extra lines."""
    lines = activation_lines(event.details or {}) if event.kind == EventKind.ACTIVATION else ()
    return EventView(
        event,
        event_sentence(system.key, event),
        event_dice_text(event),
        lines,
        is_friendly_fire(event),
    )
