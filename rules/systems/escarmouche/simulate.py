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

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.activation import State
from rules.checks import Check, Effect, Prepared
from rules.dice import Dice
from rules.errors import ValidationError
from rules.schema import Schema
from rules.simulate import (
    ByStats,
    SimEvent,
    SimFigure,
    SimResult,
    battle_questions,
    validated_snapshot,
)
from rules.systems.escarmouche import activation
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.checks import MAX_MARKERS, NOT_AT_STAKE
from rules.systems.escarmouche.pool import KEEPS_INITIATIVE
from rules.systems.escarmouche.stats import STATS, initial_state, melee_weapon
from rules.systems.escarmouche.tables import CANNON

RISK = 3
MAX_TURNS = 200
OUT = "out"
#: Prepared questions a check without plans keeps for one battle (see `battle_questions`).
_QUESTIONS_SIZE = 4096


class Kit(NamedTuple):
    """What a figure fights with, worked out once: its stats do not change in a battle."""

    melee: t.MeleeWeapon | None
    arms: str
    lightest: str | None


class _Figure(NamedTuple):
    """A figure's validated stats (shared between battles: read, never changed), kit,
    state at the start (`initial_state`: each battle takes a copy) and its fights against
    other figures (`_matchup`), kept with it for the next battle."""

    stats: dict[str, Any]
    kit: Kit
    start: dict[str, Any]
    #: Each foe's `Matchup`, by the foe's `_Figure` identity (the foe kept beside it, so the
    #: identity cannot be reused while it is kept).
    matchups: dict[int, tuple[_Figure, Matchup]]


#: What a fight between two figures asks that their stats decide, worked out once: the check
#: that fits their arms, the part of the question their stats make up and the parameters it
#: stands for, and the skills the fight may exercise (the actor's, the defender's). A plain
#: tuple: every fight unpacks it, and a NamedTuple unpacks through an iterator.
Matchup = tuple[str, tuple[Any, ...], dict[str, Any], str | None, str | None]


#: What a figure brings to battle (see `_figure`), by the stats mapping handed in.
_FIGURES: ByStats[_Figure] = ByStats()
#: Foes a figure keeps its matchups with (`_matchup`): a batch fields a few dozen figures.
_MATCHUPS_SIZE = 256


def _figure(tables: t.EscarmoucheTables, schema: Schema, stats: Mapping[str, Any]) -> _Figure:
    """The figure's stats validated (`validated_snapshot`), its kit and its starting state,
    kept for the stats mapping a batch hands in battle after battle (`ByStats`)."""
    return _FIGURES.get(stats, (tables, schema), _new_figure)


def _new_figure(tables: t.EscarmoucheTables, schema: Schema, stats: Mapping[str, Any]) -> _Figure:
    valid = validated_snapshot(schema, stats)
    kit = Kit(melee_weapon(valid, tables), _arms(tables, valid), _lightest_weapon(tables, valid))
    return _Figure(valid, kit, initial_state(valid, tables=tables), {})


class Fighter:
    """A figure in one battle, as its every action reads it: what a ref would otherwise look
    up in half a dozen dicts, found once a battle."""

    __slots__ = ("figure", "kit", "lightest", "rearms", "ref", "side", "state", "stats", "unit")

    def __init__(self, ref: str, side: int, figure: _Figure) -> None:
        self.ref, self.side, self.figure = ref, side, figure
        #: Its name in the initiative state.
        self.unit = f"{side}:{ref}"
        #: Its validated stats: shared with the battles before, so read and never changed.
        self.stats, self.kit = figure.stats, figure.kit
        self.state = {**figure.start}
        melee = figure.kit.melee
        #: Whether it takes up a weapon when Disarmed (one that fights weaponless does not).
        self.rearms = not (melee and melee.weaponless)
        #: The missile weapon it shoots with, if any (`Kit.lightest`).
        self.lightest = figure.kit.lightest


