"""The odds page (contract URL `/odds/`): a check's exact distribution, from the same engine as
`python -m rules odds`.

Everything is read from the rules registry; nothing touches the database. The form is a plain
GET form (it works without JavaScript); htmx swaps the panel in place as a value changes.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render

from pages.charts import Bar, BarChart, bar_chart
from pages.schema_forms import Input, opening_values, schema_inputs, submitted_values
from rules.checks import Check, Odds
from rules.errors import RulesError, ValidationError
from rules.system import RuleSystem, all_systems


@dataclass(frozen=True)
class OutcomeRow:
    key: str
    label: str
    probability: float
    percent: str
    exact: str | None


@dataclass(frozen=True)
class OddsResult:
    rows: tuple[OutcomeRow, ...]
    chart: BarChart
    exact: bool
    error_bound: float
    command: str


def outcome_label(key: str) -> str:
    """Return an outcome key as words: `hits_2_out_of_missiles` -> `hits 2 out of missiles`."""
    return key.replace("_", " ")


def percent(probability: float) -> str:
    """Return a probability as a percentage a player can read at a glance."""
    if probability == 0:
        return "0%"
    if probability < 0.001:
        return f"{probability * 100:.2g}%"
    return f"{probability * 100:.1f}%"


def outcome_rows(odds: Odds) -> tuple[OutcomeRow, ...]:
    exact = odds.as_json()["exact"] or {}
    return tuple(
        OutcomeRow(key, outcome_label(key), float(p), percent(float(p)), exact.get(key))
        for key, p in odds.probabilities.items()
    )


def cli_command(system: RuleSystem, check: Check, params: dict[str, Any]) -> str:
    """Return the `python -m rules odds` command that prints the same distribution."""
    words = ["python", "-m", "rules", "odds", system.key, check.name]
    for field in check.params.fields:
        value = params.get(field.name)
        if value == field.default or value is None:
            continue
        words.append(f"{field.name}={_cli_value(value)}")
    return shlex.join(words)


def _cli_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def odds_result(system: RuleSystem, check: Check, params: dict[str, Any]) -> OddsResult:
    """Return the distribution of `check` for validated `params`, with its chart."""
    odds = check.odds(params)
    rows = outcome_rows(odds)
    chart = bar_chart(
        [Bar(row.label, row.probability, row.percent) for row in rows],
        title=f"{check.title}: chance of each outcome",
    )
    return OddsResult(rows, chart, odds.exact, odds.error_bound, cli_command(system, check, params))


def _pick(query: QueryDict) -> tuple[RuleSystem, Check]:
    systems = {system.key: system for system in all_systems()}
    system = systems.get(query.get("system", "")) or next(iter(systems.values()))
    name = query.get("check", "")
    check = system.checks.get(name) or next(iter(system.checks.values()))
    return system, check


def _evaluate(
    system: RuleSystem, check: Check, query: QueryDict
) -> tuple[tuple[Input, ...], OddsResult | None, str]:
    # Values typed for another check (the system or check select just changed) are dropped:
    # the new check starts from its own defaults.
    if query.get("shown") == f"{system.key}/{check.name}":
        values, errors = submitted_values(check.params, query)
    else:
        values, errors = opening_values(check.params), {}
    if errors:
        return schema_inputs(check.params, values, errors, "param-"), None, ""
    try:
        params = check.params.validate(values)
        result = odds_result(system, check, params)
    except ValidationError as exc:
        known = {k: v for k, v in exc.errors.items() if k in check.params}
        stray = "; ".join(f"{k}: {v}" for k, v in exc.errors.items() if k not in known)
        return schema_inputs(check.params, values, known, "param-"), None, stray
    except RulesError as exc:
        return schema_inputs(check.params, values, {}, "param-"), None, str(exc)
    return schema_inputs(check.params, params, {}, "param-"), result, ""


def odds_page(request: HttpRequest) -> HttpResponse:
    """Show a check's exact outcome distribution; htmx requests get just the panel."""
    system, check = _pick(request.GET)
    inputs, result, form_error = _evaluate(system, check, request.GET)
    context = {
        "systems": all_systems(),
        "system": system,
        "check": check,
        "inputs": inputs,
        "result": result,
        "form_error": form_error,
        "shown": f"{system.key}/{check.name}",
    }
    template = "pages/odds/_panel.html" if request.htmx else "pages/odds/page.html"
    return render(request, template, context)
