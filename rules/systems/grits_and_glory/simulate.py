"""Auto-resolve: an abstract Grits & Glory battle between units (no terrain, no distances).

Units act in action-deck order. A Shaken unit rolls to recover first. A unit with a ranged
weapon shoots (after a jam it spends its actions reloading: one, plus the weapon's Reload N),
otherwise its figures close and fight, ganging up on one target. Hits roll damage with the real
checks. A force is Broken when it has lost half its units; the battle stops when a force breaks,
or when the end-of-game d10 says so after turn 6 (then the side that lost the smaller share of
its units wins).

Under a house-rules pack the battle is fought with the pack's snapshot: its checks, stat schema,
weapon table and Joker's bonus (a weapon the club added is carried, fired and rolled for damage
like any other); `house.py`'s built_from binds them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.activation import State
from rules.checks import Check, Resolution
from rules.dice import Dice
from rules.simulate import (
    PreparedChecks,
    SimEvent,
    SimFigure,
    SimResult,
    validated_snapshot,
)
from rules.systems.grits_and_glory import deck
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.stats import state_at_start, stats_schema

MAX_TURNS = 40
#: Battle statuses of a unit still fighting (the rest are out, ko, dead or routed).
IN_PLAY = ("unhurt", "wounded")


@dataclass
class _Battle:
    units: dict[str, SimFigure]
    side_of: dict[str, int]
    stats: dict[str, dict[str, Any]]
    states: dict[str, dict[str, Any]]
    starting: tuple[int, ...]
    #: The tables snapshot the battle is fought with (the text's, or a club's).
    tables: t.GGTables
    #: The checks built from it (the system's, or under a house-rules pack the pack's), by name.
    checks: Mapping[str, Check] = field(default_factory=dict)
    prepared: PreparedChecks = field(init=False)
    events: list[SimEvent] = field(default_factory=list)
    skills: dict[str, set[str]] = field(default_factory=dict)
    turn: int = 1
    #: Each unit's ranged weapon (None without one) and melee weapon, read once a battle.
    ranged: dict[str, str | None] = field(default_factory=dict)
    melee: dict[str, str] = field(default_factory=dict)
    #: Who is still fighting on each side; forgotten whenever a unit's status changes.
    _active: dict[int, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.prepared = PreparedChecks(self.checks)
        # A unit's weapons do not change in a battle; its every action asks which it uses.
        for ref, stats in self.stats.items():
            self.ranged[ref] = _weapon(stats, self.tables.RANGED_KEYS)
            self.melee[ref] = _weapon(stats, self.tables.MELEE_KEYS) or "unarmed"

    def active(self, side: int) -> list[str]:
        known = self._active.get(side)
        if known is None:
            known = self._active[side] = [
                r
                for r, s in self.side_of.items()
                if s == side and self.states[r]["status"] in IN_PLAY
            ]
        return known

    def lost_share(self, side: int) -> float:
        return 1 - len(self.active(side)) / self.starting[side]

    def broken(self, side: int) -> bool:
        return len(self.active(side)) * 2 <= self.starting[side]

    def run(
        self, check: Check, params: Mapping[str, Any], dice: Dice, actor: str, target: str | None
    ) -> Resolution:
        resolution = self.prepared.resolve(check.name, params, dice)
        self.events.append(SimEvent(self.turn, actor, target, resolution))
        if check.skill:
            self.skills.setdefault(actor, set()).add(check.skill)
        for effect in resolution.effects:
            who = actor if effect.who == "actor" else target
            if who is not None:
                effect.apply(self.states[who])
                if effect.key == "status":  # who is still fighting is read from status only
                    self._active.clear()
        return resolution


def _weapon(stats: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((w for w in stats["weapons"] if w in keys), None)


def _damage(
    b: _Battle, actor: str, target: str, weapon: str, raised: bool, joker: bool, dice: Dice
) -> None:
    ts, state = b.stats[target], b.states[target]
    params = {
        "weapon": weapon,
        "strength": b.stats[actor]["strength"],
        "raise_hit": raised,
        "joker": joker,
        "toughness": ts["toughness"],
        "mounted_target": ts["mounted"],
        "target_wild_card": ts["wild_card"],
        "target_shaken": state["shaken"] >= state["figures"],
        "target_wounds": state["wounds"],
        "target_figures": state["figures"],
    }
    b.run(b.checks["damage"], params, dice, actor, target)
    state["shaken"] = max(0, min(state["shaken"], state["figures"]))
    if state["figures"] <= 0:
        state["status"] = "out"
        b._active.clear()


def _shoot(b: _Battle, actor: str, target: str, weapon: str, joker: bool, dice: Dice) -> None:
    stats, state = b.stats[actor], b.states[actor]
    if not state["loaded"]:
        reload = {"reload": b.tables.WEAPONS[weapon].reload, "reloading": state["reloading"]}
        b.run(b.checks["reload"], reload, dice, actor, None)  # the action goes on reloading
        return
    for _ in range(state["figures"]):
        if b.states[target]["status"] not in IN_PLAY:
            return
        params = {
            "die": stats["shooting"],
            "wild_card": stats["wild_card"],
            "joker": joker,
            "wounds": min(state["wounds"], 3),
        }
        shot = b.run(b.checks["shooting"], params, dice, actor, target)
        if shot.outcome.split("_")[0] in ("hit", "raise"):
            _damage(b, actor, target, weapon, shot.outcome.startswith("raise"), joker, dice)


def _fight(b: _Battle, actor: str, target: str, joker: bool, dice: Dice) -> None:
    stats, state = b.stats[actor], b.states[actor]
    weapon = b.melee[actor]
    gang = min(state["figures"] - 1, b.tables.GANG_UP_MAX)
    for _ in range(state["figures"]):
        if b.states[target]["status"] not in IN_PLAY:
            return
        params = {
            "die": stats["fighting"],
            "wild_card": stats["wild_card"],
            "joker": joker,
            "parry": b.stats[target]["parry"],
            "gang_up": gang,
            "wounds": min(state["wounds"], 3),
        }
        blow = b.run(b.checks["fighting"], params, dice, actor, target)
        if blow.outcome != "miss":
            _damage(b, actor, target, weapon, blow.outcome == "raise", joker, dice)


def _act(b: _Battle, actor: str, joker: bool, dice: Dice) -> None:
    state, stats = b.states[actor], b.stats[actor]
    if state["status"] not in IN_PLAY:
        return
    if state["shaken"] > 0:
        params = {"die": stats["spirit"], "wild_card": stats["wild_card"]}
        if b.run(b.checks["recover"], params, dice, actor, None).outcome != "acts":
            return
    foes = b.active(1 - b.side_of[actor])
    if not foes:
        return
    target = foes[dice.roll(len(foes), "target") - 1] if len(foes) > 1 else foes[0]
    ranged = b.ranged[actor]
    if ranged:
        _shoot(b, actor, target, ranged, joker, dice)
    else:
        _fight(b, actor, target, joker, dice)


def _outcome(b: _Battle) -> int | None:
    broken = [b.broken(0), b.broken(1)]
    if broken[0] != broken[1]:
        return 0 if broken[1] else 1
    if b.lost_share(0) == b.lost_share(1):
        return None
    return 0 if b.lost_share(0) < b.lost_share(1) else 1


def _turn_over(b: _Battle, dice: Dice) -> bool:
    if b.broken(0) or b.broken(1) or b.turn >= MAX_TURNS:
        return True
    ends = b.run(b.checks["end_game"], {"turn": b.turn}, dice, "game", None).outcome == "ends"
    b.turn += 1
    return ends


def _setup(
    sides: Sequence[Sequence[SimFigure]], tables: t.GGTables, checks: Mapping[str, Check]
) -> _Battle:
    units = {u.ref: u for side in sides for u in side}
    side_of = {u.ref: i for i, side in enumerate(sides) for u in side}
    schema = stats_schema(tables)
    stats = {ref: validated_snapshot(schema, u.stats) for ref, u in units.items()}
    states = {ref: state_at_start(s) for ref, s in stats.items()}
    starting = tuple(len(side) for side in sides)
    return _Battle(units, side_of, stats, states, starting, tables, checks)


def simulate(
    sides: Sequence[Sequence[SimFigure]],
    options: Mapping[str, Any],
    dice: Dice,
    *,
    tables: t.GGTables = t.BASE,
    checks: Mapping[str, Check] | None = None,
) -> SimResult:
    """Fight an abstract battle between two forces of units until one breaks or time runs out,
    with the tables snapshot `tables` and the checks built from it (the system's as written
    when none are given)."""
    if len(sides) != 2 or not all(sides):
        raise ValueError("auto-resolve needs exactly two forces, each with at least one unit")
    if checks is None:
        from rules.systems.grits_and_glory import CHECKS

        checks = CHECKS
    b = _setup(sides, tables, checks)
    state: State = deck.start(list(b.units), options, dice)
    while True:
        drawn = deck.draw(state, dice, tables=tables)
        state = drawn.state
        _act(b, drawn.result["unit"], drawn.result["joker"], dice)
        if not state["queue"] and _turn_over(b, dice):
            break
        if b.broken(0) or b.broken(1):
            break
    return _result(b)


def _result(b: _Battle) -> SimResult:
    lost = [0, 0]
    for ref, side in b.side_of.items():
        lost[side] += b.stats[ref]["figures"] - max(b.states[ref]["figures"], 0)
    return SimResult(
        _outcome(b),
        b.turn,
        tuple(b.events),
        b.states,
        tuple(lost),
        {ref: frozenset(skills) for ref, skills in b.skills.items()},
    )
