"""A logged battle event in words, for every page and the API alike.

The rules engine writes the sentence (`rules.narrate`); this module only hands it the event's
JSON and the figures' names, and says friendly fire as such.
"""

from __future__ import annotations

from battles.models import BattleEvent, EventKind
from common.json_types import JSONObject
from rules import narrate

#: The narration's word for an event's kind; every other kind is a check.
NARRATED_KINDS: dict[str, str] = {EventKind.ACTIVATION: "activation", EventKind.VOID: "void"}


def event_json(event: BattleEvent) -> JSONObject:
    """Return the event as the rules engine's narration reads it."""
    return {
        "check": event.check_name,
        "kind": NARRATED_KINDS.get(event.kind, "check"),
        "params": event.params or {},
        "outcome": event.outcome,
        "dice": event.dice or [],
        "details": event.details or {},
        "effects": event.effects or [],
    }


def is_friendly_fire(event: BattleEvent) -> bool:
    return bool((event.details or {}).get("friendly_fire"))


def adjustment_sentence(event: BattleEvent) -> str:
    """A hand adjustment in words: "Will Cooper: a wound point added by hand (alice: the
    grenade we forgot)"."""
    details = event.details or {}
    label, change = details.get("label") or event.params.get("key", ""), event.outcome
    count = any(e.get("op") == "add" for e in event.effects or ())
    if count:
        what = f"one {label} {'added' if change == 'add' else 'taken off'}"
    else:
        what = f"{label} {'marked' if change == 'add' else 'cleared'}"
    who = event.created_by.get_username() if event.created_by else ""
    why = ": ".join(part for part in (who, details.get("reason", "")) if part)
    name = event.actor.name if event.actor else "A figure"
    return f"{name}: {what} by hand" + (f" ({why})." if why else ".")


def event_sentence(system_key: str, event: BattleEvent) -> str:
    """Return the event as one sentence ("Will Cooper is hit: crippling wound ...")."""
    if event.kind == EventKind.ADJUSTMENT:
        return adjustment_sentence(event)
    if event.kind == EventKind.VOID:
        return f"Event #{(event.details or {}).get('voids')} voided: its effects are undone."
    actor = event.actor.name if event.actor else None
    target = event.target.name if event.target else None
    sentence = narrate.event_sentence(system_key, event_json(event), actor, target)
    if is_friendly_fire(event):
        sentence = f"{sentence.rstrip('.')} (friendly fire)."
    return sentence


def event_dice_text(event: BattleEvent) -> str:
    """Return the dice with what each was for ("to hit d12: 3 · damage d12: 4").

    An activation's dice are named after side-prefixed unit references, and its sentence
    already says what they decided, so none are listed for it.
    """
    if event.kind in (EventKind.ACTIVATION, EventKind.ADJUSTMENT, EventKind.VOID):
        return ""
    return narrate.dice_text(event.dice or [])
