"""The campaign record: units carry their battles, Hits taken and removals. No dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.campaign import Change, DiceFor, FigureRecord, PostBattleRoll

#: Battle statuses that mean the unit was removed from the table.
REMOVED_STATUSES = frozenset({"removed", "out", "dead", "routed"})
PROCEDURE = "battle_record"


def _career_change(record: FigureRecord, key: str, added: int, reason: str) -> Change:
    before = int(record.career.get(key, 0))
    return Change("career", key, before, before + added, reason)


def post_battle(
    record: FigureRecord, options: Mapping[str, Any], dice_for: DiceFor
) -> tuple[PostBattleRoll, ...]:
    """Add this battle to the unit's record; the text has no post-battle rolls."""
    removed = record.status in REMOVED_STATUSES
    changes = (
        _career_change(record, "battles", 1, "fought a battle"),
        _career_change(record, "hits_taken", record.wounds, f"{record.wounds} Hits taken"),
        _career_change(record, "removed", int(removed), "removed" if removed else "stood"),
        Change("note", "result", None, record.side_result, f"side's result: {record.side_result}"),
    )
    outcome = "removed" if removed else "stood"
    return (PostBattleRoll(PROCEDURE, 0, "battle record", outcome, (), changes),)
