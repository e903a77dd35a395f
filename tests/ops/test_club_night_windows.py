"""bench/club_night.py's stretches of the night: which part was slow, and whether a print
job was rendering then (the arithmetic alone; test_club_night_bench.py runs the night)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def club_night():
    sys.path.insert(0, str(BENCH))  # the benches import each other by their own names
    try:
        import club_night

        yield club_night
    finally:
        sys.path.remove(str(BENCH))


def test_each_answer_falls_in_the_stretch_it_ended_in(club_night):
    tally = club_night.Tally()
    tally.timeline = [
        (0.5, "action:check", 40.0),
        (9.9, "action:draw", 60.0),
        (10.0, "read:home", 30.0),
        (12.0, "healthz", 5.0),  # neither an action nor a read: not in the stretches
        (25.0, "action:void", 200.0),
    ]
    tally.printing = [(9.0, 11.0)]

    rows = club_night._windows(tally, 10.0)

    assert [(r["from_s"], r["actions"]) for r in rows] == [(0.0, 2), (10.0, 0), (20.0, 1)]
    assert rows[1]["action_p95"] is None and rows[1]["read_p95"] == 30.0
    assert rows[2]["action_p95"] == 200.0
    # The job rendered from 9 s to 11 s: the first two stretches, not the third.
    assert [r["printing"] for r in rows] == [True, True, False]
