"""Rules-engine benchmark: seeded resolutions per second and odds time, for every check.

Budgets (issues 2 and 4): >= 100,000 resolutions per second per core for each check with seeded
dice, and <= 10 ms for each `odds` call (uncached: the first call for its parameters). Prints
one JSON document. Run: `.venv/bin/python bench/rules.py` (or `make bench`).

`--house` (issue 17) measures each check twice, side by side in one run, as written and under
a house-rules pack (the system's template with one cell edited, so the pack is a real one and
its tables are read through the pack): `house_ratio` is resolutions/s under the pack divided by
resolutions/s as written, the median of alternating rounds (the machine is noisy; ratios of
interleaved runs are what to compare).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.checks import Check
from rules.dice import SeededDice
from rules.errors import RulesError
from rules.schema import Field
from rules.system import RuleSystem, all_systems

RESOLVE_BUDGET_PER_S = 100_000
ODDS_BUDGET_MS = 10.0
#: Checks whose odds are also timed at their heaviest parameters, as the issue asks.
HEAVY_PARAMS = {("rencounter", "aftermath"): {"wounds": 5}}


def sample_value(field: Field) -> Any:
    """A valid value for a required parameter: the default, else the first choice or the minimum."""
    if field.default is not None:
        return field.default
    if field.choices:
        return field.choices[0][0]
    if field.kind == "int":
        return field.min if field.min is not None else 0
    return False if field.kind == "bool" else ""


def sample_params(check: Check) -> dict[str, Any]:
    return {f.name: sample_value(f) for f in check.params.fields}


def resolutions_per_second(check: Check, params: dict[str, Any], seconds: float = 0.4) -> float:
    dice = SeededDice("bench", check.name)
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(500):
            check.resolve(params, dice)
        dice.rolls.clear()  # the benchmark's dice source lives long; a battle's does not
        count += 500
    return count / (time.perf_counter() - start)


def odds_ms(check: Check, params: dict[str, Any]) -> float:
    fn = getattr(check.odds_fn, "cache_clear", None)
    if fn:
        fn()
    start = time.perf_counter()
    check.odds(params)
    return (time.perf_counter() - start) * 1000


def measure(system_key: str, check: Check) -> dict[str, Any]:
    params = sample_params(check)
    heavy = {**params, **HEAVY_PARAMS.get((system_key, check.name), {})}
    rate = resolutions_per_second(check, params)
    odds = max(odds_ms(check, params), odds_ms(check, heavy))
    return {
        "system": system_key,
        "check": check.name,
        "params": heavy,
        "resolutions_per_s": round(rate),
        "odds_ms": round(odds, 3),
        "within_budget": rate >= RESOLVE_BUDGET_PER_S and odds <= ODDS_BUDGET_MS,
    }


def edited_pack(system: RuleSystem) -> dict[str, Any]:
    """The system's template with its first editable whole-number cell moved by one."""
    from rules import house

    document = house.template(system)
    for table in system.house.tables if system.house else ():
        for column in table.columns:
            if column.kind != "int" or column.name == table.key:
                continue
            for row in document["tables"][table.name]:
                for candidate in (row[column.name] + 1, row[column.name] - 1):
                    if row[column.name] is None:
                        break
                    old, row[column.name] = row[column.name], candidate
                    try:
                        house.load(system, document)
                        return document
                    except house.PackError:
                        row[column.name] = old
    return document


def house_ratios(system: RuleSystem, rounds: int = 5) -> list[dict[str, Any]]:
    """Resolutions/s under a pack over as written, per check, interleaved round by round."""
    housed = system.with_house(edited_pack(system))
    rows = []
    for name, check in system.checks.items():
        params = sample_params(check)
        try:
            housed.check(name).params.validate(params)
        except RulesError:
            continue  # the edit made the sample parameters invalid (e.g. a removed choice)
        ratios = []
        for _ in range(rounds):
            base = resolutions_per_second(check, params, 0.1)
            under = resolutions_per_second(housed.check(name), params, 0.1)
            ratios.append(under / base)
        rows.append(
            {
                "system": system.key,
                "check": name,
                "house_ratio": round(statistics.median(ratios), 3),
                "resolutions_per_s_under_pack": round(under),
            }
        )
    return rows


def main() -> None:
    if "--house" in sys.argv[1:]:
        rows = [r for s in all_systems() if s.house for r in house_ratios(s)]
        ratios = [r["house_ratio"] for r in rows]
        print(
            json.dumps(
                {
                    "benchmark": "rules_house",
                    "checks": rows,
                    "median_ratio": round(statistics.median(ratios), 3) if ratios else None,
                    "lowest_ratio": min(ratios) if ratios else None,
                },
                indent=2,
            )
        )
        return
    rows = [measure(s.key, c) for s in all_systems() for c in s.checks.values()]
    print(
        json.dumps(
            {
                "benchmark": "rules",
                "budget": {"resolutions_per_s": RESOLVE_BUDGET_PER_S, "odds_ms": ODDS_BUDGET_MS},
                "checks": rows,
                "over_budget": [
                    f"{r['system']}.{r['check']}" for r in rows if not r["within_budget"]
                ],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
