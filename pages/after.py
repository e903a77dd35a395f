"""The after-battle report: per side, who fell, who was wounded and how it healed, who
improved or stepped up as a hero, who killed — every figure named with his force.

Pure functions over the figures and ledger rows the view loaded; the words come from
`rules.narrate`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from battles.models import Battle, BattleFigure, BattleSide, PostBattleRoll
from common.json_types import JSONObject
from rules import narrate
from rules.system import RuleSystem

#: How each end-of-battle status counts among the casualties.
CASUALTY = {
    "dead": "killed",
    "captured": "captured",
    "out": "out of action",
    "ko": "knocked out",
    "removed": "removed from play",
    "routed": "routed",
    "fled": "fled",
}
#: Procedures that settle wounds (the rest are improvements, hero steps and the like).
WOUND_WORDS = ("aftermath", "wound", "vigor", "sepsis", "injur", "recover")


@dataclass(frozen=True)
class FigureLine:
    name: str
    text: str
    sentences: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideReport:
    side: BattleSide
    casualties: tuple[FigureLine, ...]
    wounds: tuple[FigureLine, ...]
    steps: tuple[FigureLine, ...]
    kills: tuple[FigureLine, ...]


def named(figure: BattleFigure, force_name: str) -> str:
    """Return a figure's name with his force: two Gridleys are told apart."""
    return f"{figure.name} ({force_name})"


def end_status(system: RuleSystem, figure: BattleFigure) -> str:
    """The figure's end of battle as the log left it (a figure hurt is never "unhurt")."""
    status = figure.final_status or system.end_status(figure.stats, figure.state)
    return "captured" if figure.extra.get("captured") and status != "dead" else status


def roll_json(row: PostBattleRoll) -> JSONObject:
    """Return a ledger row as the narration reads it."""
    return {
        **row.result,
        "procedure": row.procedure,
        "subject": row.subject,
        "house_rule": row.house_rule,
    }


def is_wound_roll(row: PostBattleRoll) -> bool:
    return any(word in row.procedure.lower() for word in WOUND_WORDS)


def _taken(system: RuleSystem, count: int) -> str:
    """ "2 wounds taken", "1 Hit taken": the harm the log recorded, in the system's word."""
    noun = "Hit" if system.harm == "hits" else "wound"
    return f"{count} {noun}{'s' if count != 1 else ''} taken"


#: What the after page says of a hit that left nothing behind once the rolls were made.
HEALED = "healed after the battle: no lasting wound"


def _healing(
    system: RuleSystem, said: list[tuple[PostBattleRoll, str]], status: str, processed: bool
) -> tuple[str, ...]:
    """The wound rolls' sentences; with none once processed, the wound healed (says so)."""
    rolled = tuple(text for r, text in said if is_wound_roll(r))
    if rolled or not processed or status in CASUALTY or system.harm != "wounds":
        return rolled
    return (HEALED,)


def _side_report(
    system: RuleSystem,
    side: BattleSide,
    figures: Sequence[BattleFigure],
    rolls: dict[int, list[PostBattleRoll]],
    processed: bool = False,
) -> SideReport:
    casualties, wounds, steps, kills = [], [], [], []
    for f in figures:
        name = named(f, side.force.name)
        said = [(r, narrate.roll_sentence(system.key, roll_json(r), f.name)) for r in rolls[f.pk]]
        status = end_status(system, f)
        if status in CASUALTY:
            casualties.append(FigureLine(name, CASUALTY[status]))
        taken = system.harm_taken(f.stats, f.state)
        healing = _healing(system, said, status, processed) if taken else ()
        healing = healing or tuple(text for r, text in said if is_wound_roll(r))
        if taken or healing:
            wounds.append(FigureLine(name, _taken(system, taken) if taken else "wounds", healing))
        others = tuple(text for r, text in said if not is_wound_roll(r))
        if others:
            steps.append(FigureLine(name, "", others))
        if f.kills:
            kills.append(FigureLine(name, f"{f.kills} kill{'s' if f.kills != 1 else ''}"))
    return SideReport(side, tuple(casualties), tuple(wounds), tuple(steps), tuple(kills))


def battle_report(
    battle: Battle, system: RuleSystem, ledger: Sequence[PostBattleRoll]
) -> tuple[SideReport, ...]:
    """Return the report per side (1 query for the figures; the ledger is passed in)."""
    figures = list(battle.figures.order_by("side_id", "unit_name", "name", "pk"))
    by_figure: dict[int, list[PostBattleRoll]] = defaultdict(list)
    figure_of = {f.character_id: f.pk for f in figures if f.character_id}
    for row in ledger:
        if row.character_id in figure_of:
            by_figure[figure_of[row.character_id]].append(row)
    processed = battle.status == "PROCESSED"
    return tuple(
        _side_report(
            system, side, [f for f in figures if f.side_id == side.pk], by_figure, processed
        )
        for side in battle.sides.all()
    )
