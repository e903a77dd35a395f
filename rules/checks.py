"""Checks: named, parameterised resolutions with exact odds over the same outcome keys."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from itertools import combinations_with_replacement
from math import factorial, gcd
from types import MappingProxyType
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar

from rules.dice import Dice, Die, DieRoll
from rules.errors import RulesError
from rules.schema import Field, Schema

#: Who an effect applies to in a battle: the figure acting or the figure acted upon.
Who = Literal["actor", "target"]


class Effect(NamedTuple):
    """A change to one figure's battle state, applied generically by the battle service.

    `op` is `add` (numeric, missing counts as 0) or `set`. Battle state is a flat JSON dict per
    figure; each system documents its keys (e.g. `wounds`, `status`, `shaken`, `loaded`).
    Immutable like a frozen dataclass, but a NamedTuple: resolvers build one or two for most
    checks rolled, and a tuple is several times cheaper to build.
    """

    who: Who
    key: str
    op: Literal["add", "set"]
    value: Any
    note: str = ""

    def apply(self, state: dict[str, Any]) -> None:
        if self.op == "add":
            state[self.key] = state.get(self.key, 0) + self.value
        else:
            state[self.key] = self.value

    def as_json(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "key": self.key,
            "op": self.op,
            "value": self.value,
            "note": self.note,
        }


_NO_DETAILS: Mapping[str, Any] = MappingProxyType({})


class Outcome(NamedTuple):
    """What a check's resolver returns: the outcome key, details for display, effects.

    Outcome and Resolution are NamedTuples (immutable, like frozen dataclasses) because one of
    each is built for every check resolved, and tuple construction is the cheapest there is.
    """

    key: str
    details: Mapping[str, Any] = _NO_DETAILS
    effects: tuple[Effect, ...] = ()


class Resolution(NamedTuple):
    """A resolved check: its outcome key, the dice that made it, details and effects."""

    check: str
    params: Mapping[str, Any]
    outcome: str
    dice: tuple[DieRoll, ...]
    details: Mapping[str, Any]
    effects: tuple[Effect, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "params": dict(self.params),
            "outcome": self.outcome,
            "dice": [r.as_json() for r in self.dice],
            "details": dict(self.details),
            "effects": [e.as_json() for e in self.effects],
        }


_new_resolution = _new_outcome = tuple.__new__


@dataclass(frozen=True)
class Odds:
    """A distribution over a check's outcome keys.

    `exact` is True when every probability is a `Fraction`; otherwise the values are floats
    whose absolute error is below `error_bound` (e.g. sepsis, which can branch without bound).
    """

    probabilities: Mapping[str, Fraction | float]
    exact: bool = True
    error_bound: float = 0.0

    def as_floats(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.probabilities.items()}

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"outcomes": self.as_floats()}
        if self.exact:
            data["exact"] = {k: _fraction_text(Fraction(v)) for k, v in self.probabilities.items()}
        else:
            data["exact"] = None
            data["error_bound"] = self.error_bound
        return data


def _checked_odds(probabilities: dict[str, Fraction | float], is_exact: bool, bound: float) -> Odds:
    """An `Odds` for values `Check.odds` has just checked, built without the dataclass's __init__.

    A frozen dataclass sets each field through `object.__setattr__`, which costs about as much
    as a cheap check's whole odds; the instance's dict is filled directly instead. The result
    is the same object (fields, equality, hash), which a test pins.
    """
    odds: Odds = _new_object(Odds)
    odds.__dict__.update(probabilities=probabilities, exact=is_exact, error_bound=bound)
    return odds


_new_object = object.__new__


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# --- where each parameter comes from -------------------------------------------------------


@dataclass(frozen=True)
class FigureView:
    """What a parameter may be read from: a figure's name, stats snapshot and battle state."""

    name: str
    stats: Mapping[str, Any]
    state: Mapping[str, Any]


class Filled(NamedTuple):
    """A parameter's value read from a figure, with the words that say where it came from."""

    value: Any
    source: str  # e.g. "melee 9 — Sgt. Gridley"
    who: Who


