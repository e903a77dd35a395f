"""Checks planned once per question: a roll that only draws, compares and reports.

A check here is written as a planner: given validated parameters, it works out what its roll
needs but the dice (die sizes, Wild Dice, modifiers, target numbers, pools, defence dice,
tie-breaks, the table rows it reads: the snapshot's, a club's under a house-rules pack) and
returns the roll, a function of the parameters and the dice. `Check.resolve` plans and rolls at
once; a prepared check (`Check.prepare`, what a simulation rolls again and again) keeps the
plan, so every roll after the first is just the dice, the comparisons and the result. One
planner serves both, so a prepared roll and a plain resolve cannot disagree.

The plans are kept per check by the validated values, and a check is built per tables
snapshot: a plan belongs to one snapshot and one set of parameters. Grits & Glory and
Escarmouche write their checks so; the other systems use `Check.preparer` (`rules.checks`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

from rules.checks import Check, OddsFn, Outcome, Prepared, Resolver
from rules.dice import Dice
from rules.schema import Schema

Params = Mapping[str, Any]
#: Validated parameters -> the roll they ask for (a Resolver that needs only the dice).
Planner = Callable[[Params], Resolver]
#: An Outcome built as a plain tuple: NamedTuple's generated __new__ is a Python call per roll.
new_outcome = tuple.__new__


#: A check's plans by its validated parameters' values (see `plan_of`).
Plans = dict[tuple[Any, ...], Resolver]
#: Plans a check keeps (`plan_of`): a batch asks a few hundred questions of a check.
_PLANS_SIZE = 4096


def plan_of(planner: Planner, plans: Plans, values: Params) -> Resolver:
    """The plan for validated `values`, made once and kept in `plans` by their values.

    A check's parameters are validated into its fields' order, each field always the same
    type, so the values alone say which question it is; `plans` belongs to one check, and a
    check to one tables snapshot. Values that cannot be a key (a list) are planned every time.
    """
    try:
        key = tuple(values.values())
        known = plans.get(key)
    except TypeError:
        return planner(values)
    if known is None:
        if len(plans) >= _PLANS_SIZE:
            plans.clear()
        known = plans[key] = planner(values)
    return known


def _by_plan(planner: Planner, plans: Plans) -> Resolver:
    def resolve(params: Params, dice: Dice) -> Outcome:
        return plan_of(planner, plans, params)(params, dice)

    return resolve


@dataclass(frozen=True)
class PlannedCheck(Check):
    """A check whose resolver is planned once per prepared question (see the module)."""

    planner: Planner | None = None
    #: The plans made, shared with the resolver (`plan_of`).
    plans: Plans = field(default_factory=dict, repr=False, compare=False)
    #: Prepared questions by a key the auto-resolver builds from what makes them up.
    questions: dict[Hashable, Prepared] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def prepare(self, params: Params) -> Prepared:
        """Validate `params` once and plan their roll: the Prepared rolls the plan."""
        assert self.planner is not None
        values = MappingProxyType(self.params.validate(params))
        plan = plan_of(self.planner, self.plans, values)
        # A prepared roll takes the dice alone (`rules.checks.Roller`): the plan is bound to
        # the values it was made for.
        return Prepared(self.name, values, self, partial(plan, values), self._keys)


def planned(
    name: str,
    title: str,
    params: Schema,
    outcomes: tuple[str, ...],
    planner: Planner,
    odds_fn: OddsFn,
    description: str = "",
    dice_order: str = "",
    *,
    skill: str | None = None,
    friendly_fire: bool = False,
) -> PlannedCheck:
    """A `PlannedCheck`: `Check`'s arguments with a planner in the resolver's place."""
    plans: Plans = {}
    return PlannedCheck(
        name,
        title,
        params,
        outcomes,
        _by_plan(planner, plans),
        odds_fn,
        description,
        dice_order,
        skill=skill,
        friendly_fire=friendly_fire,
        planner=planner,
        plans=plans,
    )
