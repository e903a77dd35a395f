"""Muster's house campaign rules for Escarmouche, adapted from Rencounter's.

Escarmouche has no campaign rules. With the `house_campaign` option on, a figure that lived
through the battle first rolls the aftermath of each wound it took (Rencounter's d6 per wound),
then, if it survives that, rolls to improve: the rating on a d6 and every skill of 1 or more it
used on a d4, each improving by one on a roll over its current value. The dice fit the ranges:
a rating of 5 and a skill of 3 need a face the die does not have, so they are the maxima. A
skill at 0 is not rolled: with no skill there was nothing to exercise. The dice and maxima are
a table a club may edit (`house.py`), read when the procedure runs.
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from rules.aftermath import Aftermath, Improvement, improvement_roll, wound_aftermath
from rules.campaign import Change, DiceFor, FigureRecord, PostBattleRoll
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.tables import SKILLS

AFTERMATH = "aftermath"
IMPROVEMENT = "improvement"


def post_battle(
    record: FigureRecord,
    options: Mapping[str, Any],
    dice_for: DiceFor,
    *,
    tables: t.EscarmoucheTables = t.BASE,
) -> tuple[PostBattleRoll, ...]:
    """Roll the house-rule aftermath and improvement for one figure (nothing if switched off),
    on `tables` (the text's; a club's under its house rules, bound by `with_house`)."""
    if not options.get("house_campaign") or record.status == "dead":
        return ()
    rolls: list[PostBattleRoll] = []
    if record.wounds:
        aftermath = _aftermath_roll(record, dice_for)
        rolls.append(aftermath)
        if aftermath.outcome == "dies":
            return tuple(rolls)
    return (*rolls, *_improvement_rolls(tables, record, options, dice_for))


def _aftermath_roll(record: FigureRecord, dice_for: DiceFor) -> PostBattleRoll:
    dice = dice_for(AFTERMATH, 0)
    result = wound_aftermath(
        dice,
        wounds=record.wounds,
        care=record.extra.get("care", "none"),
        hazard=int(record.extra.get("hazard", 0)),
    )
    return PostBattleRoll(
        AFTERMATH,
        0,
        f"wound aftermath ({record.wounds} wound(s))",
        result.outcome,
        tuple(dice.rolls),
        _aftermath_changes(record, result),
        house_rule=True,
        details={"permanent": result.permanent, "healed": result.healed, "sepsis": result.sepsis},
    )


def _aftermath_changes(record: FigureRecord, result: Aftermath) -> tuple[Change, ...]:
    if result.dies:
        return (Change("status", "status", None, "DEAD", "died of wounds after the battle"),)
    changes = [
        Change(
            "permanent_wound",
            after=f"permanent wound ({n + 1} of {result.permanent})",
            reason="wound aftermath",
        )
        for n in range(result.permanent)
    ]
    if result.healed and record.campaign_date is not None:
        back = healed_by(record.campaign_date)
        changes.append(Change("status", "status", None, "RECOVERING", "wounds healing"))
        changes.append(
            Change(
                "recovers_on",
                after=back.isoformat(),
                reason="healed wounds are gone after more than a month",
            )
        )
    return tuple(changes)


def healed_by(day: date) -> date:
    """Return the first day more than a calendar month after `day`."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    last = calendar.monthrange(year, month)[1]
    return date(year, month, min(day.day, last)) + timedelta(days=1)


def improvable(
    record: FigureRecord, tables: t.EscarmoucheTables = t.BASE
) -> tuple[tuple[str, int, int, int], ...]:
    """Return (stat, value, die sides, maximum) for each stat this figure rolls to improve,
    on `tables` (the text's, or a club's)."""
    stats = record.stats
    dice: dict[str, int] = tables.IMPROVEMENT_DICE
    rows = [("rating", int(stats["rating"]), dice["rating"], int(tables.MAX_RATING))]
    rows.extend(
        (key, int(stats.get(key, 0)), dice["skill"], int(tables.MAX_SKILL))
        for key, _ in SKILLS
        if key in record.skills_used and int(stats.get(key, 0)) > 0
    )
    return tuple(rows)


def _improvement_changes(
    record: FigureRecord, options: Mapping[str, Any], stat: str, result: Improvement
) -> tuple[Change, ...]:
    if not result.improved:
        return ()
    change = Change("stat", stat, result.before, result.after, "improvement roll")
    wounds = record.stats.get("wounds")
    # Wounds equal to the rating follow it, unless the campaign gives every figure one wound.
    if stat == "rating" and wounds == result.before and options.get("wounds_rule") != "one":
        return (change, Change("stat", "wounds", wounds, result.after, "wounds follow rating"))
    return (change,)


def _improvement_rolls(
    tables: t.EscarmoucheTables,
    record: FigureRecord,
    options: Mapping[str, Any],
    dice_for: DiceFor,
) -> tuple[PostBattleRoll, ...]:
    rolls = []
    for index, (stat, value, sides, maximum) in enumerate(improvable(record, tables)):
        dice = dice_for(IMPROVEMENT, index)
        result = improvement_roll(dice, stat=stat, value=value, sides=sides, maximum=maximum)
        changes = _improvement_changes(record, options, stat, result)
        rolls.append(
            PostBattleRoll(
                IMPROVEMENT,
                index,
                f"improvement: {stat} (d{sides} over {value})",
                "improves" if result.improved else "unchanged",
                tuple(dice.rolls),
                changes,
                house_rule=True,
                details={"roll": result.roll},
            )
        )
    return tuple(rolls)