def _shown(field_: Field, value: Any) -> str:
    """The value as a player reads it: a choice's label, a die as d8."""
    if field_.kind == "die" or (field_.name.endswith("die") and isinstance(value, int)):
        return f"d{value}" if value else "untrained"
    for choice, label in field_.choices:
        if choice == value:
            return str(label)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _fit(field_: Field, value: Any) -> tuple[bool, Any]:
    if value is None:
        return False, None
    try:
        return True, field_.normalise(value)
    except (ValueError, TypeError):
        return False, None


@dataclass(frozen=True)
class Source:
    """Where one check parameter comes from. Subclasses read a figure; `Judgement` does not."""

    kind: ClassVar[str] = ""

    @property
    def who(self) -> Who | None:
        return None

    def read(self, field_: Field, figure: FigureView) -> Filled | None:
        """Return the parameter's value from `figure`, or None when the figure has none."""
        return None

    def words(self) -> str:
        return self.kind

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "words": self.words()}


@dataclass(frozen=True)
class _Stat(Source):
    """A stat of one figure; `equals` turns it into a flag, `otherwise` stands in for a stat
    this parameter does not offer (an ability with no bearing on this check reads "none")."""

    stat: str
    equals: Any = None
    otherwise: Any = None
    kind: ClassVar[str] = "stat"

    def read(self, field_: Field, figure: FigureView) -> Filled | None:
        raw = figure.stats.get(self.stat)
        value = (raw == self.equals) if self.equals is not None else raw
        ok, fitted = _fit(field_, value)
        if not ok:
            ok, fitted = _fit(field_, self.otherwise)
        if not ok:
            return None
        stat = self.stat.replace("_", " ")
        seen = _shown(field_, raw) if self.equals is None else str(raw)
        return Filled(fitted, f"{stat} {seen} — {figure.name}", self._who())

    def _who(self) -> Who:
        return "actor"

    @property
    def who(self) -> Who | None:
        return self._who()

    def words(self) -> str:
        owner = "the acting figure's" if self._who() == "actor" else "the target's"
        test = f" is {self.equals}" if self.equals is not None else ""
        return f"{owner} {self.stat}{test}"


@dataclass(frozen=True)
class FromActor(_Stat):
    """A stat of the acting figure (`melee`, `troop`, a unit's `type`)."""


@dataclass(frozen=True)
class FromTarget(_Stat):
    """A stat of the figure acted upon."""

    def _who(self) -> Who:
        return "target"


@dataclass(frozen=True)
class FromEquipment(Source):
    """What a figure carries: the first item of a list stat (`weapons`) this parameter offers,
    or a single item stat (`armour`, `shield`); `otherwise` when it carries none that fits."""

    stat: str
    of: Who = "actor"
    otherwise: Any = None
    kind: ClassVar[str] = "equipment"

    @property
    def who(self) -> Who | None:
        return self.of

    def read(self, field_: Field, figure: FigureView) -> Filled | None:
        raw = figure.stats.get(self.stat)
        items = list(raw) if isinstance(raw, list | tuple) else [raw]
        for item in items:
            ok, fitted = _fit(field_, item)
            if ok:
                return Filled(fitted, f"carries {_shown(field_, fitted)} — {figure.name}", self.of)
        ok, fitted = _fit(field_, self.otherwise)
        if not ok:
            return None
        return Filled(fitted, f"{_shown(field_, fitted)}: none carried — {figure.name}", self.of)

    def words(self) -> str:
        return (
            f"{'the acting figure' if self.of == 'actor' else 'the target'} carries ({self.stat})"
        )


@dataclass(frozen=True)
class FromState(Source):
    """A key of a figure's battle state (wounds, markers such as shaken, loaded, pinned);
    `above` turns a count into a flag (shaken above 0)."""

    key: str
    of: Who = "actor"
    above: int | None = None
    default: Any = 0
    kind: ClassVar[str] = "state"

    @property
    def who(self) -> Who | None:
        return self.of

    def read(self, field_: Field, figure: FigureView) -> Filled | None:
        raw = figure.state.get(self.key, self.default)
        value = (int(raw or 0) > self.above) if self.above is not None else raw
        ok, fitted = _fit(field_, value)
        if not ok:
            return None
        seen = raw if not isinstance(raw, bool) else ("yes" if raw else "no")
        return Filled(fitted, f"{self.key.replace('_', ' ')} {seen} — {figure.name}", self.of)

    def words(self) -> str:
        owner = "the acting figure's" if self.of == "actor" else "the target's"
        return f"{owner} battle state {self.key}"


