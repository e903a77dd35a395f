"""The odds page (contract URL `/odds/`): a check's exact distribution, from the same engine as
`python -m rules odds`.

Everything is read from the rules registry. With `?campaign=<id>` (a campaign the user may
see; any other is a 404) the page prices the campaign's system under its current house rules
and says which version. The form is a plain GET form (it works without JavaScript); htmx swaps
the panel in place as a value changes.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render

from campaigns.models import Campaign, HouseRules
from campaigns.selectors import campaigns_visible_to
from campaigns.services.house_rules import house_rules_current, house_rules_filename, rules_under
from pages.charts import Bar, BarChart, bar_chart
from pages.htmx import from_htmx
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


def cli_command(
    system: RuleSystem, check: Check, params: dict[str, object], house_file: str = ""
) -> str:
    """Return the `python -m rules odds` command that prints the same distribution.

    `house_file` names the house-rules pack the odds are priced under (saved from the API's
    version export), given to the command as `--house`.
    """
    words = ["python", "-m", "rules", "odds", system.key, check.name]
    for field in check.params.fields:
        value = params.get(field.name)
        if value == field.default or value is None:
            continue
        words.append(f"{field.name}={_cli_value(value)}")
    if house_file:
        words += ["--house", house_file]
    return shlex.join(words)


def _cli_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def odds_result(
    system: RuleSystem, check: Check, params: dict[str, object], house_file: str = ""
) -> OddsResult:
    """Return the distribution of `check` for validated `params`, with its chart."""
    odds = check.odds(params)
    rows = outcome_rows(odds)
    chart = bar_chart(
        [Bar(row.label, row.probability, row.percent) for row in rows],
        title=f"{check.title}: chance of each outcome",
    )
    command = cli_command(system, check, params, house_file)
    return OddsResult(rows, chart, odds.exact, odds.error_bound, command)


def _pick(query: QueryDict, offered: tuple[RuleSystem, ...]) -> tuple[RuleSystem, Check]:
    systems = {system.key: system for system in offered}
    system = systems.get(query.get("system", "")) or next(iter(systems.values()))
    name = query.get("check", "")
    check = system.checks.get(name) or next(iter(system.checks.values()))
    return system, check


def _evaluate(
    system: RuleSystem, check: Check, query: QueryDict, house_file: str = ""
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
        result = odds_result(system, check, params, house_file)
    except ValidationError as exc:
        known = {k: v for k, v in exc.errors.items() if k in check.params}
        stray = "; ".join(f"{k}: {v}" for k, v in exc.errors.items() if k not in known)
        return schema_inputs(check.params, values, known, "param-"), None, stray
    except RulesError as exc:
        return schema_inputs(check.params, values, {}, "param-"), None, str(exc)
    return schema_inputs(check.params, params, {}, "param-"), result, ""


@dataclass(frozen=True)
class CampaignRules:
    """The campaign whose rules the page prices, and the house-rules version they are under."""

    campaign: Campaign
    version: HouseRules | None
    system: RuleSystem

    @property
    def house_file(self) -> str:
        """The file name the version's JSON export is saved under (for the CLI command)."""
        if self.version is None:
            return ""
        return house_rules_filename(self.campaign, self.version)


def _campaign_rules(request: HttpRequest) -> CampaignRules | None:
    raw = request.GET.get("campaign", "")
    if not raw:
        return None
    if not raw.isdigit():
        raise Http404("no such campaign")
    campaign = get_object_or_404(campaigns_visible_to(request.user), pk=int(raw))
    version = house_rules_current(campaign)
    return CampaignRules(campaign, version, rules_under(campaign.system, version))


def odds_page(request: HttpRequest) -> HttpResponse:
    """Show a check's exact outcome distribution; htmx requests get just the panel."""
    rules = _campaign_rules(request)
    offered = (rules.system,) if rules is not None else all_systems()
    system, check = _pick(request.GET, offered)
    house_file = rules.house_file if rules is not None else ""
    inputs, result, form_error = _evaluate(system, check, request.GET, house_file)
    context = {
        "systems": offered,
        "system": system,
        "check": check,
        "inputs": inputs,
        "result": result,
        "form_error": form_error,
        "shown": f"{system.key}/{check.name}",
        "rules": rules,
    }
    template = "pages/odds/_panel.html" if from_htmx(request) else "pages/odds/page.html"
    return render(request, template, context)
