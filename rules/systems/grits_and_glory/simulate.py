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
from rules.plans import PlannedCheck
from rules.simulate import ByStats, SimEvent, SimFigure, SimResult, validated_snapshot
from rules.systems.grits_and_glory import deck
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.stats import state_at_start, stats_schema

MAX_TURNS = 40
#: Battle statuses of a unit still fighting (the rest are out, ko, dead or routed).
IN_PLAY = ("unhurt", "wounded")
#: Prepared questions a check without plans keeps for one battle (see `_questions`).
_QUESTIONS_SIZE = 4096
#: What a unit brings to battle (see `_unit`), by the stats mapping handed in.
_UNITS: ByStats[_Unit] = ByStats()


class _Unit(NamedTuple):
    """A unit's validated stats (shared: read, never changed) and its weapons."""

    stats: dict[str, Any]
    ranged: str | None
    melee: str


def _unit(tables: t.GGTables, stats: Mapping[str, Any]) -> _Unit:
    """The unit's stats validated (`validated_snapshot`) and its ranged and melee weapons,
    kept for the stats mapping a batch hands in battle after battle (`ByStats`)."""
    return _UNITS.get(stats, (tables,), _new_unit)


def _new_unit(tables: t.GGTables, stats: Mapping[str, Any]) -> _Unit:
    valid = validated_snapshot(stats_schema(tables), stats)
    ranged = _weapon(valid, tables.RANGED_KEYS)
    return _Unit(valid, ranged, _weapon(valid, tables.MELEE_KEYS) or "unarmed")


@dataclass
class _Battle:
    side_of: dict[str, int]
    #: Each unit's validated stats: shared with the battles before, so read and never changed.
    stats: dict[str, dict[str, Any]]
    states: dict[str, dict[str, Any]]
    starting: tuple[int, ...]
    #: The tables snapshot the battle is fought with (the text's, or a club's).
    tables: t.GGTables
    #: The checks built from it (the system's, or under a house-rules pack the pack's), by name.
    checks: Mapping[str, Check] = field(default_factory=dict)
    events: list[SimEvent] = field(default_factory=list)
    skills: dict[str, set[str]] = field(default_factory=dict)
    turn: int = 1
    #: Each unit's ranged weapon (None without one) and melee weapon.
    ranged: dict[str, str | None] = field(default_factory=dict)
    melee: dict[str, str] = field(default_factory=dict)
    #: Each check's prepared questions, by the few values that make up its parameters.
    questions: dict[str, dict[Hashable, Prepared]] = field(default_factory=dict)
    #: Who is still fighting on each side, and whether a side is broken; forgotten whenever a
    #: unit's status changes (`changed`).
    _active: dict[int, list[str]] = field(default_factory=dict)
    _broken: bool | None = None

    def __post_init__(self) -> None:
        self.questions = {name: _questions(check) for name, check in self.checks.items()}

    def active(self, side: int) -> list[str]:
        known = self._active.get(side)
        if known is None:
            known = self._active[side] = [
                r
                for r, s in self.side_of.items()
                if s == side and self.states[r]["status"] in IN_PLAY
            ]
        return known

    def changed(self) -> None:
        """A unit's status changed: who fights on, and whether a force is broken, are asked
        again."""
        self._active.clear()
        self._broken = None

    def lost_share(self, side: int) -> float:
        return 1 - len(self.active(side)) / self.starting[side]

    def broken(self, side: int) -> bool:
        return len(self.active(side)) * 2 <= self.starting[side]

    def either_broken(self) -> bool:
        """Whether a force is broken (asked after every card, answered once per change)."""
        known = self._broken
        if known is None:
            known = self._broken = self.broken(0) or self.broken(1)
        return known

    def ask(self, name: str, question: Hashable, params: Mapping[str, Any]) -> Prepared:
        """The check called `name` prepared for `params`, kept by `question` (which stands
        for them) so the next time the same question is asked nothing is built."""
        questions = self.questions[name]
        if len(questions) >= _QUESTIONS_SIZE:
            questions.clear()
        prepared = questions[question] = self.checks[name].prepare(params)
        return prepared

    def run(self, prepared: Prepared, dice: Dice, actor: str, target: str | None) -> Resolution:
        resolution = prepared.roll(dice)
        self.events.append(_new_event(SimEvent, (self.turn, actor, target, resolution)))
        skill = prepared.check.skill
        if skill:
            used = self.skills.get(actor)
            if used is None:
                used = self.skills[actor] = set()
            used.add(skill)
        for effect in resolution.effects:
            who = actor if effect.who == "actor" else target
            if who is not None:
                effect.apply(self.states[who])
                if effect.key == "status":  # who is still fighting is read from status only
                    self.changed()
        return resolution


