"""Benchmark: a cold `python -m rules odds ...` against a cold `python -c 'import icepool'`.

Each command runs in a fresh interpreter, ten times, in turn with the baseline (one baseline
run, one CLI run, and so on, so that a swing in the machine's load falls on both); the best
wall time of each is kept (the least disturbed by the rest of the machine). Prints JSON with
both times and their ratio, for one check of every system. Budget (issue 16): ratio <= 1.5,
i.e. the CLI imports only the system it is asked about. Without icepool installed, the
baseline is `python -c 'import json'`.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 10
ODDS = {  # a check of each system that needs no parameters
    "rencounter": ["damage"],
    "grits_and_glory": ["trait"],
    "escarmouche": ["pool"],
    "game_the_90": ["shoot"],
    "d12_skirmish": ["shoot"],
}


def _wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    return (time.perf_counter() - started) * 1000


def _best_in_turns(baseline: list[str], command: list[str]) -> tuple[float, float]:
    """Return the best times of `baseline` and `command`, run alternately."""
    pairs = [(_wall(baseline), _wall(command)) for _ in range(RUNS)]
    return min(b for b, _ in pairs), min(c for _, c in pairs)


def main() -> None:
    baseline_module = "icepool" if importlib.util.find_spec("icepool") else "json"
    baseline_command = [sys.executable, "-c", f"import {baseline_module}"]
    baselines, rows = [], []
    for system, args in ODDS.items():
        command = [sys.executable, "-m", "rules", "odds", system, *args]
        ok = subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 0
        baseline_ms, ms = _best_in_turns(baseline_command, command)
        baselines.append(baseline_ms)
        rows.append(
            {
                "system": system,
                "args": args,
                "ok": ok,
                "ms": round(ms, 1),
                "baseline_ms": round(baseline_ms, 1),
                "ratio": round(ms / baseline_ms, 2),
            }
        )
    baseline = min(baselines)
    print(
        json.dumps(
            {
                "bench": "rules_cli",
                "baseline": f"import {baseline_module}",
                "baseline_ms": round(baseline, 1),
                "odds": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