@dataclass
class Battle:
    """The mutable bookkeeping of one simulated battle (local to `simulate`)."""

    #: Each figure in the battle, by its ref.
    fighters: dict[str, Fighter]
    checks: Mapping[str, Check]
    tables: t.EscarmoucheTables
    #: The ground a figure moves over: clear (the club's default terrain), read once a battle.
    ground: str
    events: list[SimEvent] = field(default_factory=list)
    engaged: set[str] = field(default_factory=set)
    skills_used: dict[str, set[str]] = field(default_factory=dict)
    #: Each check's prepared questions, by the few values that make up its parameters.
    questions: dict[str, dict[Hashable, Prepared]] = field(default_factory=dict)
    #: The side with no figure standing (None while both stand): asked before every action,
    #: so worked out only when a figure falls (`fell`).
    beaten: int | None = None
    #: Who stands on each side (side 0's, side 1's), read on every action: worked out again
    #: only when a figure falls (`fell`).
    up: tuple[list[Fighter], list[Fighter]] = field(init=False)

    def __post_init__(self) -> None:
        self.questions = battle_questions(self.checks)
        self.fell()

    @property
    def states(self) -> dict[str, dict[str, Any]]:
        """Each figure's battle state, by its ref."""
        return {ref: fighter.state for ref, fighter in self.fighters.items()}

    def fell(self) -> None:
        """A figure fell (its status is out): who stands, and whether a side is beaten."""
        up: tuple[list[Fighter], list[Fighter]] = ([], [])
        for fighter in self.fighters.values():
            if fighter.state["status"] != OUT:
                up[fighter.side].append(fighter)
        self.up = up
        self.beaten = 0 if not up[0] else 1 if not up[1] else None

    def fell_out(self, fighter: Fighter) -> None:
        """`fell` when `fighter`, standing until now, is out: it leaves its side's list (the
        others keep their order, which a target is picked by)."""
        up = self.up[fighter.side]
        up.remove(fighter)
        if not up:
            self.beaten = 0 if not self.up[0] else 1

    def ask(self, name: str, question: Hashable, params: Mapping[str, Any]) -> Prepared:
        """The check called `name` prepared for `params`, kept by `question` (which stands
        for them) so the next time the same question is asked nothing is built."""
        questions = self.questions[name]
        if len(questions) >= _QUESTIONS_SIZE:
            questions.clear()
        prepared = questions[question] = self.checks[name].prepare(params)
        return prepared


def _battle(
    sides: Sequence[Sequence[SimFigure]],
    tables: t.EscarmoucheTables,
    checks: Mapping[str, Check],
    schema: Schema,
) -> Battle:
    if len(sides) != 2:
        raise ValidationError({"sides": f"Escarmouche is fought by two sides, not {len(sides)}"})
    fighters = {
        f.ref: Fighter(f.ref, i, _figure(tables, schema, f.stats))
        for i, side in enumerate(sides)
        for f in side
    }
    ground = t.default_key(tables.TERRAIN, t.DEFAULT_TERRAIN)
    return Battle(fighters, checks, tables, ground)


def _lightest_weapon(tables: t.EscarmoucheTables, stats: Mapping[str, Any]) -> str | None:
    weapons: list[str] = list(stats["weapons"])
    passive: dict[str, int] = tables.WEAPON_PASSIVE
    return min(weapons, key=passive.__getitem__) if weapons else None


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

#: An action chosen: the check prepared for it, its target, the action's kind for the
#: initiative, and the skills it exercises (the actor's and the target's, if any).
Chosen = tuple[Prepared, Fighter | None, str, str | None, str | None]


def _shaken(state: Mapping[str, Any]) -> int:
    """The figure's Shaken markers, as many as a question takes (`MAX_MARKERS`)."""
    shaken: int = state["shaken"]
    return shaken if shaken < MAX_MARKERS else MAX_MARKERS


def _develop(battle: Battle, act: State, ones_before: int, me: Fighter, purpose: str) -> Chosen:
    pool, shaken = act["pool"], _shaken(me.state)
    question = (pool, ones_before, shaken, purpose)
    prepared = battle.questions["develop"].get(question) or battle.ask(
        "develop",
        question,
        {"active": pool, "ones_before": ones_before, "shaken": shaken, "purpose": purpose},
    )
    return prepared, None, "develop", None, None


def _shot(
    battle: Battle, act: State, ones_before: int, me: Fighter, target: Fighter, weapon: str
) -> Chosen:
    stats = me.stats
    pool, shaken = act["pool"], _shaken(me.state)
    rating, target_rating = stats["rating"], target.stats["rating"]
    cover = target.state["cover"]
    question: tuple[Any, ...] = (pool, ones_before, shaken, rating, target_rating, cover)
    if weapon == CANNON:
        name, skill, kit = "artillery", stats["artillerist"], {}
        question = (*question, skill)
    else:
        name, skill, kit = "shoot", stats["shooter"], {"weapon": weapon}
        question = (*question, weapon, skill)
    prepared = battle.questions[name].get(question)
    if prepared is None:
        params = {
            "active": pool,
            "ones_before": ones_before,
            "shaken": shaken,
            "rating": rating,
            "target_rating": target_rating,
            "cover": cover,
            **kit,
            "skill" if kit else "artillerist": skill,
        }
        prepared = battle.ask(name, question, params)
    return prepared, target, "shoot", prepared.check.skill if skill else None, None


