"""Game the 90%: exact odds agree with seeded resolves; properties of every check."""

import pytest

from rules.errors import ValidationError
from rules.systems.game_the_90 import SYSTEM
from tests.rules.agreement import odds_agree

CASES = [
    ("shoot", {}),
    ("shoot", {"die": "avg", "shooter": "lights", "target": "foot_knights", "rear": True}),
    ("melee", {"attacker": "knights", "contact": "flank", "target": "foot_knights"}),
    ("melee", {"die": "avg", "attacker": "lights", "uphill": True}),
    ("move", {"unit": "lights", "fast": True}),
    ("charge", {"die": "avg", "unit": "serjeants", "distance": 4}),
    ("rally", {"hits": 7, "passed_ten": True}),
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


@pytest.mark.parametrize(
    ("check", "params"),
    [
        ("shoot", {"shooter": "knights"}),
        ("shoot", {"die": "d8"}),
        ("melee", {"contact": "sideways"}),
        ("rally", {"hits": 15}),
        ("charge", {"distance": -1}),
        ("move", {"speed": 3}),
    ],
)
def test_bad_params_raise_validation_error(check, params):
    with pytest.raises(ValidationError):
        SYSTEM.checks[check].odds(params)
