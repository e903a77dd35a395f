"""bench/club_night.py end to end, shortened: the ASGI stack, PostgreSQL, Redis and a Celery
worker under two battles' phones, readers and a print job; zero errors, every kind timed.

As for bench/load.py, the latency budget is reported by the bench, not asserted here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.load


def test_the_club_night_bench_runs_bounded_and_answers_every_request():
    if shutil.which("psql") is None or shutil.which("redis-cli") is None:
        pytest.skip("needs psql, the machine's PostgreSQL and Redis")

    run = subprocess.run(
        [sys.executable, "bench/club_night.py", "--seconds", "10", "--battles", "2",
         "--readers", "2", "--workers", "1", "--pool", "12"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip

    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert "skipped" not in result, result
    assert result["errors"] == 0, result["error_samples"]
    assert result["streams_held_to_the_end"] == result["streams_open"] == 4
    kinds = result["ms_by_kind"]
    assert {"action:check", "action:draw", "action:void", "healthz"} <= set(kinds)
    assert kinds["action:check"]["p95_over_healthz_p95"] is not None
    assert {"p50", "p95", "p99"} <= set(result["ms_table_actions"])
    # The night in stretches (--window, 10 s by default): every action falls in one. A print
    # job rendered by the worker (over 10 battles; two print at once) marks its stretches.
    windows = result["by_window"]
    assert sum(w["actions"] for w in windows) == sum(
        kinds[k]["count"] for k in ("action:check", "action:draw", "action:void")
    )
    assert "print:request" in kinds
    assert any(w["printing"] for w in windows) == bool(result["print_jobs_from_to_s"])
    assert result["worker_nice"] == 6
