"""Benchmark: a cold `python -m rules odds ...` against a cold `python -c 'import icepool'`.

Each command runs in a fresh interpreter, in rounds with the baseline: one baseline run and one
CLI run per round, the order swapped every other round (A B, B A, ...), so that a swing in the
machine's load and any advantage of going first fall on both. Each run is timed by the CPU
(user + system) the child used, from `resource.getrusage(RUSAGE_CHILDREN)`: on a loaded machine
a process's wall time counts the time it waited for a core, its CPU time does not. Each round
gives a ratio (CLI / baseline), and the figure is the median of the rounds' ratios, with the
quartiles to show the spread. The best wall time of each (the old figure) is kept beside it.

Bytecode: an installed icepool is run from the bytecode pip compiled when it installed it. The
project's own modules have none when `PYTHONDONTWRITEBYTECODE` is set and nothing compiled them
(as in a checkout run that way, or an image that never ran `compileall`), and then each cold
call compiles every module it imports from source. The bench measures both: "compiled" runs
both commands with a private bytecode cache (`PYTHONPYCACHEPREFIX`, written by one untimed run
of each), so both read bytecode; "as_is" runs them in the environment as given.

Prints JSON with the load average before and after. Budget (issue 16, issue 27): the median
ratio <= 1.5, i.e. the CLI imports only the system it is asked about. Without icepool
installed, the baseline is `python -c 'import json'`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 15
ODDS = {  # a check of each system that needs no parameters
    "rencounter": ["damage"],
    "grits_and_glory": ["trait"],
    "escarmouche": ["pool"],
    "game_the_90": ["shoot"],
    "d12_skirmish": ["shoot"],
}


def _load() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def _run(command: list[str], env: Mapping[str, str]) -> tuple[float, float]:
    """Run `command` once; return its CPU time and wall time, in milliseconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1000, wall * 1000


def _in_rounds(
    baseline: list[str], command: list[str], env: Mapping[str, str], rounds: int
) -> tuple[float, dict[str, object]]:
    """Time `baseline` and `command` alternately, the order swapped each round; return the
    median ratio and the row that reports it."""
    base_runs, runs = [], []
    for turn in range(rounds):
        if turn % 2 == 0:
            base_runs.append(_run(baseline, env))
            runs.append(_run(command, env))
        else:
            runs.append(_run(command, env))
            base_runs.append(_run(baseline, env))
    ratios = sorted(cpu / base_cpu for (cpu, _), (base_cpu, _) in zip(runs, base_runs, strict=True))
    low, _, high = statistics.quantiles(ratios, n=4)
    best_wall = min(w for _, w in runs) / min(w for _, w in base_runs)
    ratio = round(statistics.median(ratios), 2)
    return ratio, {
        "cpu_ms": round(statistics.median(c for c, _ in runs), 1),
        "baseline_cpu_ms": round(statistics.median(c for c, _ in base_runs), 1),
        "ratio": ratio,
        "ratio_quartiles": [round(low, 2), round(high, 2)],
        "best_wall_ratio": round(best_wall, 2),
    }


def _environments(cache: str) -> dict[str, dict[str, str]]:
    as_is = dict(os.environ)
    compiled = {k: v for k, v in as_is.items() if k != "PYTHONDONTWRITEBYTECODE"}
    compiled["PYTHONPYCACHEPREFIX"] = cache
    return {"compiled": compiled, "as_is": as_is}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="runs of each, alternately")
    parser.add_argument(
        "--bytecode", choices=("compiled", "as_is", "both"), default="both", help="see above"
    )
    options = parser.parse_args()
    baseline_module = "icepool" if importlib.util.find_spec("icepool") else "json"
    baseline = [sys.executable, "-c", f"import {baseline_module}"]
    load_before = _load()
    modes: dict[str, list[dict[str, object]]] = {}
    worst: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rules-cli-pyc-") as cache:
        for mode, env in _environments(cache).items():
            if options.bytecode not in (mode, "both"):
                continue
            rows = modes[mode] = []
            for system, args in ODDS.items():
                command = [sys.executable, "-m", "rules", "odds", system, *args]
                warm = subprocess.run(command, cwd=ROOT, env=env, capture_output=True)
                subprocess.run(baseline, cwd=ROOT, env=env, capture_output=True)
                ratio, timed = _in_rounds(baseline, command, env, options.rounds)
                rows.append({"system": system, "args": args, "ok": warm.returncode == 0, **timed})
                worst[mode] = max(worst.get(mode, 0.0), ratio)
    print(
        json.dumps(
            {
                "bench": "rules_cli",
                "baseline": f"import {baseline_module}",
                "rounds": options.rounds,
                "load_before": load_before,
                "load_after": _load(),
                "odds": modes,
                "worst_ratio": worst,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