@dataclass(frozen=True)
class Derived(Source):
    """A value the rules compute from one figure's stats and state (a Wild Die for a Wild Card
    or a group; a pike's or a horse's skill by what the figure is). `rule(stats, state)`."""

    of: Who
    says: str
    rule: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]
    kind: ClassVar[str] = "rule"

    @property
    def who(self) -> Who | None:
        return self.of

    def read(self, field_: Field, figure: FigureView) -> Filled | None:
        ok, fitted = _fit(field_, self.rule(figure.stats, figure.state))
        if not ok:
            return None
        return Filled(fitted, f"{self.says} {_shown(field_, fitted)} — {figure.name}", self.of)

    def words(self) -> str:
        return f"{'the acting figure' if self.of == 'actor' else 'the target'}: {self.says}"


@dataclass(frozen=True)
class Judgement(Source):
    """The player's call at the table (range, cover, the situation): kept per figure."""

    kind: ClassVar[str] = "judgement"

    def words(self) -> str:
        return "the player's judgement"


JUDGED = Judgement()


def filled_params(
    check: Check, actor: FigureView | None, target: FigureView | None
) -> dict[str, Filled]:
    """Return the parameters the figures give, each with its source; judgement is left out.

    A parameter whose figure is absent (no target chosen), or whose figure's value this
    parameter cannot take (an untrained skill where the check needs a die), is left out too.
    """
    figures = {"actor": actor, "target": target if check.takes_target else None}
    filled: dict[str, Filled] = {}
    for field_ in check.params.fields:
        source = check.sources.get(field_.name, JUDGED)
        figure = figures.get(source.who) if source.who else None
        found = source.read(field_, figure) if figure is not None else None
        if found is not None:
            filled[field_.name] = found
    return filled


def kept_per_figure(check: Check) -> list[str]:
    """The parameters whose last chosen value the table keeps for the acting figure: the
    player's judgement, and the actor's equipment (a weapon chosen stays chosen)."""
    return [
        name
        for name, source in check.sources.items()
        if source.kind == "judgement" or (source.kind == "equipment" and source.who == "actor")
    ]


def undeclared(check: Check) -> list[str]:
    """Return the check's parameters with no declared source (there should be none)."""
    return [f.name for f in check.params.fields if f.name not in check.sources]


def declare(
    checks: Mapping[str, Check],
    sources: Mapping[str, Mapping[str, Source]],
    alone: frozenset[str] = frozenset(),
) -> dict[str, Check]:
    """Return `checks` carrying their declared sources; `alone` names checks with no target.

    Refuses a declaration naming an unknown check or parameter, or leaving one out.
    """
    unknown = set(sources) - set(checks) | (alone - set(checks))
    if unknown:
        raise RulesError(f"sources declared for unknown checks {sorted(unknown)}")
    declared = {}
    for name, check in checks.items():
        given = sources.get(name, {})
        names = {f.name for f in check.params.fields}
        if set(given) != names:
            missing, extra = sorted(names - set(given)), sorted(set(given) - names)
            raise RulesError(f"{name}: sources missing {missing}, unknown {extra}")
        declared[name] = replace(
            check, sources=MappingProxyType(dict(given)), takes_target=name not in alone
        )
    return declared


Resolver = Callable[[Mapping[str, Any], Dice], Outcome]
OddsFn = Callable[[Mapping[str, Any]], Odds | Mapping[str, Fraction]]
#: One question's roll, prepared: it draws the dice and returns the Outcome, nothing more.
Roller = Callable[[Dice], Outcome]
#: Works out once, for validated parameters, everything a roll needs but the dice (modifiers,
#: target numbers, table rows, each face's result) and returns the question's `Roller`.
Preparer = Callable[[Mapping[str, Any]], Roller]


