"""bench/live.py end to end, shortened: uvicorn on PostgreSQL and Redis, two battles' phones and
spectators; every client's events compared with the log, and the CPU each part spent.

As for the other benches, the latency budget is reported by the bench, not asserted here.
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


def test_the_live_bench_counts_every_event_once_and_the_cpu_of_each_part():
    if shutil.which("psql") is None or shutil.which("redis-cli") is None:
        pytest.skip("needs psql, the machine's PostgreSQL and Redis")

    run = subprocess.run(
        [sys.executable, "bench/live.py", "--battles", "2", "--seconds", "6"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip

    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["actions"] > 0 and result["action_errors"] == 0
    assert result["events_lost"] == 0 and result["events_duplicated"] == 0
    assert result["streams_held_to_the_end"] == result["streams_open"] == 8
    assert result["fanout_ms"]["n"] == 4 * result["events_logged"]
    cpu = result["cpu_ms_per_action"]
    assert set(cpu) == {"server", "postgres", "redis_shared", "client"}
    assert cpu["server"] > 0 and cpu["postgres"] > 0 and cpu["client"] > 0
    assert result["server_cores_used"] > 0 and 0 <= result["box_busy_share"] <= 1
