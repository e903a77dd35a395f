"""`python -m rules` imports only the system it is asked about (a cold CLI call stays quick)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import contextlib, io, json, sys
from rules.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
loaded = sorted({m.split(".")[2] for m in sys.modules if m.startswith("rules.systems.")})
print(json.dumps({"code": code, "loaded": loaded}))
"""


def _loaded(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("system", "check"),
    [("rencounter", "damage"), ("escarmouche", "pool"), ("d12_skirmish", "shoot")],
)
def test_odds_imports_only_the_system_asked_about(system, check):
    assert _loaded("odds", system, check) == {"code": 0, "loaded": [system]}


def test_listing_the_systems_imports_every_one_in_the_fixed_order():
    from rules.system import all_systems
    from rules.systems import SYSTEM_KEYS

    assert _loaded("systems")["loaded"] == sorted(SYSTEM_KEYS)
    assert [s.key for s in all_systems()] == list(SYSTEM_KEYS)
