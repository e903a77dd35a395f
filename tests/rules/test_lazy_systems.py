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


def _loaded(*args: str, probe: str = PROBE) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", probe, *args], cwd=ROOT, capture_output=True, text=True, timeout=60
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


MODULES_PROBE = PROBE.replace('"loaded": loaded', '"modules": sorted(sys.modules)')

#: What `odds` never needs: narration and its words, the campaign procedures, the auto-resolver,
#: the activation methods, OpenSSL (hashlib) for dice it does not roll, and house-rules packs
#: (`rules.house`: their schemas and validation; a pack's tables reach a system built for it),
#: and argparse, which a command line with no option does not need (`rules.cli._plain_odds`).
NOT_FOR_ODDS = (
    "argparse",
    "hashlib",
    "rules.house",
    "rules.narrate",
    "rules.words",
    "rules.campaign",
    "rules.simulate",
    "rules.activation",
)
SYSTEM_PARTS_NOT_FOR_ODDS = ("campaign", "simulate", "activation", "deck", "words", "house")


@pytest.mark.parametrize(
    ("system", "check"),
    [
        ("rencounter", "damage"),
        ("grits_and_glory", "trait"),
        ("escarmouche", "pool"),
        ("game_the_90", "shoot"),
        ("d12_skirmish", "shoot"),
    ],
)
def test_odds_leaves_narration_campaign_resolver_and_activation_unimported(system, check):
    modules = set(_loaded("odds", system, check, probe=MODULES_PROBE)["modules"])

    unwanted = {*NOT_FOR_ODDS, *(f"rules.systems.{system}.{p}" for p in SYSTEM_PARTS_NOT_FOR_ODDS)}
    assert modules & unwanted == set()


def test_a_systems_lazy_parts_load_when_first_used():
    from rules.system import get_system

    system = get_system("grits_and_glory")

    assert list(system.activation) == ["action_deck"]
    assert system.activation["action_deck"].title == "54-card action deck"
    assert system.words.titles