def _matchup(me: Fighter, target: Fighter) -> Matchup:
    """What the fight of `me` against `target` asks that their stats decide, worked out the
    first time the two figures (by their stats) meet and kept with the attacker's figure
    (`_fight` looks it up there itself)."""
    mine, theirs = me.figure, target.figure
    name, extra = _FIGHTS.get((me.kit.arms, target.kit.arms), ("fight", {}))
    skill_name, defence_name = _SKILL_FOR_ARMS[me.kit.arms], _SKILL_FOR_ARMS[target.kit.arms]
    stats, enemy = me.stats, target.stats
    rating, skill = stats["rating"], stats[skill_name]
    defender_rating, defender_skill = enemy["rating"], enemy[defence_name]
    params = {
        **extra,
        "rating": rating,
        "skill": skill,
        "defender_rating": defender_rating,
        "defender_skill": defender_skill,
    }
    matchup = (
        name,
        (*extra.values(), rating, skill, defender_rating, defender_skill),
        params,
        skill_name if skill else None,
        # A skill counts as used when it adds to the roll: the defender's when it beats the
        # rating.
        defence_name if defender_skill > defender_rating else None,
    )
    if len(mine.matchups) >= _MATCHUPS_SIZE:
        mine.matchups.clear()
    mine.matchups[id(theirs)] = (theirs, matchup)
    return matchup


def _fight(battle: Battle, act: State, ones_before: int, me: Fighter, target: Fighter) -> Chosen:
    known = me.figure.matchups.get(id(target.figure))
    if known is None or known[0] is not target.figure:
        known = target.figure, _matchup(me, target)
    name, fixed, params, skill, defended = known[1]
    state = me.state
    pool, shaken = act["pool"], state["shaken"]
    shaken = shaken if shaken < MAX_MARKERS else MAX_MARKERS  # `_shaken`, without the call
    cover, weaponless = target.state["cover"], bool(state["disarmed"])
    # What changes from action to action, then what the two figures' stats fix: the matchup's
    # own tuple, found identical at once when the question is looked up.
    question = (pool, ones_before, shaken, cover, weaponless, fixed)
    prepared = battle.questions[name].get(question)
    if prepared is None:
        params = {
            "active": pool,
            "ones_before": ones_before,
            "shaken": shaken,
            **params,
            "cover": cover,
            "weaponless": weaponless,
        }
        prepared = battle.ask(name, question, params)
    return prepared, target, "fight", skill if prepared.check.skill else None, defended


def _move(battle: Battle, act: State, ones_before: int, me: Fighter) -> Chosen:
    pool, shaken = act["pool"], me.state["shaken"]
    question = (pool, battle.ground, shaken, ones_before)
    prepared = battle.questions["move"].get(question) or battle.ask(
        "move",
        question,
        {"active": pool, "terrain": battle.ground, "shaken": shaken, "ones_before": ones_before},
    )
    return prepared, None, activation.MOVE, None, None


def _choose(battle: Battle, act: State, ones_before: int, me: Fighter, dice: Dice) -> Chosen:
    """The check prepared for the figure's next go, its target, the action's kind and the
    skills it exercises."""
    state = me.state
    # First stand up, re-arm, or steady a figure with two or more Shaken markers.
    if state["prone"]:
        return _develop(battle, act, ones_before, me, "stand_up")
    if state["disarmed"] and me.rearms:
        return _develop(battle, act, ones_before, me, "rearm")
    if state["shaken"] >= 2:
        return _develop(battle, act, ones_before, me, "remove_shaken")
    enemies = battle.up[1 - me.side]
    target = enemies[dice.roll(len(enemies), "pick target") - 1] if len(enemies) > 1 else enemies[0]
    if me.lightest:
        return _shot(battle, act, ones_before, me, target, me.lightest)
    if me.ref not in battle.engaged:
        return _move(battle, act, ones_before, me)
    return _fight(battle, act, ones_before, me, target)


#: The state keys a figure's status follows: an effect on any other key (a Shaken marker,
#: cover, prone) leaves the status its wounds gave it.
_SETTLED_BY = ("wounds", "status")


