"""Rencounter's campaign: wound aftermath, improvement rolls, heroes progression, breakpoint."""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from rules import aftermath
from rules.campaign import Change, DiceFor, FigureRecord, PostBattleRoll
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.checks import improvable

#: Improvement rolls in a fixed order, so (procedure, index) is stable for the audit.
IMPROVEMENT_ORDER = ("experience", "horsemanship", "fire", "melee")
_OUT_OF_ACTION = frozenset({"dead", "out", "routed", "falling_back"})


def one_month_later(day: date) -> date:
    """The same day next month (clamped to the month's end)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def post_battle(
    record: FigureRecord,
    options: Mapping[str, Any],
    dice_for: DiceFor,
    *,
    tables: t.RencounterTables = t.BASE,
) -> tuple[PostBattleRoll, ...]:
    """Aftermath of the wounds, then (if he lives) improvement and the hero step, on `tables`
    (the text's; a club's under its house rules, bound by `RuleSystem.with_house`)."""
    if record.status == "dead":
        return ()
    rolls: list[PostBattleRoll] = []
    if record.wounds:
        rolls.append(_aftermath(tables, record, options, dice_for))
        if rolls[0].outcome == "dies":
            return tuple(rolls)
    rolls.extend(_improvements(tables, record, dice_for))
    if options.get("heroes") and record.extra.get("hero") in ("inspired", "falters"):
        rolls.append(_hero_step(record))
    return tuple(rolls)


def _aftermath(
    tables: t.RencounterTables,
    record: FigureRecord,
    options: Mapping[str, Any],
    dice_for: DiceFor,
) -> PostBattleRoll:
    care = record.extra.get("care") or ("prompt" if options.get("prompt_care") else "none")
    hazard = int(record.extra.get("hazard", options.get("hazard", 0)))
    if hazard:
        care = "none"  # a hazardous aftermath leaves no room for prompt care
    dice = dice_for("aftermath", 0)
    result = aftermath.wound_aftermath(
        dice,
        wounds=min(record.wounds, t.MAX_WOUND_POINTS),
        care=care,
        hazard=hazard,
        bands=tables.aftermath_bands,
    )
    return PostBattleRoll(
        "aftermath",
        0,
        f"{record.wounds} wound point(s)",
        result.outcome,
        tuple(dice.rolls),
        tuple(_aftermath_changes(record, result)),
        details={
            "permanent": result.permanent,
            "healed": result.healed,
            "sepsis": result.sepsis,
            "care": care,
            "hazard": hazard,
        },
    )


def _aftermath_changes(record: FigureRecord, result: aftermath.Aftermath) -> list[Change]:
    if result.dies:
        return [Change("status", "status", "ACTIVE", "DEAD", "died of his wounds")]
    locations = list(record.extra.get("wound_locations") or ())
    changes = [
        Change(
            "permanent_wound",
            "permanent_wounds",
            None,
            locations[i] if i < len(locations) else "wound",
            "permanent wound point",
        )
        for i in range(result.permanent)
    ]
    if result.healed and record.campaign_date is not None:
        changes.append(
            Change(
                "recovers_on",
                "recovers_on",
                None,
                one_month_later(record.campaign_date).isoformat(),
                "healed points are gone in a game over a month later",
            )
        )
    return changes


def _improvements(
    tables: t.RencounterTables, record: FigureRecord, dice_for: DiceFor
) -> Iterable[PostBattleRoll]:
    used = [s for s in IMPROVEMENT_ORDER if s in record.skills_used]
    for index, stat in enumerate(used):
        sides, maximum = improvable(tables, stat)
        dice = dice_for("improvement", index)
        value = int(record.stats[stat])
        roll = aftermath.improvement_roll(
            dice, stat=stat, value=value, sides=sides, maximum=maximum
        )
        changes = (
            (Change("stat", stat, value, roll.after, "improvement roll"),) if roll.improved else ()
        )
        yield PostBattleRoll(
            "improvement",
            index,
            stat,
            "improves" if roll.improved else "unchanged",
            tuple(dice.rolls),
            changes,
        )


def hero_threshold(record: FigureRecord) -> int:
    """The figure's current hero roll: his career's progress, else the starting stat."""
    return int(record.career.get("hero_threshold", record.stats.get("hero_threshold", 1)))


def _hero_step(record: FigureRecord) -> PostBattleRoll:
    before = hero_threshold(record)
    inspired = record.extra["hero"] == "inspired"
    after = min(before + 1, 6) if inspired else max(before - 1, 1)
    changes = (
        (Change("career", "hero_threshold", before, after, "heroes rule"),)
        if after != before
        else ()
    )
    return PostBattleRoll(
        "hero",
        0,
        "heroes rule",
        "steps_up" if inspired else "steps_back",
        (),
        changes,
        details={"before": before, "after": after},
    )


def effective(state: Mapping[str, Any]) -> bool:
    """Whether a man still counts for his side: unrouted, not cowering, at most lightly hurt."""
    return state.get("status") not in _OUT_OF_ACTION and int(state.get("wounds", 0)) <= 1


def side_broken(units: Mapping[str, Sequence[Mapping[str, Any]]], breakpoint: str) -> bool:
    """Whether a side has reached its breakpoint (by total men or by every unit's strength)."""
    numerator, denominator = t.BREAKPOINTS[breakpoint]
    # One pass over the men: a simulated battle asks after every unit's activation.
    men = standing = 0
    every_unit_down = True  # every unit at half strength or less
    for unit in units.values():
        up = sum(map(effective, unit))
        men += len(unit)
        standing += up
        every_unit_down = every_unit_down and 2 * up <= len(unit)
    if not men:
        return True
    # standing / men < 1 - numerator / denominator, in whole numbers (no Fraction per call).
    return standing * denominator < (denominator - numerator) * men or every_unit_down
