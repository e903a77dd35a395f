"""Auto-resolve: an abstract Rencounter battle with the real checks (no terrain or ranges).

Each turn every unit activates once in a shuffled order (the card method without a reshuffle
card). Each man in it makes an action roll (a morale check if his unit lost men since its last
activation); if he acts he shoots at medium range with a loaded missile weapon, reloads, or
fights a random enemy in melee. The battle ends when a side reaches its breakpoint.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.activation import shuffle
from rules.checks import Check, Prepared
from rules.dice import Dice
from rules.simulate import SimEvent, SimFigure, SimResult, questions_for
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.campaign import side_broken
from rules.systems.rencounter.checks import CHECKS
from rules.systems.rencounter.stats import initial_state

MAX_TURNS = 60
_DOWN = frozenset({"dead", "out", "routed"})


class _Battle:
    """The mutable bookkeeping of one simulated battle."""

    def __init__(
        self,
        sides: Sequence[Sequence[SimFigure]],
        options: Mapping[str, Any],
        dice: Dice,
        tables: t.RencounterTables,
        checks: Mapping[str, Check],
    ) -> None:
        self.sides, self.options, self.dice = sides, options, dice
        self.states = {f.ref: initial_state(f.stats) for side in sides for f in side}
        self.events: list[SimEvent] = []
        self.used: dict[str, set[str]] = {f.ref: set() for side in sides for f in side}
        self.lost_seen: dict[tuple[int, str], int] = {}
        self.turn = 0
        # The tables and checks of the rules the battle runs under (a weapon a club added).
        self.tables, self.checks = tables, checks
        # Questions prepared under these checks, shared by every battle of a batch.
        self.questions = questions_for(checks)
        self.asked = self.questions.asked
        self.variant = options.get("master_variant", "always")
        self.breakpoint = options.get("breakpoint", "1/2")
        # Each side's units, and their men's battle states, by unit: fixed for the battle (the
        # states are changed in place), so grouped once rather than at every activation.
        self.groups = [self._grouped(side) for side in range(len(sides))]
        self.unit_states = [
            {name: [self.states[f.ref] for f in figures] for name, figures in group.items()}
            for group in self.groups
        ]

    def _grouped(self, side: int) -> dict[str, list[SimFigure]]:
        grouped: dict[str, list[SimFigure]] = {}
        for figure in self.sides[side]:
            grouped.setdefault(figure.unit or figure.ref, []).append(figure)
        return grouped

    def units(self, side: int) -> dict[str, list[SimFigure]]:
        return self.groups[side]

    def active(self, figure: SimFigure) -> bool:
        return self.states[figure.ref].get("status") not in _DOWN

    def resolve(self, prepared: Prepared, actor: SimFigure, target: SimFigure | None) -> str:
        resolution = prepared.roll(self.dice)
        self.events.append(
            _new_event(SimEvent, (self.turn, actor.ref, target.ref if target else None, resolution))
        )
        for effect in resolution.effects:
            who = actor if effect.who == "actor" else target
            if who is not None:
                effect.apply(self.states[who.ref])
        for figure in (actor, target):
            if figure is not None and self.states[figure.ref].get("wounds", 0) >= t.DEATH_POINTS:
                self.states[figure.ref]["status"] = "dead"
        return resolution.outcome

    def broken(self, side: int) -> bool:
        return side_broken(self.unit_states[side], self.breakpoint)


#: A SimEvent built as a plain tuple: a NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


def _typed(*values: Any) -> tuple[Any, ...]:
    """Stat values with their types, for a question's key: a stat of True is not one of 1."""
    return (*values, *map(type, values))


def _lost(battle: _Battle, figures: Sequence[SimFigure]) -> int:
    states = battle.states
    return sum(
        states[f.ref].get("status") in _DOWN or states[f.ref].get("wounds", 0) >= 3 for f in figures
    )


def _act(battle: _Battle, side: int, unit: Sequence[SimFigure], key: tuple[int, str]) -> None:
    lost = _lost(battle, unit)
    morale = lost > battle.lost_seen.get(key, 0)
    battle.lost_seen[key] = lost
    variant = battle.variant
    for figure in unit:
        state = battle.states[figure.ref]
        if state.get("status") in _DOWN:  # out of the fight (`_Battle.active`)
            continue
        experience, wounds = figure.stats["experience"], state.get("wounds", 0)
        # A question's key holds every value its parameters are built from (and the types of
        # those read from stats: a stat of True is not one of 1), so they are built only when
        # the question is new to the batch.
        if morale:
            asked: tuple[Any, ...] = ("morale", lost, wounds, variant, *_typed(experience))
        else:
            asked = ("action", wounds, variant, *_typed(experience))
        prepared = battle.asked.get(asked)
        if prepared is None:
            params = {"experience": experience, "wounds": wounds, "master_variant": variant}
            if morale:
                params["men_lost"] = lost
            prepared = battle.questions.prepare(asked, asked[0], params)
        outcome = battle.resolve(prepared, figure, None)
        battle.used[figure.ref].add("experience")
        if outcome == "acts":
            state["status"] = "wounded" if state.get("wounds") else "unhurt"
            _attack(battle, side, figure)


