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

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.checks import Check, Prepared, Resolution
from rules.dice import Dice
from rules.simulate import (
    ByStats,
    SimEvent,
    SimFigure,
    SimResult,
    battle_questions,
    validated_snapshot,
)
from rules.systems.grits_and_glory import deck
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.stats import state_at_start, stats_schema

MAX_TURNS = 40
#: Battle statuses of a unit still fighting (the rest are out, ko, dead or routed).
IN_PLAY = ("unhurt", "wounded")
#: Prepared questions a check without plans keeps for one battle (see `battle_questions`).
_QUESTIONS_SIZE = 4096
#: What a unit brings to battle (see `_unit`), by the stats mapping handed in.
_UNITS: ByStats[_Unit] = ByStats()


class _Unit(NamedTuple):
    """A unit's validated stats (shared: read, never changed), its weapons and its state at
    the start (each battle takes a copy)."""

    stats: dict[str, Any]
    ranged: str | None
    melee: str
    start: dict[str, Any]


def _unit(tables: t.GGTables, stats: Mapping[str, Any]) -> _Unit:
    """The unit's stats validated (`validated_snapshot`), its ranged and melee weapons and its
    starting state, kept for the stats mapping a batch hands in battle after battle
    (`ByStats`)."""
    return _UNITS.get(stats, (tables,), _new_unit)


def _new_unit(tables: t.GGTables, stats: Mapping[str, Any]) -> _Unit:
    valid = validated_snapshot(stats_schema(tables), stats)
    ranged = _weapon(valid, tables.RANGED_KEYS)
    melee = _weapon(valid, tables.MELEE_KEYS) or "unarmed"
    return _Unit(valid, ranged, melee, state_at_start(valid))


class _Fighting:
    """A unit in one battle, as its every card reads it: what a ref would otherwise look up in
    half a dozen dicts, found once a battle."""

    __slots__ = ("melee", "ranged", "ref", "side", "state", "stats")

    def __init__(self, ref: str, side: int, unit: _Unit) -> None:
        self.ref, self.side = ref, side
        #: Its validated stats: shared with the battles before, so read and never changed.
        self.stats: dict[str, Any] = unit.stats
        self.state: dict[str, Any] = {**unit.start}
        #: Its ranged weapon (None without one) and melee weapon: they do not change in a
        #: battle, and its every action asks which it uses.
        self.ranged, self.melee = unit.ranged, unit.melee


