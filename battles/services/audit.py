"""The audit: re-derive every roll of a processed battle from its revealed seed.

For each ledger row it re-runs the system's procedure on the stored record with
SeededDice(seed, "post/<figure dice key>/<procedure>/<index>", the battle's dice scheme) and
compares the whole roll; a row the procedure does not produce (or produces differently) is
reported by id. The dice key is the figure's character id when the battle was set up and
travels with a campaign export, so an imported battle audits too; only a figure imported from
a version-1 document has no key, and its rows say they cannot be re-derived. Server-rolled
events are re-derived from "event/<seq>" the same way; typed-in dice cannot be re-derived and
say so. The log's hash chain (battles/chain.py) is verified too: the first event changed
after it was logged is named. Every roll is re-derived under the house-rules version the
battle was set up under (its number and digest are in the report), never the campaign's
newest.
"""

from __future__ import annotations

import hashlib
from typing import TypedDict

from battles.chain import ChainBreak, chain_breaks
from battles.errors import BattleConflict
from battles.models import Battle, BattleEvent, BattleStatus, EventKind, PostBattleRoll
from battles.services.common import system_of
from battles.services.pipeline import derive_rolls
from battles.services.table import event_dice
from common.json_types import JSONObject
from rules.errors import RulesError
from rules.system import RuleSystem


class LedgerCheck(TypedDict, total=False):
    """One ledger row against its roll re-derived from the seed."""

    id: int | None  # None: a roll the procedure makes that the ledger lacks
    character: int
    procedure: str
    index: int
    outcome: str
    matches: bool | None  # None: cannot be re-derived (see `note`)
    expected: JSONObject | None
    missing: bool
    note: str


class EventCheck(TypedDict, total=False):
    """One logged event against its dice re-derived from the seed."""

    seq: int
    check: str
    voided: bool
    matches: bool | None  # None: not re-derivable alone (see `note`)
    note: str


class ChainCheck(TypedDict):
    """Whether the log's hash chain holds."""

    head: str
    events: int
    intact: bool
    first_bad_event: int | None
    problem: str
    breaks: list[ChainBreak]


class BattleAudit(TypedDict):
    """The audit report of a processed battle (GET /api/battles/<id>/audit/)."""

    battle: int
    seed: str
    seed_sha256: str
    seed_matches_hash: bool
    dice_scheme: int
    house_rules: JSONObject | None
    all_match: bool
    chain: ChainCheck
    ledger: list[LedgerCheck]
    mismatched: list[int | None]
    events: list[EventCheck]


def _row_report(row: PostBattleRoll, expected: JSONObject | None) -> LedgerCheck:
    matches = (
        expected is not None
        and expected == row.result
        and (expected["dice"] == row.dice and expected["outcome"] == row.outcome)
    )
    report: LedgerCheck = {
        "id": row.pk,
        "character": row.character_id,
        "procedure": row.procedure,
        "index": row.index,
        "outcome": row.outcome,
        "matches": matches,
    }
    if not matches:
        report["expected"] = expected
    return report


NO_DICE_KEY = "imported without its dice key (a version-1 export): cannot be re-derived"


def _ledger_report(battle: Battle, system: RuleSystem) -> list[LedgerCheck]:
    derived: dict[tuple[int, str, int], JSONObject] = {}
    keyless: set[int] = set()
    for figure in battle.figures.filter(character__isnull=False, record__isnull=False):
        if not figure.dice_key:
            keyless.add(figure.character_pk)
            continue
        for roll in derive_rolls(system, battle, figure):
            derived[(figure.character_pk, roll.procedure, roll.index)] = roll.as_json()
    rows = battle.ledger.order_by("character_id", "procedure", "index")
    reports = [
        _keyless_report(r)
        if r.character_id in keyless
        else _row_report(r, derived.pop((r.character_id, r.procedure, r.index), None))
        for r in rows
    ]
    reports += [
        {
            "id": None,
            "character": key[0],
            "procedure": key[1],
            "index": key[2],
            "matches": False,
            "missing": True,
            "expected": roll,
        }
        for key, roll in derived.items()
    ]
    return reports


def _keyless_report(row: PostBattleRoll) -> LedgerCheck:
    report = _row_report(row, None)
    del report["expected"]
    return {**report, "matches": None, "note": NO_DICE_KEY}


def _event_report(battle: Battle, system: RuleSystem, event: BattleEvent) -> EventCheck:
    report: EventCheck = {"seq": event.seq, "check": event.check_name, "voided": event.voided}
    if event.kind == EventKind.ADJUSTMENT:
        who = event.created_by.get_username() if event.created_by else "nobody signed in"
        return {**report, "matches": None, "note": f"adjusted by hand by {who}: no dice"}
    if event.dice_given:
        return {**report, "matches": None, "note": "dice typed in at the table"}
    if event.kind == EventKind.VOID:
        return {**report, "matches": None, "note": f"voids event #{event.details.get('voids')}"}
    if event.kind != EventKind.CHECK or battle.auto_resolved:
        return {**report, "matches": None, "note": "drawn in sequence; not re-derived alone"}
    try:
        again = system.check(event.check_name).resolve(event.params, event_dice(battle, event.seq))
    except RulesError as exc:
        return {**report, "matches": False, "note": str(exc)}
    dice = [r.as_json() for r in again.dice]
    return {**report, "matches": dice == event.dice and again.outcome == event.outcome}


def chain_report(log: list[BattleEvent], head: str, breaks: list[ChainBreak]) -> ChainCheck:
    """Say whether the log's hash chain holds, and name the first event that breaks it."""
    first = breaks[0] if breaks else None
    return {
        "head": head,
        "events": len(log),
        "intact": not breaks,
        "first_bad_event": first["seq"] if first else None,
        "problem": f"event #{first['seq']}: {first['problem']}" if first else "",
        "breaks": breaks,
    }


def _house_rules(battle: Battle) -> JSONObject | None:
    """The house-rules version the rolls were re-derived under (None: the rules as written)."""
    version = battle.house_rules
    if version is None:
        return None
    return {"version": version.number, "digest": version.digest}


def battle_audit(*, battle: Battle) -> BattleAudit:
    """Return the audit report of a processed battle (409 before its seed is revealed)."""
    if battle.status != BattleStatus.PROCESSED:
        raise BattleConflict("the seed is revealed, and the audit possible, once processed")
    system = system_of(battle)
    seed_ok = hashlib.sha256(battle.seed.encode()).hexdigest() == battle.seed_sha256
    ledger = _ledger_report(battle, system)
    log = list(battle.events.select_related("actor", "target", "created_by").order_by("seq"))
    events = [_event_report(battle, system, e) for e in log]
    mismatched = [r for r in ledger if r["matches"] is False]
    bad_events = [e for e in events if e["matches"] is False]
    breaks = chain_breaks(log, battle.log_head)
    return {
        "battle": battle.pk,
        "seed": battle.seed,
        "seed_sha256": battle.seed_sha256,
        "seed_matches_hash": seed_ok,
        "dice_scheme": battle.dice_scheme,
        "house_rules": _house_rules(battle),
        "all_match": seed_ok and not mismatched and not bad_events and not breaks,
        "chain": chain_report(log, battle.log_head, breaks),
        "ledger": ledger,
        "mismatched": [r["id"] for r in mismatched],
        "events": events,
    }
