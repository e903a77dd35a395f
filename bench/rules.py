"""Rules-engine benchmark: seeded resolutions per second and odds time, for every check.

Budgets (issues 2 and 4): >= 100,000 resolutions per second per core for each check with seeded
dice, and <= 10 ms for each `odds` call (uncached: the first call for its parameters). Prints
one JSON document. Run: `.venv/bin/python bench/rules.py` (or `make bench`).

`--randint` (issue 29) measures each check rolled through `Check.prepare` (parameters validated
once, as a simulation rolls them) against a bare `random.randint` loop rolling the same dice the
check rolled (resolution by resolution, into a list), side by side in alternating rounds in CPU
time: `randint_ratio` is the check's time over the loop's (budget: <= 4 for every check; a check
that rolls no dice has no ratio); `resolve_ratio` is the same for `Check.resolve`, which
validates the parameters on every roll (what a simulation paid before issue 29).
`--system KEY` limits it to one system's checks; `--rounds N` (default 9) sets the rounds whose
median ratio is reported: each round times 2,000 resolutions, a few milliseconds, so on a loaded
machine a single round's anchor can be a third off, and five rounds left a check's ratio
swinging by as much as 1.5x from run to run.

`--house` (issue 17) measures each check twice, side by side in one run, as written and under
a house-rules pack (the system's template with one cell edited, so the pack is a real one and
its tables are read through the pack): `house_ratio` is resolutions/s under the pack divided by
resolutions/s as written, the median of alternating rounds (the machine is noisy; ratios of
interleaved runs are what to compare).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.checks import Check
from rules.dice import DICE_BY_NAME, SeededDice
from rules.errors import RulesError
from rules.schema import Field
from rules.system import RuleSystem, all_systems

RESOLVE_BUDGET_PER_S = 100_000
RANDINT_BUDGET = 4.0
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


def _sides(die: str) -> int:
    known = DICE_BY_NAME.get(die)
    return known.sides if known else int(die.removeprefix("d"))


def _marks(prepared: Any, context: str, count: int) -> list[int]:
    """Where each resolution's dice end, replayed untimed from the same seed."""
    dice, marks = SeededDice("bench", context), []
    for _ in range(count):
        prepared.roll(dice)
        marks.append(len(dice.rolls))
    return marks


def randint_ratio(
    check: Check, params: dict[str, Any], count: int = 2000, rounds: int = 9
) -> dict[str, Any]:
    """The prepared check's time over a bare randint loop rolling the dice it rolled.

    The loop rolls, resolution by resolution, the same dice (one `randint(1, sides)` each) into
    a list, which is the least a program that rolls and keeps those dice does. Both are timed
    in CPU seconds of this process, round by round, so the machine's load falls on both.
    """
    prepared = check.prepare(params)
    ratios, check_times, bare_times, resolve_times = [], [], [], []
    for round_ in range(rounds):
        dice = SeededDice("bench", f"{check.name}/{round_}")
        start = time.process_time()
        for _ in range(count):
            check.resolve(params, dice)  # as before: parameters validated every roll
        resolve_times.append(time.process_time() - start)
        dice = SeededDice("bench", f"{check.name}/{round_}")
        roll = prepared.roll
        start = time.process_time()
        for _ in range(count):
            roll(dice)
        check_time = time.process_time() - start
        sides = [_sides(r.die) for r in dice.rolls]
        marks = _marks(prepared, f"{check.name}/{round_}", count)
        hands = [sides[a:b] for a, b in zip([0, *marks[:-1]], marks, strict=True)]
        randint = random.Random(round_).randint
        start = time.process_time()
        for hand in hands:
            [randint(1, n) for n in hand]
        bare_time = max(time.process_time() - start, 1e-9)
        ratios.append(check_time / bare_time)
        check_times.append(check_time)
        bare_times.append(bare_time)
    return {
        "check": check.name,
        "dice_per_resolution": round(len(sides) / count, 2),
        "prepared_us": round(statistics.median(check_times) / count * 1e6, 3),
        "randint_loop_us": round(statistics.median(bare_times) / count * 1e6, 3),
        "randint_ratio": round(statistics.median(ratios), 2),
        "resolve_us": round(statistics.median(resolve_times) / count * 1e6, 3),
        "resolve_ratio": round(statistics.median(resolve_times) / statistics.median(bare_times), 2),
    }


def randint_rows(only: str | None = None, rounds: int = 9) -> list[dict[str, Any]]:
    rows = []
    for system in all_systems():
        if only not in (None, system.key):
            continue
        for check in system.checks.values():
            row = randint_ratio(check, sample_params(check), rounds=rounds)
            rows.append({"system": system.key, **row})
    return rows


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
        ratios, controls = [], []
        for _ in range(rounds):
            base = resolutions_per_second(check, params, 0.1)
            under = resolutions_per_second(housed.check(name), params, 0.1)
            again = resolutions_per_second(check, params, 0.1)
            ratios.append(under / base)
            controls.append(again / base)  # as written against itself: the noise band
        rows.append(
            {
                "system": system.key,
                "check": name,
                "house_ratio": round(statistics.median(ratios), 3),
                "control_ratio": round(statistics.median(controls), 3),
                "resolutions_per_s_under_pack": round(under),
            }
        )
    return rows


def main() -> None:
    args = sys.argv[1:]
    if "--randint" in args:
        rows = randint_rows(
            args[args.index("--system") + 1] if "--system" in args else None,
            int(args[args.index("--rounds") + 1]) if "--rounds" in args else 9,
        )
        ratios = [r["randint_ratio"] for r in rows if r["dice_per_resolution"]]
        print(
            json.dumps(
                {
                    "benchmark": "rules_randint",
                    "budget": RANDINT_BUDGET,
                    "checks": rows,
                    "median_ratio": round(statistics.median(ratios), 2),
                    "median_resolve_ratio": round(
                        statistics.median(
                            r["resolve_ratio"] for r in rows if r["dice_per_resolution"]
                        ),
                        2,
                    ),
                    "worst": sorted(
                        (r for r in rows if r["dice_per_resolution"]),
                        key=lambda r: -r["randint_ratio"],
                    )[:5],
                    "over_budget": [
                        f"{r['system']}.{r['check']}"
                        for r in rows
                        if r["randint_ratio"] > RANDINT_BUDGET and r["dice_per_resolution"]
                    ],
                },
                indent=2,
            )
        )
        return
    if "--house" in sys.argv[1:]:
        rows = [r for s in all_systems() if s.house for r in house_ratios(s)]
        ratios = [r["house_ratio"] for r in rows]
        controls = [r["control_ratio"] for r in rows]
        print(
            json.dumps(
                {
                    "benchmark": "rules_house",
                    "checks": rows,
                    "median_ratio": round(statistics.median(ratios), 3) if ratios else None,
                    "lowest_ratio": min(ratios) if ratios else None,
                    "median_control_ratio": round(statistics.median(controls), 3)
                    if controls
                    else None,
                    "within_budget": all(
                        r["resolutions_per_s_under_pack"] >= RESOLVE_BUDGET_PER_S for r in rows
                    ),
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