def _attack(battle: _Battle, side: int, figure: SimFigure) -> None:
    states = battle.states
    enemies = [f for f in battle.sides[1 - side] if states[f.ref].get("status") not in _DOWN]
    if not enemies:
        return
    target = (
        enemies[battle.dice.roll(len(enemies), "pick target") - 1]
        if len(enemies) > 1
        else enemies[0]
    )
    state = battle.states[figure.ref]
    if state.get("down"):
        state["down"] = False  # a knocked-down man spends his action recovering
        return
    weapons = battle.tables.missile_weapons
    missile = next((w for w in figure.stats.get("weapons", ()) if w in weapons), None)
    if missile and state.get("loaded", True):
        _shoot(battle, figure, target, missile)
    elif missile and state.get("reload_progress", 0) + 1 < math.ceil(weapons[missile].reload):
        state["reload_progress"] = state.get("reload_progress", 0) + 1
    elif missile:
        state.update(loaded=True, reload_progress=0)
    else:
        _fight(battle, figure, target)


def _shoot(battle: _Battle, figure: SimFigure, target: SimFigure, weapon: str) -> None:
    wounds = battle.states[figure.ref].get("wounds", 0)
    skill, armour = figure.stats["fire"], target.stats.get("armour", 0)
    key = ("fire", wounds, weapon, *_typed(skill, armour))
    prepared = battle.asked.get(key)
    if prepared is None:
        params = {
            "skill": skill,
            "modifier": -wounds,
            "weapon": weapon,
            "range": "medium",
            "target_armour": armour,
        }
        prepared = battle.questions.prepare(key, "fire", params)
    battle.resolve(prepared, figure, target)
    battle.states[figure.ref]["loaded"] = False
    battle.used[figure.ref].add("fire")


def _fight(battle: _Battle, figure: SimFigure, target: SimFigure) -> None:
    attack_skill, parry_skill = figure.stats["melee"], target.stats["melee"]
    attack_modifier = -battle.states[figure.ref].get("wounds", 0)
    parry_modifier = -battle.states[target.ref].get("wounds", 0)
    armour, master = target.stats.get("armour", 0), target.stats["experience"] == t.MASTER
    key = (
        "melee",
        attack_modifier,
        parry_modifier,
        master,
        *_typed(attack_skill, parry_skill, armour),
    )
    prepared = battle.asked.get(key)
    if prepared is None:
        params = {
            "attack_skill": attack_skill,
            "parry_skill": parry_skill,
            "attack_modifier": attack_modifier,
            "parry_modifier": parry_modifier,
            "defender_armour": armour,
            "defender_master": master,
        }
        prepared = battle.questions.prepare(key, "melee", params)
    battle.resolve(prepared, figure, target)
    battle.used[figure.ref].add("melee")
    battle.used[target.ref].add("melee")


def simulate(
    sides: Sequence[Sequence[SimFigure]],
    options: Mapping[str, Any],
    dice: Dice,
    *,
    tables: t.RencounterTables = t.BASE,
    checks: Mapping[str, Check] = CHECKS,
) -> SimResult:
    """Fight an abstract battle between two sides until one breaks (or a turn limit), with
    `tables` and the `checks` built from them (a club's, bound by `RuleSystem.with_house`)."""
    battle = _Battle(sides, options, dice, tables, checks)
    order = [(side, name) for side in range(len(sides)) for name in battle.units(side)]
    winner = None
    while winner is None and battle.turn < MAX_TURNS:
        battle.turn += 1
        for side, name in shuffle(order, dice, "unit cards"):
            _act(battle, side, battle.units(side)[name], (side, name))
            winner = _winner(battle)
            if winner is not None:
                break
    casualties = tuple(sum(not battle.active(f) for f in side) for side in sides)
    return SimResult(
        winner,
        battle.turn,
        tuple(battle.events),
        battle.states,
        casualties,
        {ref: frozenset(used) for ref, used in battle.used.items()},
    )


def _winner(battle: _Battle) -> int | None:
    broken = [battle.broken(side) for side in range(len(battle.sides))]
    if broken[0] != broken[1]:
        return 1 if broken[0] else 0
    return None