@dataclass(frozen=True)
class Check:
    """A named check of one rule system.

    `params` validates and normalises the parameters; `resolver(params, dice)` draws dice and
    returns an `Outcome` whose key is one of `outcomes`; `odds_fn(params)` returns the exact
    distribution over the same keys. `dice_order` documents the order in which given dice are
    consumed. `skill` names the stat this check exercises (for improvement rolls), if any.
    `sources` says where each parameter comes from (see `Source`), declared by the system next
    to the check; `takes_target` is False for a check that concerns the actor alone.
    `preparer(params)`, where a check has one, works out what does not depend on the dice once
    and returns the roll (see `Preparer`); its resolver is then `resolved_by(preparer)`, so a
    prepared roll and `resolve` run the one implementation.
    `friendly_fire` says the rules let this check strike the actor's own side (firing into a
    melee, a blast that deviates). `aims_at` says whose figure the check is meant for: "foe"
    (the usual: a target on the actor's side only where `friendly_fire` allows it), "friend"
    (a leader's order to one of his own men) or "any" (a man's own fall: no side to check).
    """

    name: str
    title: str
    params: Schema
    outcomes: tuple[str, ...]
    resolver: Resolver
    odds_fn: OddsFn
    description: str = ""
    dice_order: str = ""
    skill: str | None = None
    friendly_fire: bool = False
    aims_at: Literal["foe", "friend", "any"] = "foe"
    sources: Mapping[str, Source] = field(default_factory=lambda: MappingProxyType({}))
    takes_target: bool = True
    preparer: Preparer | None = None
    _keys: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _nothing: dict[str, Fraction] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: What `prepared` has validated, by the parameters as given (see `prepared`).
    _memo: dict[tuple[Any, ...], Prepared] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # `resolve` checks every outcome key: a set lookup, not a scan of the tuple.
        object.__setattr__(self, "_keys", frozenset(self.outcomes))
        object.__setattr__(self, "_nothing", dict.fromkeys(self.outcomes, _ZERO))

    def resolve(self, params: Mapping[str, Any], dice: Dice) -> Resolution:
        """Validate `params`, resolve with `dice` and return the result with its dice."""
        values = self.params.validate(params)
        rolls = dice.rolls
        start = len(rolls)
        key, details, effects = self.resolver(values, dice)
        if key not in self._keys:
            raise RulesError(f"{self.name} produced unknown outcome {key!r}")
        # Built as a plain tuple: a NamedTuple's generated __new__ is a Python call per check.
        return _new_resolution(
            Resolution, (self.name, values, key, tuple(rolls[start:]), details, effects)
        )

    def prepare(self, params: Mapping[str, Any]) -> Prepared:
        """Validate `params` once, for a check rolled many times with the same parameters.

        A simulation asks the same question again and again (the same figure's shot at the
        same range); validation is most of what a cheap check costs, so it is paid here once.
        """
        values = MappingProxyType(self.params.validate(params))
        if self.preparer is not None:
            roller = self.preparer(values)
        else:
            roller = partial(self.resolver, values)
        return Prepared(self.name, values, self, roller, self._keys)

    def prepared(self, params: Mapping[str, Any]) -> Prepared:
        """`prepare(params)`, remembered by the parameters as given (names and values in order).

        A batch of simulated battles asks the same few hundred questions over and over; each
        is validated once per check, not once per battle. Raises TypeError for an unhashable
        value (a list): such parameters are not remembered. Each value's type is part of the
        key, so values that compare equal but validate differently (1 and True, 1 and 1.0)
        never share an entry. The memo is bounded: past `_MEMO_SIZE` questions it starts afresh.
        """
        key = question(params)
        memo = self._memo
        known = memo.get(key)
        if known is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            known = memo[key] = self.prepare(params)
        return known

    def odds(self, params: Mapping[str, Any]) -> Odds:
        """Validate `params` and return the distribution over every outcome key."""
        values = self.params.validate(params)
        result = self.odds_fn(values)
        if isinstance(result, Odds):
            given, is_exact, bound = result.probabilities, result.exact, result.error_bound
        else:
            given, is_exact, bound = result, True, 0.0
        # Every key in outcome order, then what the odds give: a key the check does not name
        # makes the dict longer, a test of its length instead of a scan of the keys.
        full: dict[str, Fraction | float] = dict(self._nothing)
        full.update(given)
        if len(full) != len(self._nothing):
            unknown = sorted(key for key in given if key not in self._keys)
            raise RulesError(f"{self.name} odds name unknown outcomes {unknown}")
        if is_exact:
            if not _sums_to_one(full.values()):
                total = sum((Fraction(v) for v in full.values()), Fraction(0))
                raise RulesError(f"{self.name} odds sum to {total}, not 1")
        else:
            float_total = sum(float(v) for v in full.values())
            tolerance = max(float(bound) * len(full), 1e-12)
            if abs(float_total - 1.0) > tolerance:
                raise RulesError(f"{self.name} odds sum to {float_total}, not 1")
        return _checked_odds(full, is_exact, bound)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "params": self.params.as_json(),
            "outcomes": list(self.outcomes),
            "dice_order": self.dice_order,
            "skill": self.skill,
            "friendly_fire": self.friendly_fire,
            "aims_at": self.aims_at,
            "takes_target": self.takes_target,
            "sources": {name: source.as_json() for name, source in self.sources.items()},
        }


