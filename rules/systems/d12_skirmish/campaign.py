"""Muster's house campaign rules for the d12 game (adapted from Rencounter; off by default).

Improvement: the troop type stands at the top face of its band on the troop type table (Raw 1,
Regular 9, Veteran 11, Elite 12); a d12 over that steps it up one type. Wound aftermath: a d6
per wound taken, as in rules/aftermath.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.aftermath import improvement_roll, wound_aftermath
from rules.campaign import Change, DiceFor, FigureRecord, PostBattleRoll
from rules.systems.d12_skirmish.tables import TROOP_LADDER, TROOP_TYPE_TABLE

#: The improvement "value" of each troop type: the top of its band on the troop type table.
TROOP_VALUE = {key: high for _, high, key in TROOP_TYPE_TABLE}
IMPROVING_SKILL = "troop"
DEAD_STATUSES = frozenset({"dead"})


def _improvement(record: FigureRecord, dice_for: DiceFor) -> PostBattleRoll:
    troop = record.stats["troop"]
    dice = dice_for("improvement", 0)
    result = improvement_roll(
        dice, stat="troop", value=TROOP_VALUE[troop], sides=12, maximum=TROOP_VALUE["elite"]
    )
    after = TROOP_LADDER[TROOP_LADDER.index(troop) + 1] if result.improved else troop
    changes = (
        (Change("stat", "troop", troop, after, f"improvement roll {result.roll}"),)
        if result.improved
        else ()
    )
    outcome = "improves" if result.improved else "unchanged"
    return PostBattleRoll(
        "improvement",
        0,
        "troop type",
        outcome,
        tuple(dice.rolls),
        changes,
        house_rule=True,
        details={"roll": result.roll, "over": result.before},
    )


def _aftermath(
    record: FigureRecord, options: Mapping[str, Any], dice_for: DiceFor
) -> PostBattleRoll:
    dice = dice_for("aftermath", 0)
    result = wound_aftermath(
        dice,
        wounds=record.wounds,
        care=options["aftermath_care"],
        hazard=options["aftermath_hazard"],
    )
    if result.dies:
        changes: tuple[Change, ...] = (
            Change("status", "status", None, "DEAD", f"{result.permanent} permanent wounds"),
        )
    else:
        changes = tuple(
            Change(
                "permanent_wound",
                after=f"permanent wound ({record.name})",
                reason="wound aftermath",
            )
            for _ in range(result.permanent)
        )
    details = {"permanent": result.permanent, "healed": result.healed, "sepsis": result.sepsis}
    return PostBattleRoll(
        "aftermath",
        0,
        f"{record.wounds} wounds",
        result.outcome,
        tuple(dice.rolls),
        changes,
        house_rule=True,
        details=details,
    )


def post_battle(
    record: FigureRecord, options: Mapping[str, Any], dice_for: DiceFor
) -> tuple[PostBattleRoll, ...]:
    """Roll the house campaign rules for one figure, if the campaign switched them on."""
    if not options.get("house_campaign", False) or record.status in DEAD_STATUSES:
        return ()
    rolls: list[PostBattleRoll] = []
    if IMPROVING_SKILL in record.skills_used:
        rolls.append(_improvement(record, dice_for))
    if record.wounds:
        rolls.append(
            _aftermath(
                record, {"aftermath_care": "none", "aftermath_hazard": 0, **options}, dice_for
            )
        )
    return tuple(rolls)