def _apply(
    battle: Battle,
    me: Fighter,
    target: Fighter | None,
    effects: tuple[Effect, ...],
    initiative: activation.Initiative,
) -> None:
    """Apply the effects; a figure with no wounds left is out, and out of the initiative.

    Only a figure whose wounds or status an effect changed is looked at afterwards: a
    figure's state changes through effects alone, and its status follows its wounds (a
    starting figure is whole and unhurt), so any other figure still has the status its
    wounds gave it. Most actions change nobody's wounds.
    """
    settle_actor, settle_target = False, False
    for effect in effects:
        if effect.who == "actor":
            who = me
        elif target is None:
            continue
        else:
            who = target
        effect.apply(who.state)
        if effect.key in _SETTLED_BY:
            if who is me:
                settle_actor = True
            else:
                settle_target = True
            if effect.key == "status":  # who stands is read from status only
                battle.fell()
    if settle_actor:
        _settle(battle, me, initiative)
    if settle_target and target is not None:
        _settle(battle, target, initiative)


def _settle(battle: Battle, who: Fighter, initiative: activation.Initiative) -> None:
    """Give a figure the status its wounds say; one with none left is out of the initiative."""
    state = who.state
    if state["wounds"] <= 0:
        fell = state["status"] != OUT
        state["status"] = OUT
        if fell:
            battle.fell_out(who)
    elif state["wounds"] < who.stats["wounds"]:
        state["status"] = "wounded"
    if state["status"] == OUT and who.unit not in initiative.state["removed"]:
        initiative.remove(who.unit)


def _note(battle: Battle, ref: str, skill: str) -> None:
    used = battle.skills_used.get(ref)
    if used is None:
        used = battle.skills_used[ref] = set()
    used.add(skill)


#: A SimEvent built as a plain tuple: NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


def _action(
    battle: Battle, me: Fighter, ones_before: int, initiative: activation.Initiative, dice: Dice
) -> str:
    act = initiative.state
    turn = act["turn"]
    prepared, target, kind, used, defended = _choose(battle, act, ones_before, me, dice)
    resolution = prepared.roll(dice)
    aimed_at = target.ref if target else None
    battle.events.append(_new_event(SimEvent, (turn, me.ref, aimed_at, resolution)))
    effects = resolution.effects
    if effects:
        _apply(battle, me, target, effects, initiative)
    if used:
        _note(battle, me.ref, used)
    if defended and target:
        _note(battle, target.ref, defended)
    if kind == activation.MOVE:
        battle.engaged.add(me.ref)
    result = resolution.details.get("initiative", resolution.outcome)
    result = KEEPS_INITIATIVE if result == NOT_AT_STAKE else result
    initiative.after_action(kind, result)
    return result


def _figure_go(battle: Battle, unit: str, initiative: activation.Initiative, dice: Dice) -> None:
    """The go of `unit`, which has just begun (`Initiative.begin_waiting`)."""
    act, me = initiative.state, battle.fighters[unit.partition(":")[2]]
    # The side's 1s so far as a question asks them (none, or one or more): a go ends on the
    # 1 that would change it, so it holds for the whole go.
    ones_before = 1 if act["side_ones"] else 0
    while act["current"] == unit and battle.beaten is None:
        result = _action(battle, me, ones_before, initiative, dice)
        if result == KEEPS_INITIATIVE and act["current"] == unit and act["pool"] >= RISK:
            initiative.end_figure()


def _side_turn(battle: Battle, initiative: activation.Initiative, dice: Dice) -> None:
    act = initiative.state
    while battle.beaten is None and not act["side_over"]:
        waiting = initiative.begin_waiting()
        if waiting is None:
            break
        _figure_go(battle, waiting, initiative, dice)


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
    # The initiative as `activation.start`, `draw` and the rest play it, in one state.
    units = [fighter.unit for fighter in battle.fighters.values()]
    initiative = activation.Initiative(activation.start(units, options, dice))
    act = initiative.state
    while battle.beaten is None and act["turn"] <= MAX_TURNS:
        _side_turn(battle, initiative, dice)
        initiative.draw()
    beaten, up = battle.beaten, battle.up
    # Who is out, by who stands: `_apply` works out again who stands whenever a status may
    # have changed (`fell`), so the lists hold at the end.
    second = [fighter.side for fighter in battle.fighters.values()].count(1)
    return SimResult(
        winner=None if beaten is None else 1 - beaten,
        turns=min(act["turn"], MAX_TURNS),
        events=tuple(battle.events),
        states=battle.states,
        casualties=(len(battle.fighters) - second - len(up[0]), second - len(up[1])),
        skills_used={ref: frozenset(used) for ref, used in battle.skills_used.items()},
    )