class Prepared(NamedTuple):
    """A check with its parameters validated once (`Check.prepare`): `roll` resolves it again
    and again for the same Resolution `Check.resolve` would give, without re-validating.

    The question's roll (the check's `preparer`'s, else its resolver bound to the values) and
    the outcome keys are carried beside it, so a roll reads them out of this tuple in one
    unpacking instead of through the check's attributes every time.
    """

    name: str
    values: Mapping[str, Any]
    check: Check
    roller: Roller
    keys: frozenset[str]

    def roll(self, dice: Dice) -> Resolution:
        """Resolve with `dice` and return the result with its dice."""
        name, values, _, roller, keys = self
        rolls = dice.rolls
        start = len(rolls)
        key, details, effects = roller(dice)
        if key not in keys:
            raise RulesError(f"{name} produced unknown outcome {key!r}")
        # Most rolls draw one die: that record is taken as it is, not sliced out and copied.
        drawn = (rolls[-1],) if len(rolls) - start == 1 else tuple(rolls[start:])
        return _new_resolution(Resolution, (name, values, key, drawn, details, effects))


_ZERO = Fraction(0)
#: Questions a check remembers (`Check.prepared`): a 6 v 6 batch asks a few hundred per check.
_MEMO_SIZE = 4096
#: Questions a check's `resolved_by` resolver remembers: fewer, as a prepared question keeps the
#: result of every face that has come up (a Rencounter melee's can grow to some 30 KB), and the
#: table asks one question at a time.
_ROLLERS_SIZE = 512


def question(params: Mapping[str, Any]) -> tuple[Any, ...]:
    """Parameters as the key of a memo of prepared questions: their names, then their values,
    then each value's type, so values that compare equal but validate differently (1 and True,
    1 and 1.0) never share an entry. Flat, and built in C-level passes: a tuple per parameter
    cost a many-parameter check more to build and hash than its roll. Hashing the key raises
    TypeError for an unhashable value (a list)."""
    values = params.values()
    return (*params.keys(), *values, *map(type, values))


def resolved_by(preparer: Preparer) -> Resolver:
    """The resolver of a check written as a `Preparer`: each distinct question is prepared
    once, then rolled.

    `resolve`, the odds' agreement tests and a simulation's prepared roll thus run the same
    code and draw the same dice. Questions are remembered by their parameters with each
    value's type (1 and True stay apart), at most `_ROLLERS_SIZE` of them; parameters holding a
    list are prepared afresh every time. Build one per check built (per tables snapshot): the
    memo belongs to the preparer it was made for, so a club's tables never answer for another's.
    """
    memo: dict[tuple[Any, ...], Roller] = {}

    def resolve(params: Mapping[str, Any], dice: Dice) -> Outcome:
        key = question(params)
        try:
            roller = memo.get(key)
        except TypeError:  # a list-valued parameter
            return preparer(MappingProxyType(dict(params)))(dice)
        if roller is None:
            if len(memo) >= _ROLLERS_SIZE:
                memo.clear()
            # A copy: the roller may read the parameters when it rolls, and the caller's
            # mapping may change after this call.
            roller = memo[key] = preparer(MappingProxyType(dict(params)))
        return roller(dice)

    return resolve


