"""Checks: named, parameterised resolutions with exact odds over the same outcome keys."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from rules.dice import Dice, DieRoll
from rules.errors import RulesError
from rules.schema import Schema

#: Who an effect applies to in a battle: the figure acting or the figure acted upon.
Who = Literal["actor", "target"]


@dataclass(frozen=True)
class Effect:
    """A change to one figure's battle state, applied generically by the battle service.

    `op` is `add` (numeric, missing counts as 0) or `set`. Battle state is a flat JSON dict per
    figure; each system documents its keys (e.g. `wounds`, `status`, `shaken`, `loaded`).
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


_new_resolution = tuple.__new__


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


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


Resolver = Callable[[Mapping[str, Any], Dice], Outcome]
OddsFn = Callable[[Mapping[str, Any]], Odds | Mapping[str, Fraction]]


@dataclass(frozen=True)
class Check:
    """A named check of one rule system.

    `params` validates and normalises the parameters; `resolver(params, dice)` draws dice and
    returns an `Outcome` whose key is one of `outcomes`; `odds_fn(params)` returns the exact
    distribution over the same keys. `dice_order` documents the order in which given dice are
    consumed. `skill` names the stat this check exercises (for improvement rolls), if any.
    `friendly_fire` says the rules let this check strike the actor's own side (firing into a
    melee, a blast that deviates); no other check may take a target on the actor's side.
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
    _keys: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # `resolve` checks every outcome key: a set lookup, not a scan of the tuple.
        object.__setattr__(self, "_keys", frozenset(self.outcomes))

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

    def odds(self, params: Mapping[str, Any]) -> Odds:
        """Validate `params` and return the distribution over every outcome key."""
        values = self.params.validate(params)
        result = self.odds_fn(values)
        odds = result if isinstance(result, Odds) else Odds(dict(result))
        unknown = set(odds.probabilities) - set(self.outcomes)
        if unknown:
            raise RulesError(f"{self.name} odds name unknown outcomes {sorted(unknown)}")
        full = {key: odds.probabilities.get(key, Fraction(0)) for key in self.outcomes}
        if odds.exact:
            exact_total = sum((Fraction(v) for v in full.values()), Fraction(0))
            if exact_total != 1:
                raise RulesError(f"{self.name} odds sum to {exact_total}, not 1")
        else:
            float_total = sum(float(v) for v in full.values())
            tolerance = max(float(odds.error_bound) * len(full), 1e-12)
            if abs(float_total - 1.0) > tolerance:
                raise RulesError(f"{self.name} odds sum to {float_total}, not 1")
        return Odds(full, odds.exact, odds.error_bound)

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
        }


def distribution(
    outcomes: Mapping[Any, Fraction | int], classify: Callable[[Any], str]
) -> dict[str, Fraction]:
    """Fold a distribution over raw results into outcome keys via `classify`.

    `outcomes` maps each raw result (a roll total, a tuple of dice ...) to its probability or
    weight; weights are normalised, so icepool's integer quantities can be passed directly.
    """
    total = sum(Fraction(w) for w in outcomes.values())
    folded: dict[str, Fraction] = {}
    for raw, weight in outcomes.items():
        key = classify(raw)
        folded[key] = folded.get(key, Fraction(0)) + Fraction(weight) / total
    return folded
