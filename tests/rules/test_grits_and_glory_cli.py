"""The rules CLI for Grits & Glory: JSON on success, one line and exit 2 on bad input."""

import json

from rules.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_systems_lists_grits_and_glory_with_its_contract_checks(capsys):
    code, out, _ = _run(capsys, "systems")

    system = next(s for s in json.loads(out)["systems"] if s["key"] == "grits_and_glory")
    assert code == 0
    assert system["checks"]["trait"]["outcomes"] == ["failure", "success", "raise"]
    assert system["checks"]["vigor_test"]["outcomes"] == ["survives", "killed"]
    assert system["piece"] == "unit"


def test_odds_prints_exact_fractions(capsys):
    code, out, _ = _run(capsys, "odds", "grits_and_glory", "trait", "die=6")

    assert code == 0
    assert json.loads(out)["exact"] == {"failure": "1/2", "success": "13/36", "raise": "5/36"}


def test_roll_with_given_dice_uses_them_in_order(capsys):
    code, out, _ = _run(
        capsys, "roll", "grits_and_glory", "trait", "die=8", "wild_card=true", "--dice", "8,3,2"
    )

    result = json.loads(out)
    assert code == 0
    assert result["outcome"] == "raise"
    assert [d["value"] for d in result["dice"]] == [8, 3, 2]


def test_too_few_given_dice_is_one_line_and_exit_two(capsys):
    code, out, err = _run(capsys, "roll", "grits_and_glory", "damage", "--dice", "4")

    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "not enough dice" in err


def test_an_out_of_range_parameter_is_one_line_and_exit_two(capsys):
    code, _, err = _run(capsys, "odds", "grits_and_glory", "trait", "die=7")

    assert code == 2
    assert err.startswith("error:") and "die" in err


def test_tables_prints_the_scenarios(capsys):
    code, out, _ = _run(capsys, "tables", "grits_and_glory")

    assert code == 0
    assert len(json.loads(out)["tables"]["scenarios"]) == 12


NEW_CHECKS = (
    "interrupt",
    "set_weapons",
    "intimidate",
    "taunt",
    "notice",
    "difficult_ground",
    "area_effect",
    "into_melee",
    "reload",
    "benny_reroll",
)


def test_systems_lists_the_opposed_rolls_and_procedures_with_their_dice_order(capsys):
    _, out, _ = _run(capsys, "systems")

    system = next(s for s in json.loads(out)["systems"] if s["key"] == "grits_and_glory")
    for name in NEW_CHECKS:
        assert system["checks"][name]["dice_order"]
        assert system["checks"][name]["outcomes"]


def test_an_opposed_roll_resolves_from_given_dice_and_prints_exact_odds(capsys):
    code, out, _ = _run(capsys, "roll", "grits_and_glory", "intimidate", "die=10", "--dice", "9,4")
    odds_code, odds_out, _ = _run(capsys, "odds", "grits_and_glory", "interrupt")

    assert (code, json.loads(out)["outcome"]) == (0, "shaken")
    assert odds_code == 0
    assert json.loads(odds_out)["exact"] == {
        "interrupts": "3/7",
        "simultaneous": "1/7",
        "acts_after": "3/7",
    }


def test_difficult_ground_running_rolls_three_dice_from_the_cli(capsys):
    code, out, _ = _run(
        capsys, "roll", "grits_and_glory", "difficult_ground", "running=true", "--dice", "5,2,4"
    )

    result = json.loads(out)
    assert code == 0
    assert (result["outcome"], result["details"]["inches"]) == ("slowed", 6)


def test_a_bad_foe_die_is_one_line_and_exit_two(capsys):
    code, _, err = _run(capsys, "odds", "grits_and_glory", "taunt", "foe_die=7")

    assert code == 2
    assert err.startswith("error:") and "foe_die" in err
