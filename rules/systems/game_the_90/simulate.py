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

from rules.checks import Check, Prepared
from rules.dice import Dice
from rules.schema import Schema
from rules.simulate import SimEvent, SimFigure, SimResult, questions_for, validated_snapshot
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
        # Questions prepared under these checks, shared by every battle of a batch.
        self.questions = questions_for(checks)
        self.asked = self.questions.asked
        self.sides = [[f.ref for f in side] for side in sides]
        self.stats = {f.ref: validated_snapshot(stats, f.stats) for side in sides for f in side}
        self.states = {ref: initial_state(s, tables=tables) for ref, s in self.stats.items()}
        self.kinds = {ref: s["type"] for ref, s in self.stats.items()}
        # Each side's units not removed, in the side's order: kept as units are removed rather
        # than read from every state whenever a unit picks a target.
        self.up = [
            [ref for ref in side if self.states[ref]["status"] != "removed"] for side in self.sides
        ]
        self.die, self.dice = die, dice
        self.events: list[SimEvent] = []
        self.turn = 1

    def standing(self, side: int) -> list[str]:
        return self.up[side]

    def act(self, prepared: Prepared, actor: str, target: str | None) -> None:
        resolution = prepared.roll(self.dice)
        for effect in resolution.effects:
            ref = actor if effect.who == "actor" else target
            if ref is not None:
                effect.apply(self.states[ref])
        for ref in (actor, target):
            if ref is not None and self.states[ref]["status"] == "removed":
                for up in self.up:
                    if ref in up:
                        up.remove(ref)
        self.events.append(_new_event(SimEvent, (self.turn, actor, target, resolution)))

    def unit_acts(self, ref: str, enemy_side: int) -> None:
        state, kind, die = self.states[ref], self.kinds[ref], self.die
        enemies = self.up[enemy_side]
        if state["hits"] > self.tables.RALLY_FATIGUE_PAST:
            hits = state["hits"]
            key: tuple[Any, ...] = ("rally", die, hits)
            prepared = self.asked.get(key)
            if prepared is None:
                params = {"die": die, "hits": hits, "passed_ten": True}
                prepared = self.questions.prepare(key, "rally", params)
            self.act(prepared, ref, None)
            return
        target = (
            enemies[self.dice.roll(len(enemies), "target") - 1] if len(enemies) > 1 else enemies[0]
        )
        target_kind, target_hits = self.kinds[target], self.states[target]["hits"]
        if kind in SHOOTERS and not state["out_of_missiles"]:
            key = ("shoot", die, kind, target_kind, target_hits)
            prepared = self.asked.get(key)
            if prepared is None:
                params = {
                    "die": die,
                    "shooter": kind,
                    "target": target_kind,
                    "target_hits": target_hits,
                }
                prepared = self.questions.prepare(key, "shoot", params)
        else:
            contact = "flank" if kind == "lights" else "front"
            key = ("melee", die, kind, contact, target_kind, target_hits)
            prepared = self.asked.get(key)
            if prepared is None:
                params = {
                    "die": die,
                    "attacker": kind,
                    "contact": contact,
                    "target": target_kind,
                    "target_hits": target_hits,
                }
                prepared = self.questions.prepare(key, "melee", params)
        self.act(prepared, ref, target)

    def player_turn(self, side: int) -> None:
        enemies = self.up[1 - side]
        # The side's units as the turn begins (a unit acts even if a rally or a shot changed
        # the list since).
        for ref in tuple(self.up[side]):
            if not enemies:
                return
            self.unit_acts(ref, 1 - side)

    def winner(self) -> int | None:
        left = [len(self.up[side]) for side in (0, 1)]
        if left[0] == left[1]:
            return None
        return 0 if left[0] > left[1] else 1


#: A SimEvent built as a plain tuple: a NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


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
