"""Auto-resolve an Escarmouche battle: an abstract fight with no terrain and no distances.

Sides take turns by the initiative rules (`activation.py`). Each figure acts until a 1 ends its
go or its pool reaches `RISK` active dice (the text leaves the risk to the player; this is a
middling appetite). A figure first stands up, re-arms, or steadies itself when it has two or
more Shaken markers; otherwise it shoots with its lightest missile weapon (fewest passive dice,
since passive dice add risk but no score), or, without one, moves once into contact over clear
ground and fights a random enemy, with the special fight that fits the arms on each side.
Escarmouche has no morale or break rule, so a side is beaten when it has no figure left
standing; after `MAX_TURNS` side-turns the battle is a draw. Tables, checks and stats are the
ones handed in (a club's under its house rules, bound by `RuleSystem.with_house`), so its weapon
classes and limits hold here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.activation import State
from rules.checks import Check, Resolution
from rules.dice import Dice
from rules.errors import ValidationError
from rules.schema import Schema
from rules.simulate import (
    PreparedChecks,
    SimEvent,
    SimFigure,
    SimResult,
    validated_snapshot,
)
from rules.systems.escarmouche import activation
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.checks import NOT_AT_STAKE
from rules.systems.escarmouche.pool import KEEPS_INITIATIVE
from rules.systems.escarmouche.stats import STATS, initial_state, melee_weapon
from rules.systems.escarmouche.tables import CANNON

RISK = 3
MAX_TURNS = 200
OUT = "out"


class Kit(NamedTuple):
    """What a figure fights with, worked out once a battle: its stats do not change in it."""

    melee: t.MeleeWeapon | None
    arms: str
    lightest: str | None


@dataclass
class Battle:
    """The mutable bookkeeping of one simulated battle (local to `simulate`)."""

    figures: dict[str, SimFigure]
    side_of: dict[str, int]
    stats: dict[str, dict[str, Any]]
    states: dict[str, dict[str, Any]]
    checks: Mapping[str, Check]
    tables: t.EscarmoucheTables
    prepared: PreparedChecks
    kits: dict[str, Kit]
    #: Each figure's name in the initiative state (`side:ref`), built once a battle.
    units: dict[str, str]
    #: The ground a figure moves over: clear (the club's default terrain), read once a battle.
    ground: str
    events: list[SimEvent] = field(default_factory=list)
    engaged: set[str] = field(default_factory=set)
    skills_used: dict[str, set[str]] = field(default_factory=dict)
    #: Who stands on each side, asked several times an action; forgotten when one falls.
    _standing: dict[int, list[str]] = field(default_factory=dict)

    def standing(self, side: int) -> list[str]:
        known = self._standing.get(side)
        if known is None:
            known = self._standing[side] = [
                ref
                for ref, s in self.side_of.items()
                if s == side and self.states[ref]["status"] != OUT
            ]
        return known

    def beaten(self) -> int | None:
        # Asked before every action; answered from who stands while no one has fallen.
        if self._standing:
            first, second = self._standing.get(0), self._standing.get(1)
            if first and second:
                return None
        if not self.standing(0):
            return 0
        return 1 if not self.standing(1) else None


def _battle(
    sides: Sequence[Sequence[SimFigure]],
    tables: t.EscarmoucheTables,
    checks: Mapping[str, Check],
    schema: Schema,
) -> Battle:
    if len(sides) != 2:
        raise ValidationError({"sides": f"Escarmouche is fought by two sides, not {len(sides)}"})
    figures = {f.ref: f for side in sides for f in side}
    stats = {f.ref: validated_snapshot(schema, f.stats) for f in figures.values()}
    side_of = {f.ref: i for i, side in enumerate(sides) for f in side}
    return Battle(
        figures,
        side_of,
        stats,
        {ref: initial_state(s, tables=tables) for ref, s in stats.items()},
        checks,
        tables,
        PreparedChecks(checks),
        {
            ref: Kit(melee_weapon(s, tables), _arms(tables, s), _lightest_weapon(tables, s))
            for ref, s in stats.items()
        },
        {ref: f"{side}:{ref}" for ref, side in side_of.items()},
        t.default_key(tables.TERRAIN, t.DEFAULT_TERRAIN),
    )


def _pick_target(battle: Battle, ref: str, dice: Dice) -> str:
    enemies = battle.standing(1 - battle.side_of[ref])
    return enemies[dice.roll(len(enemies), "pick target") - 1] if len(enemies) > 1 else enemies[0]


def _develop_purpose(state: Mapping[str, Any], kit: Kit) -> str | None:
    if state["prone"]:
        return "stand_up"
    melee = kit.melee
    if state["disarmed"] and not (melee and melee.weaponless):
        return "rearm"
    return "remove_shaken" if state["shaken"] >= 2 else None


def _lightest_weapon(tables: t.EscarmoucheTables, stats: Mapping[str, Any]) -> str | None:
    weapons: list[str] = list(stats["weapons"])
    passive: dict[str, int] = tables.WEAPON_PASSIVE
    return min(weapons, key=passive.__getitem__) if weapons else None


def _common(act: State, state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "active": act["pool"],
        "ones_before": min(act["side_ones"], 1),
        "shaken": min(state["shaken"], 10),
    }


def _shot(
    battle: Battle, ref: str, target: str, act: State, weapon: str
) -> tuple[str, dict[str, Any]]:
    stats, state = battle.stats[ref], battle.states[ref]
    params = {
        **_common(act, state),
        "rating": stats["rating"],
        "target_rating": battle.stats[target]["rating"],
        "cover": battle.states[target]["cover"],
    }
    if weapon == CANNON:
        return "artillery", {**params, "artillerist": stats["artillerist"]}
    return "shoot", {**params, "weapon": weapon, "skill": stats["shooter"]}


def _arms(tables: t.EscarmoucheTables, stats: Mapping[str, Any]) -> str:
    if stats["mounted"]:
        return "horse"
    melee = melee_weapon(stats, tables)
    return "pike" if melee and melee.pike else "foot"


#: The check (by name) that fits the arms on each side, and who attacks in it.
_FIGHTS: dict[tuple[str, str], tuple[str, dict[str, bool]]] = {
    ("pike", "horse"): ("pike_vs_cavalry", {"pike_attacks": True}),
    ("horse", "pike"): ("pike_vs_cavalry", {"pike_attacks": False}),
    ("horse", "foot"): ("horse_vs_foot", {"horse_attacks": True}),
    ("foot", "horse"): ("horse_vs_foot", {"horse_attacks": False}),
    ("pike", "pike"): ("pike_fencing", {}),
}
_SKILL_FOR_ARMS = {"horse": "rider", "pike": "pike_trailer", "foot": "fighter"}


def _fight(battle: Battle, ref: str, target: str, act: State) -> tuple[str, dict[str, Any]]:
    stats, state = battle.stats[ref], battle.states[ref]
    enemy = battle.stats[target]
    mine, theirs = battle.kits[ref].arms, battle.kits[target].arms
    check, extra = _FIGHTS.get((mine, theirs), ("fight", {}))
    return check, {
        **_common(act, state),
        **extra,
        "rating": stats["rating"],
        "skill": stats[_SKILL_FOR_ARMS[mine]],
        "cover": battle.states[target]["cover"],
        "weaponless": bool(state["disarmed"]),
        "defender_rating": enemy["rating"],
        "defender_skill": enemy[_SKILL_FOR_ARMS[theirs]],
    }


def _choose(
    battle: Battle, ref: str, act: State, dice: Dice
) -> tuple[str, dict[str, Any], str | None, str]:
    """Return the check's name, its params, the target and the action kind for the next go."""
    state = battle.states[ref]
    purpose = _develop_purpose(state, battle.kits[ref])
    if purpose:
        return "develop", {**_common(act, state), "purpose": purpose}, None, "develop"
    weapon = battle.kits[ref].lightest
    target = _pick_target(battle, ref, dice)
    if weapon:
        return (*_shot(battle, ref, target, act, weapon), target, "shoot")
    if ref not in battle.engaged:
        return (
            "move",
            {
                "active": act["pool"],
                "terrain": battle.ground,
                "shaken": state["shaken"],
                "ones_before": min(act["side_ones"], 1),
            },
            None,
            activation.MOVE,
        )
    return (*_fight(battle, ref, target, act), target, "fight")


