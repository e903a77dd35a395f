"""d12 skirmish: exact odds agree with seeded resolves; properties of every check."""

from fractions import Fraction

import pytest

from rules.errors import ValidationError
from rules.systems.d12_skirmish import SYSTEM
from tests.rules.agreement import odds_agree

CASES = [
    ("shoot", {}),
    ("shoot", {"troop": "raw", "modifier": -3}),
    ("fire", {"troop": "elite", "cover": "soft", "range": "medium", "obstacles": 1}),
    ("misfire", {}),
    ("wound", {"mount": "cavalry", "close_range": True}),
    ("wound", {"tough": True}),
    ("hand_to_hand", {"weapon": "sword", "enemy_troop": "veteran", "enemy_in_cover": True}),
    ("hand_to_hand", {"defend_only": True}),
    ("morale", {"in_cover": True, "troop": "raw"}),
    ("morale", {"failed_last": True, "in_combat": True}),
    ("officer_loss", {}),
    ("troop_type", {}),
    ("ability", {}),
]


def agree_within(check_name, params, rolls, sigmas):
    odds_agree(SYSTEM.checks[check_name], params, rolls, sigmas)


@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_20000_seeded_resolves(check, params):
    agree_within(check, params, 20_000, 5)


@pytest.mark.statistical
@pytest.mark.parametrize(("check", "params"), CASES)
def test_odds_agree_with_200000_seeded_resolves(check, params):
    agree_within(check, params, 200_000, 4)


def test_shoot_odds_for_a_regular_are_seven_twelfths():
    odds = SYSTEM.checks["shoot"].odds({"troop": "regular"}).probabilities

    assert odds == {"hit": Fraction(7, 12), "miss": Fraction(4, 12), "misfire": Fraction(1, 12)}


@pytest.mark.parametrize(
    ("check", "params"),
    [
        ("shoot", {"troop": "green"}),
        ("shoot", {"modifier": "lots"}),
        ("shoot", {"range": "close"}),
        ("fire", {"obstacles": 4}),
        ("wound", {"mount": "camel"}),
        ("hand_to_hand", {"enemy_weapon": "lance"}),
        ("morale", {"wounds": 9}),
    ],
)
def test_bad_params_raise_validation_error(check, params):
    with pytest.raises(ValidationError):
        SYSTEM.checks[check].odds(params)
