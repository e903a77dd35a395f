"""Auto-resolve benchmark: 1,000 simulated battles of 6 figures against 6, per system.

Issue 29's budget: <= 1 s per system for 1,000 battles. Each battle is the rules engine's own
simulation (`RuleSystem.simulate`, what `battles.services.simulate_batch` loops over), fought
by six starting figures a side (the stats a new character gets: defaults, and the lowest legal
value where the schema needs one) with seeded dice, as a batch run seeds them. The anchor is
a bare `random.randint` loop rolling as many d6 as the battles rolled dice, timed in the same
run, so the figure can be read against the machine's load; CPU seconds (this process's own) are
given beside the wall time, as a busy machine stretches the wall clock, not the work.

Prints one JSON document.
Run: `.venv/bin/python bench/auto_resolve.py [--battles N] [--system KEY]`.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import SeededDice
from rules.errors import ValidationError
from rules.schema import Schema
from rules.simulate import SimFigure
from rules.system import RuleSystem, all_systems

BUDGET_S = 1.0
FIGURES = 6


def starting_stats(schema: Schema) -> dict[str, Any]:
    """A new figure's stats: defaults, and the lowest legal value where one is required."""
    try:
        return schema.validate({})
    except ValidationError as exc:
        needed = {}
        for name in exc.errors:
            field = schema[name]
            low = field.min if field.min is not None else 1
            needed[name] = field.choices[0][0] if field.choices else low
        return schema.validate(needed)


def sides(system: RuleSystem) -> list[list[SimFigure]]:
    stats = starting_stats(system.stats)
    return [
        [SimFigure(f"{side}-{n}", f"Figure {n}", stats, unit=f"{side}") for n in range(FIGURES)]
        for side in (0, 1)
    ]


def battles(system: RuleSystem, count: int) -> dict[str, Any]:
    assert system.simulate is not None
    simulate, fighters = system.simulate, sides(system)
    options = system.options.validate({})
    events = dice = 0
    start, cpu = time.perf_counter(), time.process_time()
    for run in range(count):
        source = SeededDice("bench", f"simulate/{run}")
        result = simulate(fighters, options, source)
        events += len(result.events)
        dice += len(source.rolls)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    randint = random.Random(0).randint
    start = time.perf_counter()
    for _ in range(dice):
        randint(1, 6)
    anchor = time.perf_counter() - start
    return {
        "system": system.key,
        "battles": count,
        "seconds": round(seconds, 3),
        "seconds_per_1000": round(seconds * 1000 / count, 3),
        "cpu_seconds_per_1000": round(cpu * 1000 / count, 3),
        "events_per_battle": round(events / count, 1),
        "dice_per_battle": round(dice / count, 1),
        "randint_loop_seconds": round(anchor, 4),
        "within_budget": seconds * 1000 / count <= BUDGET_S,
    }


def main() -> int:
    args = sys.argv[1:]
    count = int(args[args.index("--battles") + 1]) if "--battles" in args else 1000
    only = args[args.index("--system") + 1] if "--system" in args else None
    rows = [
        battles(s, count) for s in all_systems() if s.simulate is not None and only in (None, s.key)
    ]
    report = {
        "benchmark": "auto_resolve",
        "budget_s_per_1000": BUDGET_S,
        "figures_a_side": FIGURES,
        "systems": rows,
        "over_budget": [r["system"] for r in rows if not r["within_budget"]],
    }
    print(json.dumps(report, indent=2))
    return 0 if not report["over_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
