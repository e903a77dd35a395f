"""Game the 90%: the text's halving, doubling and quarter-cap examples, and every check."""

import pytest

from rules.dice import GivenDice
from rules.systems.game_the_90 import SYSTEM
from rules.systems.game_the_90.checks import stacked_hits

CHECKS = SYSTEM.checks


def resolve(check, dice, **params):
    return CHECKS[check].resolve(params, GivenDice(dice))


@pytest.mark.parametrize(
    ("raw", "halvings", "doublings", "hits"),
    [
        (5, 1, 0, 3),  # one halving, rounded up
        (4, 1, 0, 2),
        (5, 2, 0, 2),  # 1/2 x 1/2 = 1/4 of 5, rounded up
        (1, 2, 0, 1),  # rounding up keeps a minimum of one Hit
        (5, 1, 1, 5),  # a halving and a doubling cancel
        (5, 0, 1, 10),
        (8, 3, 0, 2),  # three halvings still give a quarter, not an eighth
        (8, 3, 1, 4),  # the cap applies to the defence; the doubling then cancels one half
        (0, 0, 1, 0),
        (-1, 0, 1, 0),  # Lights rolling under 3 do no Hits
    ],
)
def test_stacked_hits_halve_double_cap_at_a_quarter_and_round_up(raw, halvings, doublings, hits):
    assert stacked_hits(raw, halvings, doublings) == hits


def test_bowmen_shooting_foot_knights_in_a_wood_score_a_quarter_rounded_up():
    result = resolve("shoot", [3], shooter="bowmen", target="foot_knights", defending_terrain=True)

    assert result.outcome == "hits_1"
    assert result.details["hits"] == 1


def test_lights_shoot_at_minus_two_and_double_into_the_rear():
    result = resolve("shoot", [4], shooter="lights", rear=True)

    assert result.outcome == "hits_4"


def test_a_natural_five_or_six_runs_the_shooter_out_of_missiles():
    result = resolve("shoot", [5], shooter="lights", target="foot_knights")

    assert result.outcome == "hits_2_out_of_missiles"
    assert any(e.key == "out_of_missiles" and e.value is True for e in result.effects)


def test_the_average_die_runs_out_of_missiles_only_on_its_five():
    odds = CHECKS["shoot"].odds({"die": "avg"}).probabilities

    out = sum(p for key, p in odds.items() if key.endswith("out_of_missiles"))
    assert out == pytest.approx(1 / 6)
    assert odds["hits_5_out_of_missiles"] == odds["hits_2"] == pytest.approx(1 / 6)


def test_the_average_die_refuses_a_one_typed_in():
    with pytest.raises(Exception, match="not a face"):
        resolve("shoot", [1], die="avg")


def test_a_hit_that_reaches_fifteen_removes_the_target():
    result = resolve("melee", [6], attacker="knights", contact="rear", target_hits=1)

    assert result.outcome == "hits_16"
    assert ("status", "removed") in {(e.key, e.value) for e in result.effects}
    assert result.details["removed"] is True


def test_knights_charging_foot_knights_uphill_in_a_wood_are_capped_at_a_quarter():
    result = resolve(
        "melee", [6], attacker="knights", target="foot_knights", uphill=True, defending_terrain=True
    )

    assert result.outcome == "hits_2"


def test_a_unit_uphill_and_in_a_wood_halves_once_for_the_pair():
    both = resolve("melee", [6], attacker="serjeants", uphill=True, defending_terrain=True)
    one = resolve("melee", [6], attacker="serjeants", uphill=True)

    assert both.outcome == one.outcome == "hits_3"


def test_uphill_in_a_wood_attacked_in_the_flank_takes_full_hits():
    result = resolve(
        "melee", [4], attacker="serjeants", uphill=True, defending_terrain=True, contact="flank"
    )

    assert result.outcome == "hits_4"


def test_front_corner_contact_on_a_flank_earns_no_doubling():
    corner = resolve("melee", [4], contact="corner")
    flank = resolve("melee", [4], contact="flank")

    assert (corner.outcome, flank.outcome) == ("hits_4", "hits_8")


def test_bowmen_and_lights_melee_at_minus_two():
    assert resolve("melee", [3], attacker="bowmen").outcome == "hits_1"
    assert resolve("melee", [2], attacker="lights").outcome == "hits_0"


@pytest.mark.parametrize(
    ("unit", "fast", "inches"),
    [("serjeants", True, 7), ("lights", True, 10), ("knights", True, 13), ("knights", False, 4)],
)
def test_fast_moves_add_three_six_or_nine_inches_by_class(unit, fast, inches):
    assert resolve("move", [4], unit=unit, fast=fast).outcome == f"inches_{inches}"


def test_a_charge_reaches_when_the_move_covers_the_distance():
    assert resolve("charge", [3], unit="knights", fast=True, distance=12).outcome == "reaches"
    assert resolve("charge", [2], unit="knights", fast=True, distance=12).outcome == "falls_short"


@pytest.mark.parametrize(("face", "off"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_rally_removes_one_two_or_three_hits(face, off):
    assert resolve("rally", [face], hits=6).outcome == f"hits_off_{off}"


def test_a_unit_once_past_ten_hits_never_rallies_below_five():
    result = resolve("rally", [6], hits=6, passed_ten=True)

    assert result.outcome == "hits_off_1"
    assert result.effects[0].value == -1


def test_rally_cannot_remove_hits_a_unit_does_not_have():
    assert resolve("rally", [6], hits=1).outcome == "hits_off_1"
    assert resolve("rally", [6], hits=0).outcome == "hits_off_0"


def test_the_die_option_changes_the_odds():
    d6 = CHECKS["melee"].odds({"die": "d6"}).probabilities
    avg = CHECKS["melee"].odds({"die": "avg"}).probabilities

    assert d6["hits_1"] == pytest.approx(1 / 6)
    assert avg["hits_1"] == 0
    assert avg["hits_3"] == pytest.approx(1 / 3)
