"""Auto-resolve: the rules engine's abstract simulation, saved as a battle or run in batches.

The simulation has no terrain and no distances (see docs/battles.md): it answers "who would
win?" and settles a league's no-show games, nothing finer.
"""

from __future__ import annotations

import copy
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.chain import link_events
from battles.live import ring_on_commit
from battles.models import (
    Battle,
    BattleEvent,
    BattleFigure,
    BattleStatus,
    EventKind,
    SideResult,
)
from battles.services.common import PLAYABLE, locked, require_status, system_of
from battles.services.table import KILLED, mark_breakpoints
from common.json_types import JSONObject
from common.users import User
from rules.dice import SeededDice
from rules.simulate import SimEvent, SimFigure, SimResult, Simulator
from rules.system import RuleSystem

MAX_RUNS = 10_000


def sim_sides(battle: Battle) -> list[list[SimFigure]]:
    """Return the battle's figures as the simulator's sides (ref = figure id)."""
    sides: list[list[SimFigure]] = [[] for _ in battle.sides.all()]
    figures = battle.figures.select_related("side").order_by("side__index", "pk")
    for figure in figures:
        unit = f"{figure.side.index + 1}:{figure.unit_name or figure.name}"
        sides[figure.side.index].append(SimFigure(str(figure.pk), figure.name, figure.stats, unit))
    return sides


def _simulator(system: RuleSystem, sides: Sequence[Sequence[SimFigure]]) -> Simulator:
    if system.simulate is None:
        raise ValidationError({"system": [f"{system.name} has no auto-resolve"]})
    if len(sides) != 2:
        raise ValidationError({"sides": ["auto-resolve fights exactly two sides"]})
    return system.simulate


def _event(
    battle: Battle,
    seq: int,
    sim: SimEvent,
    figures: dict[str, BattleFigure],
    states: dict[str, dict[str, object]],
) -> BattleEvent:
    # Not every simulated check is a figure's: Grits & Glory's "does the game end?" roll is the
    # game's own (actor "game"), so it is logged with no actor and changes no figure.
    refs = [r for r in (sim.actor, sim.target) if r in figures]
    before = {figures[r].pk: copy.deepcopy(states[r]) for r in refs}
    for effect in sim.resolution.effects:
        ref = sim.actor if effect.who == "actor" else sim.target
        if ref in states:
            effect.apply(states[ref])
    res = sim.resolution
    return BattleEvent(
        battle=battle,
        seq=seq,
        kind=EventKind.CHECK,
        actor=figures.get(sim.actor),
        target=figures.get(sim.target) if sim.target else None,
        check_name=res.check,
        params=dict(res.params),
        dice=[r.as_json() for r in res.dice],
        outcome=res.outcome,
        details=dict(res.details),
        effects=[e.as_json() for e in res.effects],
        state_before={"figures": {str(k): {"state": v} for k, v in before.items()}},
        turn=sim.turn,
    )


def _kills(events: Sequence[SimEvent], result: SimResult, harm: str) -> Counter[str]:
    """Credit each figure that ended the battle down to the last figure that hurt it, on
    whichever side of the check that figure was (a riposte kills the attacker)."""
    last_hit: dict[str, str] = {}
    for sim in events:
        if sim.target is None or sim.actor not in result.states:
            continue
        for effect in sim.resolution.effects:
            if effect.key in ("status", harm):
                hurt, by = (
                    (sim.target, sim.actor) if effect.who == "target" else (sim.actor, sim.target)
                )
                last_hit[hurt] = by
    down = [ref for ref, state in result.states.items() if state.get("status") in KILLED]
    return Counter(last_hit[ref] for ref in down if ref in last_hit)


def _save_figures(figures: dict[str, BattleFigure], result: SimResult, system: RuleSystem) -> None:
    kills = _kills(result.events, result, system.harm)
    for ref, figure in figures.items():
        figure.state = dict(result.states[ref])
        figure.final_status = system.end_status(figure.stats, figure.state)
        figure.skills_used = sorted(result.skills_used.get(ref, ()))
        figure.kills = kills.get(ref, 0)
    BattleFigure.objects.bulk_update(
        list(figures.values()), ["state", "final_status", "skills_used", "kills"]
    )


def _save_sides(battle: Battle, winner: int | None) -> None:
    for side in battle.sides.all():
        side.result = (
            SideResult.DRAW
            if winner is None
            else SideResult.WIN
            if side.index == winner
            else SideResult.LOSS
        )
        side.save(update_fields=["result"])


@transaction.atomic
def battle_auto_resolve(*, battle: Battle, user: User | None = None) -> Battle:
    """Fight the battle by simulation; its event log and result are saved, not yet finished."""
    battle = locked(battle.pk)
    require_status(battle, PLAYABLE, "auto-resolve")
    if battle.events.exists():
        raise ValidationError(
            {"battle": ["the battle already has events; auto-resolve starts from the beginning"]}
        )
    sides = sim_sides(battle)
    system = system_of(battle)
    result = _simulator(system, sides)(
        sides, battle.options, SeededDice(battle.seed, "simulate", battle.dice_scheme)
    )
    figures = {str(f.pk): f for f in battle.figures.all()}
    states = {ref: dict(f.state) for ref, f in figures.items()}
    events = [_event(battle, i + 1, sim, figures, states) for i, sim in enumerate(result.events)]
    battle.log_head = link_events(events)
    BattleEvent.objects.bulk_create(events)
    _save_figures(figures, result, system)
    _save_sides(battle, result.winner)
    battle.auto_resolved, battle.status = True, BattleStatus.IN_PROGRESS
    battle.save(update_fields=["auto_resolved", "status", "log_head"])
    ring_on_commit(battle.pk)
    mark_breakpoints(battle, len(result.events))
    return battle


@dataclass(frozen=True)
class BatchSummary:
    """Rates over many simulated battles (nothing saved)."""

    runs: int
    wins: tuple[float, ...]
    draws: float
    casualties: tuple[dict[int, float], ...]
    mean_turns: float

    def as_json(self) -> JSONObject:
        return {
            "runs": self.runs,
            "win_rate": list(self.wins),
            "draw_rate": self.draws,
            "loss_rate": [round(1 - w - self.draws, 6) for w in self.wins],
            "casualties": [{str(k): v for k, v in sorted(d.items())} for d in self.casualties],
            "mean_turns": self.mean_turns,
        }


def simulate_batch(
    *,
    system: RuleSystem,
    sides: Sequence[Sequence[SimFigure]],
    options: dict[str, object],
    runs: int,
    seed: str | None = None,
) -> BatchSummary:
    """Fight `runs` simulated battles and summarise win/draw/loss and casualties per side."""
    if not 1 <= runs <= MAX_RUNS:
        raise ValidationError({"runs": [f"runs must be between 1 and {MAX_RUNS}"]})
    simulate = _simulator(system, sides)
    seed = seed or secrets.token_hex(16)
    winners: Counter[int | None] = Counter()
    losses: list[Counter[int]] = [Counter() for _ in sides]
    turns = 0
    for run in range(runs):
        result = simulate(sides, options, SeededDice(seed, f"simulate/{run}"))
        winners[result.winner] += 1
        turns += result.turns
        for index, lost in enumerate(result.casualties):
            losses[index][lost] += 1
    return BatchSummary(
        runs,
        tuple(winners[i] / runs for i in range(len(sides))),
        winners[None] / runs,
        tuple({k: v / runs for k, v in c.items()} for c in losses),
        turns / runs,
    )