#: What a face leads to, as `by_face` reads it: the Outcome, or the roll of the next die.
Step = Outcome | Roller


def by_face(die: Die, label: str, outcome: Callable[[int], Step]) -> Roller:
    """The roll of one die whose face decides what follows: `outcome(face)` gives the Outcome,
    or the `Roller` of the dice still to roll (another `by_face`, say), and is worked out once
    per face (when the face first comes up), then looked up on every roll.

    The dice are drawn one by one as the plain resolver drew them, with the same labels, so
    seeded and given dice come out as before. Each roll gets its own copy of the details (a
    caller may add to them); effects are immutable tuples and are shared.
    """
    table: dict[int, Step] = {}

    def roll(dice: Dice) -> Outcome:
        face = dice.roll(die, label)
        found = table.get(face)
        if found is None:
            found = table[face] = outcome(face)
        if found.__class__ is Outcome:
            key, details, effects = found
            copied: dict[str, Any] = {**details}
            return _new_outcome(Outcome, (key, copied, effects))
        return found(dice)  # type: ignore[operator]  # not an Outcome: the next die's roll

    return roll


#: A value a die's face leads to in `face_steps`: immutable, handed out as it is.
Part = TypeVar("Part")


def face_steps(
    die: Die,
    label: str,
    step: Callable[[int], Part | Callable[[Dice], Part]],
    final: type[Part],
) -> Callable[[Dice], Part]:
    """`by_face` for a part of a roll (one shot of a volley, say) whose result is an
    immutable `final` (a NamedTuple), handed out as it is: no details to copy."""
    table: dict[int, Part | Callable[[Dice], Part]] = {}

    def roll(dice: Dice) -> Part:
        face = dice.roll(die, label)
        found = table.get(face)
        if found is None:
            found = table[face] = step(face)
        if found.__class__ is final:
            return found
        return found(dice)  # type: ignore[operator]  # not a `final`: the next die's roll

    return roll


def no_dice(outcome: Outcome) -> Roller:
    """The roll of a question answered without dice: the same Outcome, its details copied."""
    key, details, effects = outcome

    def roll(dice: Dice) -> Outcome:
        copied: dict[str, Any] = {**details}
        return _new_outcome(Outcome, (key, copied, effects))

    return roll


def as_roller(step: Step) -> Roller:
    """A `Step` as a roll of its own: an Outcome reached without dice, or the roll itself."""
    return no_dice(step) if isinstance(step, Outcome) else step


def _sums_to_one(values: Iterable[Fraction | int | float]) -> bool:
    """Whether exact probabilities sum to 1, in whole numbers over a common denominator.

    Adding Fractions one by one normalises at every step (a gcd each); this is the same test
    at a fraction of the cost, and `odds` runs it on every call.
    """
    # The running sum as numerator/denominator, never reduced: it is 1 when they are equal.
    total, over = 0, 1
    for value in values:
        if value is _ZERO:  # an outcome the odds left out
            continue
        exact_value = value if value.__class__ is Fraction else Fraction(value)
        # The slots `exact` fills; the public properties cost a Python call each.
        numerator = exact_value._numerator  # type: ignore[attr-defined]  # Fraction's private slots: one Fraction per outcome, pinned by a test
        denominator = exact_value._denominator  # type: ignore[attr-defined]  # Fraction's private slots: one Fraction per outcome, pinned by a test
        if denominator == over:
            total += numerator
        else:
            total, over = total * denominator + numerator * over, over * denominator
    return total == over


