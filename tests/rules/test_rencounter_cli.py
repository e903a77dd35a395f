"""The rules CLI on Rencounter: contract checks, params and outcome keys; clear bad input."""

import json
from fractions import Fraction

import pytest

from rules.cli import main

CONTRACT = {
    "action": (
        ["experience", "wounds", "morale"],
        ["acts", "hesitates", "falls_back", "routs", "collapses"],
    ),
    "fire": (
        ["skill", "modifier", "damage_modifier"],
        ["miss", "no_effect", "minor", "serious", "crippling", "dead"],
    ),
    "melee": (
        ["attack_skill", "parry_skill", "attack_modifier", "parry_modifier", "riposte"],
        ["hit", "riposte", "no_hit"],
    ),
    "damage": (["modifier"], ["no_effect", "minor", "serious", "crippling", "dead"]),
    "improvement": (["stat", "value"], ["improves", "unchanged"]),
    "aftermath": (["wounds", "care", "hazard"], ["dies", *(f"permanent_{n}" for n in range(6))]),
}


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_systems_lists_the_contract_checks_with_their_params_and_outcomes(capsys):
    code, out, _ = _run(capsys, "systems")

    rencounter = next(s for s in json.loads(out)["systems"] if s["key"] == "rencounter")
    assert code == 0
    for name, (params, outcomes) in CONTRACT.items():
        check = rencounter["checks"][name]
        assert set(params) <= {p["name"] for p in check["params"]}
        assert check["outcomes"] == outcomes


@pytest.mark.parametrize(
    "argv",
    [
        ["action", "experience=4", "wounds=1", "morale=2"],
        ["fire", "skill=7", "modifier=-2", "damage_modifier=1"],
        [
            "melee",
            "attack_skill=7",
            "parry_skill=6",
            "attack_modifier=1",
            "parry_modifier=-1",
            "riposte=true",
        ],
        ["damage", "modifier=-1"],
        ["improvement", "stat=melee", "value=6"],
        ["aftermath", "wounds=1", "care=prompt", "hazard=0"],
    ],
)
def test_odds_of_each_contract_check_cover_every_outcome_and_sum_to_one(capsys, argv):
    code, out, _ = _run(capsys, "odds", "rencounter", *argv)

    data = json.loads(out)
    assert code == 0
    assert list(data["outcomes"]) == CONTRACT[argv[0]][1]
    assert sum(data["outcomes"].values()) == pytest.approx(1, abs=1e-12)


def test_fire_odds_are_exact_fractions(capsys):
    _, out, _ = _run(capsys, "odds", "rencounter", "fire", "skill=5", "modifier=-9")

    exact = json.loads(out)["exact"]
    assert 1 - Fraction(exact["miss"]) == Fraction(1, 144)


def test_aftermath_odds_say_they_are_floats_with_an_error_bound(capsys):
    _, out, _ = _run(capsys, "odds", "rencounter", "aftermath", "wounds=5")

    data = json.loads(out)
    assert data["exact"] is None
    assert data["error_bound"] <= 1e-12


def test_a_roll_with_given_dice_reports_them(capsys):
    code, out, _ = _run(
        capsys, "roll", "rencounter", "fire", "skill=5", "modifier=-6", "--dice", "1,7,9"
    )

    data = json.loads(out)
    assert code == 0
    assert data["outcome"] == "minor"
    assert [d["value"] for d in data["dice"]] == [1, 7, 9]


def test_a_seeded_roll_reproduces(capsys):
    _, first, _ = _run(
        capsys, "roll", "rencounter", "melee", "attack_skill=7", "parry_skill=6", "--seed", "abc"
    )
    _, second, _ = _run(
        capsys, "roll", "rencounter", "melee", "attack_skill=7", "parry_skill=6", "--seed", "abc"
    )

    assert json.loads(first)["dice"] == json.loads(second)["dice"]


def test_tables_reflect_the_campaign_options(capsys):
    code, out, _ = _run(capsys, "tables", "rencounter", "hit_locations=true")

    assert code == 0
    assert "hit_locations" in json.loads(out)["tables"]


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "rencounter", "fire", "skill=13"],
        ["odds", "rencounter", "fire"],
        ["odds", "rencounter", "fire", "skill=7", "range=orbit"],
        ["odds", "rencounter", "aftermath", "wounds=2", "care=prompt", "hazard=1"],
        ["odds", "rencounter", "parley"],
        ["roll", "rencounter", "fire", "skill=7", "--dice", "4"],
        ["roll", "rencounter", "damage", "--dice", "13"],
        ["roll", "rencounter", "damage", "--dice", "3,4"],
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(capsys, argv):
    code, out, err = _run(capsys, *argv)

    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")


@pytest.mark.parametrize(
    ("system", "check"),
    [("rencounter", "direct_order"), ("grits_and_glory", "reload"), ("escarmouche", "reserve")],
)
def test_empty_given_dice_resolve_a_check_that_needs_none(capsys, system, check):
    code, out, err = _run(capsys, "roll", system, check, "--dice", "")

    assert (code, err) == (0, "")
    assert json.loads(out)["dice"] == []


def test_empty_given_dice_for_a_check_that_rolls_name_the_missing_die(capsys):
    code, out, err = _run(capsys, "roll", "rencounter", "fire", "skill=7", "--dice", " ")

    assert (code, out) == (2, "")
    assert err == (
        "error: not enough dice given: needed die #1 (d12 for to hit) but only 0 value(s) "
        "were given\n"
    )
