"""The battle log's hash chain: each event commits to the one before it.

An event's hash is SHA-256 over the previous event's hash and the event's canonical JSON
(sorted keys, no spaces, UTF-8). The JSON holds what the event says happened and never
changes: its number, kind, check, the figures by name, parameters, dice, outcome, details,
effects and turn. Not the `voided` flag (a void is an event of its own), not row ids (a
campaign export gives them new ones) and not who typed it (a deleted account is nulled).

The battle keeps the newest event's hash as `log_head`; each event keeps the hash before it
as `prev_hash`. Editing any event afterwards breaks the link to the next one (or, for the
newest, the head), and `chain_breaks` names the first event that no longer matches.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from battles.models import BattleEvent, BattleFigure

#: The chain's first link: the hash the first event commits to.
GENESIS = "0" * 64


class ChainBreak(TypedDict):
    """An event whose link in the hash chain does not hold, and how."""

    seq: int
    problem: str


def _name(figure: BattleFigure | None) -> str | None:
    return figure.name if figure is not None else None


def event_canonical(event: BattleEvent) -> bytes:
    """Return the event's canonical JSON: what it says happened, in one fixed byte form."""
    document = {
        "seq": event.seq,
        "kind": event.kind,
        "check": event.check_name,
        "actor": _name(event.actor) if event.actor_id else None,
        "target": _name(event.target) if event.target_id else None,
        "params": event.params or {},
        "dice": event.dice or [],
        "dice_given": bool(event.dice_given),
        "outcome": event.outcome,
        "details": event.details or {},
        "effects": event.effects or [],
        "turn": event.turn,
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode()


def event_hash(event: BattleEvent, prev_hash: str) -> str:
    """Return the event's link: SHA-256 of the previous hash and the event's canonical JSON."""
    return hashlib.sha256(prev_hash.encode() + b"\n" + event_canonical(event)).hexdigest()


def chain_head(events: Iterable[BattleEvent]) -> str:
    """Return the hash of the last of `events` (oldest first), linked from the genesis."""
    head = GENESIS
    for event in events:
        head = event_hash(event, head)
    return head


def link_events(events: Iterable[BattleEvent]) -> str:
    """Link unsaved events (oldest first) into a new chain; return its head."""
    head = GENESIS
    for event in events:
        event.prev_hash = head
        head = event_hash(event, head)
    return head


def chain_breaks(events: Iterable[BattleEvent], head: str) -> list[ChainBreak]:
    """Return each event whose stored link or content does not match, oldest first.

    Event N is bad when it no longer hashes to what event N+1 (or, for the newest, the
    battle's head) committed to, or when its own `prev_hash` is not the hash before it.
    """
    ordered = list(events)
    problems: list[ChainBreak] = []
    expected_prev = GENESIS
    for i, event in enumerate(ordered):
        if event.prev_hash != expected_prev:
            problems.append(
                {"seq": event.seq, "problem": "its link to the event before it is broken"}
            )
        mine = event_hash(event, event.prev_hash)
        committed = ordered[i + 1].prev_hash if i + 1 < len(ordered) else head
        if mine != committed:
            problems.append({"seq": event.seq, "problem": "changed after it was logged"})
        expected_prev = mine
    return problems