@dataclass
class _Battle:
    #: Each unit in the battle, by its ref.
    units: dict[str, _Fighting]
    starting: tuple[int, ...]
    #: The tables snapshot the battle is fought with (the text's, or a club's).
    tables: t.GGTables
    #: The checks built from it (the system's, or under a house-rules pack the pack's), by name.
    checks: Mapping[str, Check] = field(default_factory=dict)
    events: list[SimEvent] = field(default_factory=list)
    skills: dict[str, set[str]] = field(default_factory=dict)
    turn: int = 1
    #: Each check's prepared questions, by the few values that make up its parameters.
    questions: dict[str, dict[Hashable, Prepared]] = field(default_factory=dict)
    #: Who is still fighting on each side (side 0's, side 1's), and whether a force is broken:
    #: read on every card, so worked out again only when a unit's status changes (`changed`).
    fighting: tuple[list[_Fighting], list[_Fighting]] = field(init=False)
    a_force_broken: bool = field(init=False)

    def __post_init__(self) -> None:
        self.questions = battle_questions(self.checks)
        self.changed()

    @property
    def stats(self) -> dict[str, dict[str, Any]]:
        """Each unit's validated stats, by its ref."""
        return {ref: unit.stats for ref, unit in self.units.items()}

    @property
    def states(self) -> dict[str, dict[str, Any]]:
        """Each unit's battle state, by its ref."""
        return {ref: unit.state for ref, unit in self.units.items()}

    def changed(self) -> None:
        """Who fights on, and whether a force is broken, worked out from every unit's status."""
        fighting: tuple[list[_Fighting], list[_Fighting]] = ([], [])
        for unit in self.units.values():
            if unit.state["status"] in IN_PLAY:
                fighting[unit.side].append(unit)
        self.fighting = fighting
        self.a_force_broken = self.broken(0) or self.broken(1)

    def status_changed(self, unit: _Fighting) -> None:
        """`unit`'s status changed: `changed`, for the one unit.

        Most changes keep a unit fighting (unhurt to wounded) and change nothing here; one out
        of the fight leaves its side's list in place (the others keep their order, which a
        target is picked by). One back in the fight (no rule of the text does that) is
        worked out from every unit again, which puts it back in its place.
        """
        side = self.fighting[unit.side]
        if unit.state["status"] in IN_PLAY:
            if unit not in side:
                self.changed()
        elif unit in side:
            side.remove(unit)
            self.a_force_broken = self.broken(0) or self.broken(1)

    def lost_share(self, side: int) -> float:
        return 1 - len(self.fighting[side]) / self.starting[side]

    def broken(self, side: int) -> bool:
        return len(self.fighting[side]) * 2 <= self.starting[side]

    def ask(self, name: str, question: Hashable, params: Mapping[str, Any]) -> Prepared:
        """The check called `name` prepared for `params`, kept by `question` (which stands
        for them) so the next time the same question is asked nothing is built."""
        questions = self.questions[name]
        if len(questions) >= _QUESTIONS_SIZE:
            questions.clear()
        prepared = questions[question] = self.checks[name].prepare(params)
        return prepared

    def run(
        self, prepared: Prepared, dice: Dice, actor: str, target: _Fighting | None
    ) -> Resolution:
        resolution = prepared.roll(dice)
        aimed_at = target.ref if target else None
        self.events.append(_new_event(SimEvent, (self.turn, actor, aimed_at, resolution)))
        skill = prepared.check.skill
        if skill:
            used = self.skills.get(actor)
            if used is None:
                used = self.skills[actor] = set()
            used.add(skill)
        for effect in resolution.effects:
            if effect.who == "actor":
                unit = self.units[actor]
            elif target is not None:
                unit = target
            else:
                continue
            effect.apply(unit.state)
            if effect.key == "status":  # who is still fighting is read from status only
                self.status_changed(unit)
        return resolution


#: A SimEvent built as a plain tuple: NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


