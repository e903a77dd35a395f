"""Escarmouche: every check's exact odds agree with many seeded resolutions."""

import math

import pytest

from rules.dice import SeededDice
from rules.system import get_system

SYSTEM = get_system("escarmouche")

CASES = [
    ("pool", {"active": 3, "passive": 2}),
    ("opposed", {"active": 3, "passive": 1, "defender_dice": 3, "rating": 2}),
    ("move", {"active": 2, "terrain": "heavy", "shaken": 1}),
    ("marshal", {"active": 1, "followers": 3, "leader": 2, "terrain": "broken"}),
    ("develop", {"active": 2, "shaken": 1, "purpose": "remove_shaken", "ones_before": 1}),
    ("reserve", {"active": 2}),
    ("shoot", {"active": 2, "weapon": "musket", "skill": 2, "shaken": 1, "target_rating": 2}),
    ("volley", {"shooters": 3, "weapon": "carbine", "leader": 1, "cover": True}),
    ("artillery", {"active": 1, "artillerist": 3, "target_rating": 2, "rating": 4}),
    ("fight", {"active": 2, "attackers": 2, "shaken": 1, "skill": 1, "defender_rating": 4}),
    ("pike_vs_cavalry", {"pike_attacks": False, "skill": 2, "defender_skill": 3}),
    ("massed_pike", {"pike_attacks": True, "supporting": 2, "defender_rating": 4}),
    ("horse_vs_foot", {"horse_attacks": True, "active": 1, "defenders": 2, "defender_rating": 2}),
    ("pike_fencing", {"active": 1, "uphill": True, "rating": 4, "defender_rating": 4}),
]


def agrees(check, params, rolls, standard_errors):
    """Resolve `rolls` times with seeded dice; every outcome within the allowed errors."""
    odds = SYSTEM.check(check).odds(params).as_floats()
    counts = dict.fromkeys(odds, 0)
    dice = SeededDice(f"odds/{check}", repr(sorted(params.items())))
    for _ in range(rolls):
        counts[SYSTEM.check(check).resolve(params, dice).outcome] += 1
    for key, p in odds.items():
        allowed = standard_errors * math.sqrt(p * (1 - p) / rolls)
        assert abs(counts[key] / rolls - p) <= allowed, (key, counts[key] / rolls, p)


@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_twenty_thousand_seeded_rolls(check, params):
    agrees(check, params, 20_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_two_hundred_thousand_seeded_rolls(check, params):
    agrees(check, params, 200_000, 4)


def test_every_check_has_a_case_here():
    assert {check for check, _ in CASES} == set(SYSTEM.checks)
