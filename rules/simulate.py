"""Auto-resolve: an abstract battle simulation per system (no terrain, no distances).

Each system's simulation activates by its own method, picks targets, resolves the real checks and
stops when a side breaks by its own rules. It returns the same kind of event log the table
assistant writes, so an auto-resolved battle reads like a played one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from rules.checks import Check, Prepared, Resolution
from rules.dice import Dice
from rules.plans import PlannedCheck
from rules.schema import Schema


@dataclass(frozen=True)
class SimFigure:
    """A figure (or unit) entering a simulated battle: an id the caller knows it by, and stats."""

    ref: str
    name: str
    stats: Mapping[str, Any]
    unit: str = ""


class SimEvent(NamedTuple):
    """One resolved check in a simulated battle.

    Immutable like a frozen dataclass, but a NamedTuple: a battle logs one for every check it
    rolls, and a frozen dataclass's `__init__` (a guarded setattr per field) cost more than the
    tuple holding the same four values.
    """

    turn: int
    actor: str
    target: str | None
    resolution: Resolution


@dataclass(frozen=True)
class SimResult:
    """The end of a simulated battle.

    `winner` is the index of the winning side or None for a draw; `states` maps each figure ref
    to its final battle state; `casualties` counts figures out of action per side.
    """

    winner: int | None
    turns: int
    events: tuple[SimEvent, ...]
    states: Mapping[str, Mapping[str, Any]]
    casualties: tuple[int, ...]
    skills_used: Mapping[str, frozenset[str]] = field(default_factory=dict)


Simulator = Callable[[Sequence[Sequence[SimFigure]], Mapping[str, Any], Dice], SimResult]


class PreparedChecks:
    """A battle's checks, each prepared once per distinct parameters (`Check.prepared`).

    A simulation asks the same few questions thousands of times (the same figure's blow at the
    same foe); validating the parameters was most of what a cheap check cost. Each check keeps
    what it has prepared, so a batch of battles validates a question once, not once a battle.
    The Resolution is the one `Check.resolve` gives, drawing the same dice in the same order.
    """

    def __init__(self, checks: Mapping[str, Check]) -> None:
        self.checks = checks

    def resolve(self, name: str, params: Mapping[str, Any], dice: Dice) -> Resolution:
        """Resolve the check called `name` with `params` (validated on first use) and `dice`."""
        check = self.checks[name]
        try:
            prepared = check.prepared(params)
        except TypeError:  # a list-valued parameter: not hashable, validated every time
            return check.resolve(params, dice)
        return prepared.roll(dice)


class Questions:
    """The questions a simulation has prepared, by its own key for each, kept for every battle
    fought under the same checks (`questions_for`).

    A simulation knows what decides a question (the unit types, the target's Hits, the die):
    a small tuple of those is a cheaper key than the parameters a check's memo reads, and the
    parameters need not even be built unless the question is new. The key must hold every
    value the parameters are built from, the campaign options included.
    """

    def __init__(self, checks: Mapping[str, Check]) -> None:
        self.checks = checks
        self.asked: dict[Hashable, Prepared] = {}

    def prepare(self, key: Hashable, name: str, params: Mapping[str, Any]) -> Prepared:
        """Prepare the check called `name` with `params` (validated here) under `key`."""
        if len(self.asked) >= _QUESTIONS_SIZE:
            self.asked.clear()
        prepared = self.asked[key] = self.checks[name].prepare(params)
        return prepared


def questions_for(checks: Mapping[str, Check]) -> Questions:
    """The `Questions` of a set of checks (the system's, or a club's built from its pack),
    shared by every battle fought under them: a batch prepares each question once.

    Kept by the checks' identity (`_kept_for`).
    """
    return _kept_for(_QUESTION_SETS, checks, Questions)


Kept = TypeVar("Kept")


def _kept_for(
    store: dict[int, tuple[Mapping[str, Check], Kept]],
    checks: Mapping[str, Check],
    make: Callable[[Mapping[str, Check]], Kept],
) -> Kept:
    """What `make(checks)` gave for this set of checks, kept by the set's identity: the entry
    holds the checks, so the identity cannot be reused while it is kept. At most
    `_QUESTION_SETS_SIZE` sets are kept."""
    known = store.get(id(checks))
    if known is None or known[0] is not checks:
        if len(store) >= _QUESTION_SETS_SIZE:
            store.clear()
        known = store[id(checks)] = (checks, make(checks))
    return known[1]


_QUESTION_SETS: dict[int, tuple[Mapping[str, Check], Questions]] = {}
_QUESTION_SETS_SIZE = 8
#: Questions one set keeps: a 6 v 6 batch asks a few dozen to a few hundred, and a prepared
#: question keeps each face's result as it comes up (tens of KB for a Rencounter melee).
_QUESTIONS_SIZE = 1024


def battle_questions(checks: Mapping[str, Check]) -> dict[str, dict[Hashable, Prepared]]:
    """Where one battle keeps each check's prepared questions, by the check's name: a check that
    plans its rolls keeps them itself (`PlannedCheck.questions`, so a batch of battles prepares
    each question once), any other for this battle alone (a new dict).

    Which checks plan is worked out once per set of checks (`_kept_for`, as `questions_for`
    keeps its sets): a battle then copies one dict instead of asking every check.
    """
    planned, others = _kept_for(_PLANNED, checks, _planned)
    questions = {**planned}
    for name in others:
        questions[name] = {}
    return questions


def _planned(
    checks: Mapping[str, Check],
) -> tuple[dict[str, dict[Hashable, Prepared]], tuple[str, ...]]:
    """The planned checks' own question stores by name, and the names of the others."""
    planned = {n: c.questions for n, c in checks.items() if isinstance(c, PlannedCheck)}
    return planned, tuple(name for name in checks if name not in planned)


_PLANNED: dict[
    int,
    tuple[Mapping[str, Check], tuple[dict[str, dict[Hashable, Prepared]], tuple[str, ...]]],
] = {}


Derived = TypeVar("Derived")


class ByStats(Generic[Derived]):
    """What a batch derives from a figure's stats (validated, with its kit or weapons), kept
    by the stats mapping handed in; at most `size` entries.

    A batch hands in the same figures' stats battle after battle; `validated_snapshot` knows
    them by content, but building that key was a tenth of a short battle. The same mapping,
    still equal to a copy taken when it was derived and with values of the same types (what
    the content key tells apart), under the same `context` (the tables and schema it was
    derived with), has the same answer, so it is kept by the mapping.
    """

    def __init__(self, size: int = 1024) -> None:
        self._kept: dict[int, tuple[Mapping[str, Any], tuple[Any, ...], Any, Any, Derived]] = {}
        self._size = size

    def get(
        self,
        stats: Mapping[str, Any],
        context: tuple[Any, ...],
        derive: Callable[..., Derived],
    ) -> Derived:
        """What `derive(*context, stats)` gave for these stats, derived again on a miss.

        Called for every figure of every battle, so kept flat: the context is compared as a
        tuple (its items are the very objects of the last call, found equal at once).
        """
        known = self._kept.get(id(stats))
        if (
            known is None
            or known[0] is not stats
            or known[1] != context
            or known[2] != stats
            or known[3] != list(map(type, stats.values()))
        ):
            if len(self._kept) >= self._size:
                self._kept.clear()
            as_given = {k: list(v) if v.__class__ is list else v for k, v in stats.items()}
            derived = derive(*context, stats)
            types = list(map(type, stats.values()))
            known = self._kept[id(stats)] = (stats, context, as_given, types, derived)
        return known[4]


def validated_snapshot(schema: Schema, stats: Mapping[str, Any]) -> dict[str, Any]:
    """`schema.validate_snapshot(stats)`, remembered by the stats' content.

    A batch fights the same figures again and again, and validating twelve figures' stats was
    a tenth of a short battle. The answer depends on the schema and the values alone, so it is
    kept by both: by the schema's identity (the entry holds the schema, so the identity cannot
    be reused while it is kept) and by the stats' items with each value's type (1 and True
    stay apart), lists as tuples. Stats holding a value that cannot be a key (a dict) are
    validated every time. Each caller gets its own copy, lists included.
    """
    values = stats.values()
    # The stats' names, then their values (lists as tuples), then each value's type: built in
    # flat passes, not a tuple per stat (a batch looks up every figure of every battle).
    frozen = [tuple(v) if v.__class__ is list else v for v in values]
    key = (id(schema), *stats.keys(), *frozen, *map(type, values))
    try:
        known = _SNAPSHOTS.get(key)
    except TypeError:  # an unhashable value
        return schema.validate_snapshot(stats)
    if known is None:
        if len(_SNAPSHOTS) >= _SNAPSHOTS_SIZE:
            _SNAPSHOTS.clear()
        snapshot = schema.validate_snapshot(stats)
        lists = tuple(k for k, v in snapshot.items() if v.__class__ is list)
        known = _SNAPSHOTS[key] = (schema, snapshot, lists)
    _, snapshot, lists = known
    copy = {**snapshot}
    for name in lists:  # each caller's lists are its own
        copy[name] = list(copy[name])
    return copy


#: Validated snapshots by schema and content (see `validated_snapshot`), bounded.
_SNAPSHOTS: dict[tuple[Any, ...], tuple[Schema, dict[str, Any], tuple[str, ...]]] = {}
_SNAPSHOTS_SIZE = 1024