def exact(numerator: int, denominator: int) -> Fraction:
    """Return numerator/denominator as a Fraction, built without Fraction's generic checks.

    `Fraction(n, d)` inspects its arguments' numeric types on every call; an odds function
    that counts outcomes in whole numbers knows both are ints, so it only needs the gcd. The
    result is an ordinary normalised Fraction (the same as `Fraction(n, d)`; a test pins it).
    """
    if denominator <= 0:
        raise ZeroDivisionError(f"exact({numerator}, {denominator})")
    divisor = gcd(numerator, denominator)
    value = _new_fraction(Fraction)
    value._numerator = numerator // divisor  # type: ignore[attr-defined]  # Fraction's private slots: one Fraction per outcome, pinned by a test
    value._denominator = denominator // divisor  # type: ignore[attr-defined]  # Fraction's private slots: one Fraction per outcome, pinned by a test
    return value


_new_fraction = object.__new__
#: A die's face as `face_odds` reads it: a number, or a table's entry printed on it.
Face = TypeVar("Face")


def odds_key(params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Validated parameters as the key of an odds cache: their items as given, lists as tuples.

    `Schema.validate` returns every field in its declared order, so the items need no sort
    (sorting cost a cheap check's uncached odds about a fifth of their time); parameters given
    in another order only miss the cache. A multi-choice value (a list) becomes a tuple, so
    the key hashes.
    """
    items = tuple(params.items())
    if list not in map(type, params.values()):
        return items
    return tuple((k, tuple(v) if v.__class__ is list else v) for k, v in items)


def counted(counts: Mapping[str, int], total: int) -> dict[str, Fraction]:
    """Turn whole-number counts of each outcome (out of `total` equally likely ways) into
    probabilities: one Fraction per outcome, none per way."""
    return {key: exact(count, total) if count else _ZERO for key, count in counts.items()}


def face_odds(faces: Sequence[Face], classify: Callable[[Face], str]) -> dict[str, Fraction]:
    """The distribution of `classify(face)` over one die's equally likely faces."""
    counts: dict[str, int] = {}
    for face in faces:
        key = classify(face)
        counts[key] = counts.get(key, 0) + 1
    return counted(counts, len(faces))


def distribution(
    outcomes: Mapping[Any, Fraction | int], classify: Callable[[Any], str]
) -> dict[str, Fraction]:
    """Fold a distribution over raw results into outcome keys via `classify`.

    `outcomes` maps each raw result (a roll total, a tuple of dice ...) to its probability or
    weight; weights are normalised, so icepool's integer quantities can be passed directly.
    Whole-number weights are folded in whole numbers (one Fraction per key at the end).
    """
    if all(weight.__class__ is int for weight in outcomes.values()):
        counts: dict[str, int] = {}
        for raw, weight in outcomes.items():
            key = classify(raw)
            counts[key] = counts.get(key, 0) + int(weight)
        return counted(counts, sum(counts.values()))
    total = sum(Fraction(w) for w in outcomes.values())
    folded: dict[str, Fraction] = {}
    for raw, weight in outcomes.items():
        key = classify(raw)
        folded[key] = folded.get(key, Fraction(0)) + Fraction(weight) / total
    return folded


def multisets(faces: Sequence[int], count: int) -> dict[tuple[int, ...], int]:
    """Each sorted hand of `count` dice with these faces, and the orderings that show it.

    For a roll whose result depends only on which faces came up (the lowest two, how many
    ones), this is the same distribution as every ordered roll, with far fewer hands. The
    table returned is shared: read it, do not change it.
    """
    known = _HANDS.get((tuple(faces), count))
    if known is not None:
        return known
    hands: dict[tuple[int, ...], int] = {}
    for hand in combinations_with_replacement(sorted(faces), count):
        ways = factorial(count)
        for same in Counter(hand).values():
            ways //= factorial(same)
        hands[hand] = hands.get(hand, 0) + ways
    if count <= _HANDS_UP_TO:
        _HANDS[(tuple(faces), count)] = hands
    return hands


#: Hands already worked out, by faces and count: a table of the dice, the same for any check
#: and any parameters (not a cache of anyone's odds). Small hands only, so it stays small.
_HANDS: dict[tuple[tuple[int, ...], int], dict[tuple[int, ...], int]] = {}
_HANDS_UP_TO = 6
