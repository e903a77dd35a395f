"""The bridge from a finished battle to the rules engine's post-battle procedure.

`figure_record` builds the `FigureRecord` a procedure runs on; it is stored as JSON on the
figure so the audit re-runs the procedure on exactly the same record with the revealed seed.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from battles.models import Battle, BattleFigure
from common.json_types import JSONObject
from rules.campaign import DiceFor, FigureRecord
from rules.dice import SeededDice
from rules.system import RuleSystem


def dice_for(seed: str, dice_key: str, scheme: int) -> DiceFor:
    """Return the dice source per (procedure, index) for one figure of a battle.

    `dice_key` is the figure's `BattleFigure.dice_key` (its character's id when the battle was
    set up), so the context survives a campaign export and import; `scheme` is the battle's.
    """
    return lambda procedure, index: SeededDice(seed, f"post/{dice_key}/{procedure}/{index}", scheme)


def wounds_taken(system: RuleSystem, figure: BattleFigure) -> int:
    """Wounds (Hits) taken in this battle, as the log left them: the state against the start,
    so wounds carried in (permanent) are not counted again."""
    return system.harm_taken(figure.stats, figure.state)


def figure_status(system: RuleSystem, figure: BattleFigure) -> str:
    """The status the figure ended the battle with: as entered, else as the assistant left it
    (a figure the log shows hurt is "wounded", even where the system sets no status on a hit)."""
    status = figure.final_status or system.end_status(figure.stats, figure.state)
    return "captured" if figure.extra.get("captured") and status != "dead" else status


def record_json(
    system: RuleSystem,
    battle: Battle,
    figure: BattleFigure,
    *,
    side_result: str,
    career: JSONObject,
    battles_before: int,
) -> JSONObject:
    """Return the JSON form of the figure's post-battle record."""
    return {
        "name": figure.name,
        "stats": figure.stats,
        "wounds": wounds_taken(system, figure),
        "status": figure_status(system, figure),
        "skills_used": sorted(figure.skills_used),
        "kills": figure.kills,
        "battles_before": battles_before,
        "permanent_wounds": list(figure.stats.get("permanent_wounds") or ()),
        "career": career,
        "side_result": side_result.lower() or "draw",
        "campaign_date": battle.campaign_date.isoformat() if battle.campaign_date else None,
        "extra": figure.extra,
    }


def record_from_json(data: dict[str, Any]) -> FigureRecord:
    """Rebuild the frozen record from its JSON form."""
    day = data.get("campaign_date")
    return FigureRecord(
        name=data["name"],
        stats=data["stats"],
        wounds=data["wounds"],
        status=data["status"],
        skills_used=frozenset(data["skills_used"]),
        kills=data["kills"],
        battles_before=data["battles_before"],
        permanent_wounds=tuple(data["permanent_wounds"]),
        career=data["career"],
        side_result=data["side_result"],
        campaign_date=date.fromisoformat(day) if day else None,
        extra=data["extra"],
    )
