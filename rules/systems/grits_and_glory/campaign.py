"""Grits & Glory's own post-game procedure and victory points.

A unit is removed from play when more than half its figures were (a one-figure unit: when that
figure was). After the game each removed unit rolls Vigor - a group roll (so with a Wild Die)
for several figures, +1 for each figure not removed: success is knocked out, failure killed.

The unit's record supplies `extra["figures_removed"]` (default: all figures when its status is
out, dead or ko, else none) and `extra["ran_off"]` (it fled the table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.campaign import Change, DiceFor, FigureRecord, PostBattleRoll
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.checks import VIGOR_TEST
from rules.systems.grits_and_glory.stats import stats_schema

REMOVED_STATUSES = frozenset({"out", "dead", "ko"})
Fate = Literal["on_table", "ran_off", "ko", "killed"]


def figures_removed(record: FigureRecord, figures: int) -> int:
    """Return how many of the unit's figures were removed from play."""
    default = figures if record.status in REMOVED_STATUSES else 0
    return min(int(record.extra.get("figures_removed", default)), figures)


def is_removed(removed: int, figures: int) -> bool:
    """The majority decides a unit's fate; half or fewer removed leaves it standing."""
    return removed * 2 > figures


def vigor_params(stats: Mapping[str, Any], removed: int) -> dict[str, Any]:
    """Return the vigor_test parameters for a removed unit."""
    figures = stats["figures"]
    return {
        "die": stats["vigor"],
        "wild_card": stats["wild_card"] or figures > 1,
        "modifier": figures - removed,
    }


def post_battle(
    record: FigureRecord,
    options: Mapping[str, Any],
    dice_for: DiceFor,
    *,
    tables: t.GGTables = t.BASE,
) -> tuple[PostBattleRoll, ...]:
    """Roll the post-game Vigor test for a unit removed from play (its stats validated against
    the schema of `tables`: a club's weapons)."""
    stats = stats_schema(tables).validate_snapshot(record.stats)
    removed = figures_removed(record, stats["figures"])
    if not is_removed(removed, stats["figures"]):
        return ()
    params = vigor_params(stats, removed)
    resolution = VIGOR_TEST.resolve(params, dice_for("vigor_test", 0))
    return (
        PostBattleRoll(
            "vigor_test",
            0,
            "post-game Vigor",
            resolution.outcome,
            resolution.dice,
            _vigor_changes(resolution.outcome),
            details={**resolution.details, "params": params},
        ),
    )


def _vigor_changes(outcome: str) -> tuple[Change, ...]:
    if outcome == "killed":
        return (Change("status", "status", "ACTIVE", "DEAD", "failed the post-game Vigor test"),)
    return (Change("note", reason="knocked out: survives its wounds"),)


@dataclass(frozen=True)
class UnitFate:
    """How one unit ended a game, for victory points; `ally` marks an allied unit."""

    fate: Fate
    ally: bool = False


def own_points(fate: Fate, *, tables: t.GGTables = t.BASE) -> int:
    """Return the points a unit scores for its own side (the points of `tables`)."""
    points = tables.VICTORY_POINTS
    if fate == "killed":
        return points["killed"]
    if fate == "ko":
        return points["ko"]
    ran = points["ran_off"] if fate == "ran_off" else points["on_table"]
    return points["survived"] + ran


def enemy_points(fate: Fate, *, tables: t.GGTables = t.BASE) -> int:
    """Return the points an enemy unit's fate scores for the other side."""
    points = tables.VICTORY_POINTS
    return {"killed": points["enemy_killed"], "ko": points["enemy_ko"]}.get(fate, 0)


def victory_points(
    own: Iterable[UnitFate], enemy: Iterable[Fate], *, tables: t.GGTables = t.BASE
) -> int:
    """Score one side: its units' fates (allied units killed cost 1), then the enemy's."""
    total = 0
    for unit in own:
        lost_ally = unit.ally and unit.fate == "killed"
        mine = own_points(unit.fate, tables=tables)
        total += tables.VICTORY_POINTS["ally_killed"] if lost_ally else mine
    return total + sum(enemy_points(fate, tables=tables) for fate in enemy)