def _apply(battle: Battle, ref: str, target: str | None, resolution: Resolution) -> None:
    for effect in resolution.effects:
        who = ref if effect.who == "actor" else target
        if who is not None:
            effect.apply(battle.states[who])
            if effect.key == "status":  # who stands is read from status only
                battle._standing.clear()
    for who in filter(None, (ref, target)):
        state = battle.states[who]
        if state["wounds"] <= 0:
            if state["status"] != OUT:
                battle._standing.clear()
            state["status"] = OUT
        elif state["wounds"] < battle.stats[who]["wounds"]:
            state["status"] = "wounded"


def _note_skills(
    battle: Battle, ref: str, target: str | None, check: Check, params: Mapping[str, Any]
) -> None:
    if check.skill and params.get("skill", params.get("artillerist", 0)):
        mine = (
            _SKILL_FOR_ARMS[battle.kits[ref].arms] if "defender_rating" in params else check.skill
        )
        battle.skills_used.setdefault(ref, set()).add(mine)
    if target and params.get("defender_skill", 0) > params.get("defender_rating", 9):
        battle.skills_used.setdefault(target, set()).add(_SKILL_FOR_ARMS[battle.kits[target].arms])


def _action(battle: Battle, ref: str, act: State, dice: Dice, turn: int) -> tuple[State, str]:
    name, params, target, kind = _choose(battle, ref, act, dice)
    check = battle.checks[name]
    resolution = battle.prepared.resolve(name, params, dice)
    battle.events.append(SimEvent(turn, ref, target, resolution))
    _apply(battle, ref, target, resolution)
    _note_skills(battle, ref, target, check, params)
    if kind == activation.MOVE:
        battle.engaged.add(ref)
    result = resolution.details.get("initiative", resolution.outcome)
    result = KEEPS_INITIATIVE if result == NOT_AT_STAKE else result
    for who in (ref, target) if target else (ref,):
        if battle.states[who]["status"] == OUT and battle.units[who] not in act["removed"]:
            act = activation.remove(act, battle.units[who])
    return activation.after_action(act, kind, result), result


