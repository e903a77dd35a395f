"""Shared by the odds tests: exact odds against seeded resolves, and parameter strategies."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from rules.checks import Check
from rules.dice import SeededDice


def odds_agree(check: Check, params: Mapping[str, Any], rolls: int, sigmas: float) -> None:
    """Assert each outcome's seeded frequency is within `sigmas` standard errors of its odds."""
    values = check.params.validate(params)
    odds = check.odds(values).probabilities
    dice = SeededDice("odds-agree", f"{check.name}/{sorted(values.items())}")
    counts = dict.fromkeys(odds, 0)
    for _ in range(rolls):
        counts[check.resolver(values, dice).key] += 1
        dice.rolls.clear()  # one long-lived source: keep its record from growing
    for key, p in odds.items():
        error = math.sqrt(float(p) * (1 - float(p)) / rolls)
        assert abs(counts[key] / rolls - float(p)) <= sigmas * error + 1e-12, key


def params_strategy(check: Check) -> st.SearchStrategy[dict[str, Any]]:
    """Valid parameters for `check`: its choices, booleans and integer ranges."""
    return st.fixed_dictionaries(
        {
            f.name: (
                st.sampled_from(f.choice_values())
                if f.kind in ("choice", "die")
                else st.booleans()
                if f.kind == "bool"
                else st.integers(f.min, f.max)
            )
            for f in check.params.fields
        }
    )


Case = tuple[str, dict[str, Any]]


def first_case_of_each(cases: list[Case]) -> list[Case]:
    """The first case of each check: what the fast run checks (the statistical run takes all)."""
    return list({name: (name, params) for name, params in reversed(cases)}.values())


def case_id(case: Case) -> str:
    """Name a (check, params) case for pytest: `check-name=value-...`."""
    return f"{case[0]}-{'-'.join(f'{k}={v}' for k, v in case[1].items())}"
