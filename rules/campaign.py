"""Post-battle campaign procedures: the types they take and return.

A procedure is a pure function `(FigureRecord, options, DiceFor) -> tuple[PostBattleRoll, ...]`.
The Django side builds the record from a battle, supplies seeded dice per (procedure, index),
writes each returned roll to its ledger and applies the changes. The audit re-runs the same
function with the revealed seed and compares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from rules.dice import Dice, DieRoll

#: The status a figure ended the battle with, as entered or as the table assistant left it.
BattleStatus = Literal["unhurt", "wounded", "out", "dead", "routed", "ko", "captured"]
BATTLE_STATUSES: tuple[str, ...] = ("unhurt", "wounded", "out", "dead", "routed", "ko", "captured")
SideResult = Literal["win", "draw", "loss"]


@dataclass(frozen=True)
class FigureRecord:
    """One named figure's part in one battle, as its post-battle procedure needs it.

    `stats` are the figure's stats at the start of the battle. `wounds` counts the wound points
    (or wounds) taken in this battle. `career` carries what persists between games that the
    system needs (e.g. Rencounter's hero progress); procedures return changes to it.
    """

    name: str
    stats: Mapping[str, Any]
    wounds: int = 0
    status: str = "unhurt"
    skills_used: frozenset[str] = frozenset()
    kills: int = 0
    battles_before: int = 0
    permanent_wounds: tuple[str, ...] = ()
    career: Mapping[str, Any] = field(default_factory=dict)
    side_result: SideResult = "draw"
    campaign_date: date | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


ChangeKind = Literal[
    "stat",  # a stat changes: field, before, after
    "permanent_wound",  # add a permanent wound: after = description
    "status",  # character status: after in ACTIVE/RECOVERING/DEAD/RETIRED/CAPTURED
    "recovers_on",  # recovering until a campaign date: after = ISO date
    "career",  # a persistent career value (hero progress, victory points ...)
    "note",  # nothing changes; recorded for the service record
]


@dataclass(frozen=True)
class Change:
    """One change to a character that a post-battle roll causes."""

    kind: ChangeKind
    field: str = ""
    before: Any = None
    after: Any = None
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "field": self.field,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PostBattleRoll:
    """One ledger entry: a procedure step for one figure, its dice, outcome and changes.

    (procedure, index) is unique per figure per battle; `subject` says what was rolled for
    ("fire", "wound point 2"). `house_rule` marks rolls from Muster's house campaign rules.
    """

    procedure: str
    index: int
    subject: str
    outcome: str
    dice: tuple[DieRoll, ...]
    changes: tuple[Change, ...] = ()
    house_rule: bool = False
    details: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "procedure": self.procedure,
            "index": self.index,
            "subject": self.subject,
            "outcome": self.outcome,
            "dice": [r.as_json() for r in self.dice],
            "changes": [c.as_json() for c in self.changes],
            "house_rule": self.house_rule,
            "details": dict(self.details),
        }


#: Supplies the dice for one procedure step: (procedure, index) -> a fresh Dice source.
DiceFor = Callable[[str, int], Dice]
PostBattle = Callable[[FigureRecord, Mapping[str, Any], DiceFor], tuple[PostBattleRoll, ...]]


def no_post_battle(
    record: FigureRecord, options: Mapping[str, Any], dice_for: DiceFor
) -> tuple[PostBattleRoll, ...]:
    """A procedure for systems (or campaigns) with no post-battle rolls."""
    return ()