def _weapon(stats: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((w for w in stats["weapons"] if w in keys), None)


def _damage(
    b: _Battle,
    me: _Fighting,
    target: _Fighting,
    weapon: str,
    raised: bool,
    joker: bool,
    dice: Dice,
) -> None:
    ts, state = target.stats, target.state
    strength, shaken = me.stats["strength"], state["shaken"] >= state["figures"]
    wounds, figures = state["wounds"], state["figures"]
    toughness, mounted, wild_card = ts["toughness"], ts["mounted"], ts["wild_card"]
    question: tuple[Any, ...] = (weapon, strength, raised, joker, toughness, mounted, wild_card)
    question += (shaken, wounds, figures)
    prepared = b.questions["damage"].get(question) or b.ask(
        "damage",
        question,
        {
            "weapon": weapon,
            "strength": strength,
            "raise_hit": raised,
            "joker": joker,
            "toughness": toughness,
            "mounted_target": mounted,
            "target_wild_card": wild_card,
            "target_shaken": shaken,
            "target_wounds": wounds,
            "target_figures": figures,
        },
    )
    b.run(prepared, dice, me.ref, target)
    # max(0, min(shaken, figures)), written out: the builtins cost more than the comparisons.
    shaken, figures = state["shaken"], state["figures"]
    shaken = shaken if shaken <= figures else figures
    state["shaken"] = shaken if shaken >= 0 else 0
    if state["figures"] <= 0:
        state["status"] = "out"
        b.status_changed(target)


def _shoot(
    b: _Battle, me: _Fighting, target: _Fighting, weapon: str, joker: bool, dice: Dice
) -> None:
    stats, state = me.stats, me.state
    if not state["loaded"]:
        reload, reloading = b.tables.WEAPONS[weapon].reload, state["reloading"]
        prepared = b.questions["reload"].get((reload, reloading)) or b.ask(
            "reload", (reload, reloading), {"reload": reload, "reloading": reloading}
        )
        b.run(prepared, dice, me.ref, None)  # the action goes on reloading
        return
    target_state, questions, run = target.state, b.questions["shooting"], b.run
    die, wild_card = stats["shooting"], stats["wild_card"]
    for _ in range(state["figures"]):
        if target_state["status"] not in IN_PLAY:
            return
        wounds = state["wounds"]
        wounds = wounds if wounds < 3 else 3  # min(wounds, 3): the builtin costs more
        question = (die, wild_card, joker, wounds)
        prepared = questions.get(question) or b.ask(
            "shooting",
            question,
            {"die": die, "wild_card": wild_card, "joker": joker, "wounds": wounds},
        )
        shot = run(prepared, dice, me.ref, target).outcome
        if shot.startswith(("hit", "raise")):
            _damage(b, me, target, weapon, shot.startswith("raise"), joker, dice)


def _fight(b: _Battle, me: _Fighting, target: _Fighting, joker: bool, dice: Dice) -> None:
    stats, state, target_state = me.stats, me.state, target.state
    gang, most = state["figures"] - 1, b.tables.GANG_UP_MAX
    gang = gang if gang < most else most
    die, wild_card, parry = stats["fighting"], stats["wild_card"], target.stats["parry"]
    questions, run = b.questions["fighting"], b.run
    for _ in range(state["figures"]):
        if target_state["status"] not in IN_PLAY:
            return
        wounds = state["wounds"]
        wounds = wounds if wounds < 3 else 3  # min(wounds, 3): the builtin costs more
        question = (die, wild_card, joker, parry, gang, wounds)
        prepared = questions.get(question) or b.ask(
            "fighting",
            question,
            {
                "die": die,
                "wild_card": wild_card,
                "joker": joker,
                "parry": parry,
                "gang_up": gang,
                "wounds": wounds,
            },
        )
        blow = run(prepared, dice, me.ref, target).outcome
        if blow != "miss":
            _damage(b, me, target, me.melee, blow == "raise", joker, dice)


def _act(b: _Battle, me: _Fighting, joker: bool, dice: Dice) -> None:
    state = me.state
    if state["status"] not in IN_PLAY:
        return
    if state["shaken"] > 0:
        stats = me.stats
        question = (stats["spirit"], stats["wild_card"])
        prepared = b.questions["recover"].get(question) or b.ask(
            "recover", question, {"die": stats["spirit"], "wild_card": stats["wild_card"]}
        )
        if b.run(prepared, dice, me.ref, None).outcome != "acts":
            return
    foes = b.fighting[1 - me.side]
    if not foes:
        return
    target = foes[dice.roll(len(foes), "target") - 1] if len(foes) > 1 else foes[0]
    if me.ranged:
        _shoot(b, me, target, me.ranged, joker, dice)
    else:
        _fight(b, me, target, joker, dice)


def _outcome(b: _Battle) -> int | None:
    broken = [b.broken(0), b.broken(1)]
    if broken[0] != broken[1]:
        return 0 if broken[1] else 1
    if b.lost_share(0) == b.lost_share(1):
        return None
    return 0 if b.lost_share(0) < b.lost_share(1) else 1


def _turn_over(b: _Battle, dice: Dice) -> bool:
    if b.a_force_broken or b.turn >= MAX_TURNS:
        return True
    question = (b.turn,)
    prepared = b.questions["end_game"].get(question) or b.ask(
        "end_game", question, {"turn": b.turn}
    )
    ends = b.run(prepared, dice, "game", None).outcome == "ends"
    b.turn += 1
    return ends


def _setup(
    sides: Sequence[Sequence[SimFigure]], tables: t.GGTables, checks: Mapping[str, Check]
) -> _Battle:
    units = {
        u.ref: _Fighting(u.ref, side, _unit(tables, u.stats))
        for side, force in enumerate(sides)
        for u in force
    }
    starting = tuple(len(side) for side in sides)
    return _Battle(units, starting, tables, checks)


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
    # The action deck as `deck.start` and `deck.draw` deal it (nobody goes on Hold here).
    units = b.units
    for unit, joker, last in deck.draws(list(units), dice):
        _act(b, units[unit], joker, dice)
        if last and _turn_over(b, dice):
            break
        if b.a_force_broken:
            break
    return _result(b)


def _result(b: _Battle) -> SimResult:
    lost = [0, 0]
    for unit in b.units.values():
        lost[unit.side] += unit.stats["figures"] - max(unit.state["figures"], 0)
    return SimResult(
        _outcome(b),
        b.turn,
        tuple(b.events),
        b.states,
        tuple(lost),
        {ref: frozenset(skills) for ref, skills in b.skills.items()},
    )
