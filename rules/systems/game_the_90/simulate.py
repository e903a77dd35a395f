"""Auto-resolve: an abstract battle of units with the real shoot, melee and rally checks.

No terrain and no distances: in each player turn every unit of the side shoots if it can,
otherwise fights a random enemy unit (Lights always reach a flank, as they may charge nothing
else); a unit past ten Hits (a house rule may move that mark) holds back and rallies instead.
A side whose units are all removed has lost; after the text's longest battle (15 turns) the
side with more units left wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.checks import Check, Effect
from rules.dice import Dice
from rules.schema import Schema
from rules.simulate import PreparedChecks, SimEvent, SimFigure, SimResult
from rules.systems.game_the_90 import tables as t
from rules.systems.game_the_90.checks import CHECKS
from rules.systems.game_the_90.stats import STATS, initial_state
from rules.systems.game_the_90.tables import SHOOTERS

MAX_TURNS = 15


class _Battle:
    def __init__(
        self,
        sides: Sequence[Sequence[SimFigure]],
        die: str,
        dice: Dice,
        tables: t.G90Tables,
        checks: Mapping[str, Check],
        stats: Schema,
    ) -> None:
        # The tables, checks and stat schema of the rules in force (a club's, if any).
        self.tables, self.checks = tables, checks
        self.prepared = PreparedChecks(self.checks)
        self.sides = [[f.ref for f in side] for side in sides]
        self.stats = {f.ref: stats.validate_snapshot(f.stats) for side in sides for f in side}
        self.states = {ref: initial_state(s, tables=tables) for ref, s in self.stats.items()}
        self.die, self.dice = die, dice
        self.events: list[SimEvent] = []
        self.turn = 1

    def standing(self, side: int) -> list[str]:
        return [ref for ref in self.sides[side] if self.states[ref]["status"] != "removed"]

    def apply(self, actor: str, target: str | None, effects: Sequence[Effect]) -> None:
        for effect in effects:
            ref = actor if effect.who == "actor" else target
            if ref is not None:
                effect.apply(self.states[ref])

    def act(self, check: str, actor: str, target: str | None, params: dict[str, Any]) -> None:
        resolution = self.prepared.resolve(check, {"die": self.die, **params}, self.dice)
        self.apply(actor, target, resolution.effects)
        self.events.append(SimEvent(self.turn, actor, target, resolution))

    def unit_acts(self, ref: str, enemy_side: int) -> None:
        state, kind = self.states[ref], self.stats[ref]["type"]
        enemies = self.standing(enemy_side)
        if state["hits"] > self.tables.RALLY_FATIGUE_PAST:
            self.act("rally", ref, None, {"hits": state["hits"], "passed_ten": True})
            return
        target = (
            enemies[self.dice.roll(len(enemies), "target") - 1] if len(enemies) > 1 else enemies[0]
        )
        target_params = {
            "target": self.stats[target]["type"],
            "target_hits": self.states[target]["hits"],
        }
        if kind in SHOOTERS and not state["out_of_missiles"]:
            self.act("shoot", ref, target, {"shooter": kind, **target_params})
        else:
            contact = "flank" if kind == "lights" else "front"
            self.act("melee", ref, target, {"attacker": kind, "contact": contact, **target_params})

    def player_turn(self, side: int) -> None:
        for ref in self.standing(side):
            if not self.standing(1 - side):
                return
            self.unit_acts(ref, 1 - side)

    def winner(self) -> int | None:
        left = [len(self.standing(side)) for side in (0, 1)]
        if left[0] == left[1]:
            return None
        return 0 if left[0] > left[1] else 1


def simulate(
    sides: Sequence[Sequence[SimFigure]],
    options: Mapping[str, Any],
    dice: Dice,
    *,
    tables: t.G90Tables = t.BASE,
    checks: Mapping[str, Check] = CHECKS,
    stats: Schema = STATS,
) -> SimResult:
    """Fight an abstract battle between two sides of units until one is gone or 15 turns, with
    `tables` and the checks and stats built from them (a club's, bound by `with_house`)."""
    battle = _Battle(sides, options.get("die", "d6"), dice, tables, checks, stats)
    while battle.turn <= MAX_TURNS and all(battle.standing(s) for s in (0, 1)):
        for side in (0, 1):
            battle.player_turn(side)
        battle.turn += 1
    casualties = tuple(len(battle.sides[s]) - len(battle.standing(s)) for s in (0, 1))
    return SimResult(
        battle.winner(), battle.turn - 1, tuple(battle.events), battle.states, casualties
    )