def _figure_go(battle: Battle, unit: str, act: State, dice: Dice) -> State:
    act = activation.begin_figure(act, unit)
    ref = unit.partition(":")[2]
    while act["current"] == unit and battle.beaten() is None:
        act, result = _action(battle, ref, act, dice, act["turn"])
        if result == KEEPS_INITIATIVE and act["current"] == unit and act["pool"] >= RISK:
            act = activation.end_figure(act)
    return act


def _side_turn(battle: Battle, act: State, dice: Dice) -> State:
    while battle.beaten() is None and not act["side_over"]:
        waiting = activation.may_act(act)
        if not waiting:
            break
        act = _figure_go(battle, waiting[0], act, dice)
    return act


def simulate(
    sides: Sequence[Sequence[SimFigure]],
    options: Mapping[str, Any],
    dice: Dice,
    *,
    tables: t.EscarmoucheTables = t.BASE,
    checks: Mapping[str, Check] | None = None,
    stats: Schema = STATS,
) -> SimResult:
    """Fight an abstract battle between two sides until one has no figure standing, with
    `tables` and the checks and stats built from them (the system's own without `checks`)."""
    if checks is None:
        from rules.systems.escarmouche import ESCARMOUCHE

        checks = ESCARMOUCHE.checks
    battle = _battle(sides, tables, checks, stats)
    act = activation.start(list(battle.units.values()), options, dice)
    while battle.beaten() is None and act["turn"] <= MAX_TURNS:
        act = _side_turn(battle, act, dice)
        act = activation.draw(act, dice).state
    beaten = battle.beaten()
    return SimResult(
        winner=None if beaten is None else 1 - beaten,
        turns=min(act["turn"], MAX_TURNS),
        events=tuple(battle.events),
        states=battle.states,
        casualties=tuple(
            sum(
                1
                for r, s in battle.side_of.items()
                if s == side and battle.states[r]["status"] == OUT
            )
            for side in (0, 1)
        ),
        skills_used={ref: frozenset(used) for ref, used in battle.skills_used.items()},
    )