#: A SimEvent built as a plain tuple: NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


def _questions(check: Check) -> dict[Hashable, Prepared]:
    """Where a check's prepared questions are kept: on the check itself when it plans its rolls
    (so a batch of battles prepares each question once), else for this battle alone."""
    return check.questions if isinstance(check, PlannedCheck) else {}


def _weapon(stats: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((w for w in stats["weapons"] if w in keys), None)


def _damage(
    b: _Battle, actor: str, target: str, weapon: str, raised: bool, joker: bool, dice: Dice
) -> None:
    ts, state = b.stats[target], b.states[target]
    strength, shaken = b.stats[actor]["strength"], state["shaken"] >= state["figures"]
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
    b.run(prepared, dice, actor, target)
    # max(0, min(shaken, figures)), written out: the builtins cost more than the comparisons.
    shaken, figures = state["shaken"], state["figures"]
    shaken = shaken if shaken <= figures else figures
    state["shaken"] = shaken if shaken >= 0 else 0
    if state["figures"] <= 0:
        state["status"] = "out"
        b.changed()


def _shoot(b: _Battle, actor: str, target: str, weapon: str, joker: bool, dice: Dice) -> None:
    stats, state = b.stats[actor], b.states[actor]
    if not state["loaded"]:
        reload, reloading = b.tables.WEAPONS[weapon].reload, state["reloading"]
        prepared = b.questions["reload"].get((reload, reloading)) or b.ask(
            "reload", (reload, reloading), {"reload": reload, "reloading": reloading}
        )
        b.run(prepared, dice, actor, None)  # the action goes on reloading
        return
    target_state, questions, run = b.states[target], b.questions["shooting"], b.run
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
        shot = run(prepared, dice, actor, target).outcome
        if shot.startswith(("hit", "raise")):
            _damage(b, actor, target, weapon, shot.startswith("raise"), joker, dice)


def _fight(b: _Battle, actor: str, target: str, joker: bool, dice: Dice) -> None:
    stats, state = b.stats[actor], b.states[actor]
    weapon, target_state = b.melee[actor], b.states[target]
    gang, most = state["figures"] - 1, b.tables.GANG_UP_MAX
    gang = gang if gang < most else most
    die, wild_card, parry = stats["fighting"], stats["wild_card"], b.stats[target]["parry"]
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
        blow = run(prepared, dice, actor, target).outcome
        if blow != "miss":
            _damage(b, actor, target, weapon, blow == "raise", joker, dice)


def _act(b: _Battle, actor: str, joker: bool, dice: Dice) -> None:
    state = b.states[actor]
    if state["status"] not in IN_PLAY:
        return
    if state["shaken"] > 0:
        stats = b.stats[actor]
        question = (stats["spirit"], stats["wild_card"])
        prepared = b.questions["recover"].get(question) or b.ask(
            "recover", question, {"die": stats["spirit"], "wild_card": stats["wild_card"]}
        )
        if b.run(prepared, dice, actor, None).outcome != "acts":
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
    if b.either_broken() or b.turn >= MAX_TURNS:
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
    units = {u.ref: _unit(tables, u.stats) for side in sides for u in side}
    side_of = {u.ref: i for i, side in enumerate(sides) for u in side}
    stats = {ref: unit.stats for ref, unit in units.items()}
    states = {ref: state_at_start(s) for ref, s in stats.items()}
    starting = tuple(len(side) for side in sides)
    battle = _Battle(side_of, stats, states, starting, tables, checks)
    # A unit's weapons do not change in a battle; its every action asks which it uses.
    battle.ranged = {ref: unit.ranged for ref, unit in units.items()}
    battle.melee = {ref: unit.melee for ref, unit in units.items()}
    return battle


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
    for unit, joker, last in deck.draws(list(b.side_of), dice):
        _act(b, unit, joker, dice)
        if last and _turn_over(b, dice):
            break
        if b.either_broken():
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
