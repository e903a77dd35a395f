"""Escarmouche through the rules CLI: JSON on success, one line and exit 2 on bad input."""

import json

from rules.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_systems_lists_escarmouche_with_the_pool_contract(capsys):
    code, out, _ = run(capsys, "systems")

    system = next(s for s in json.loads(out)["systems"] if s["key"] == "escarmouche")
    assert code == 0
    assert system["checks"]["pool"]["outcomes"] == ["keeps_initiative", "figure_ends", "side_ends"]


def test_odds_of_the_pool_are_exact_and_sum_to_one(capsys):
    code, out, _ = run(capsys, "odds", "escarmouche", "pool", "active=3", "passive=2")

    data = json.loads(out)
    assert code == 0
    assert data["exact"]["keeps_initiative"] == "3125/7776"
    assert abs(sum(data["outcomes"].values()) - 1) < 1e-12


def test_rolling_given_dice_reports_the_score(capsys):
    code, out, _ = run(capsys, "roll", "escarmouche", "pool", "active=4", "--dice", "6,6,2,1")

    data = json.loads(out)
    assert code == 0
    assert (data["outcome"], data["details"]["score"]) == ("figure_ends", 7)


def test_a_seeded_roll_is_reproducible(capsys):
    _, first, _ = run(capsys, "roll", "escarmouche", "shoot", "weapon=musket", "--seed", "s")
    _, second, _ = run(capsys, "roll", "escarmouche", "shoot", "weapon=musket", "--seed", "s")

    assert json.loads(first)["dice"] == json.loads(second)["dice"]


def test_tables_show_the_house_rules_when_switched_on(capsys):
    code, out, _ = run(capsys, "tables", "escarmouche", "house_campaign=true")

    assert code == 0
    assert "house_rules" in json.loads(out)["tables"]


def test_too_few_given_dice_is_one_line_and_exit_two(capsys):
    code, out, err = run(capsys, "roll", "escarmouche", "pool", "active=3", "--dice", "6,3")

    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "not enough dice" in err


def test_an_out_of_range_parameter_is_refused(capsys):
    code, _, err = run(capsys, "odds", "escarmouche", "fight", "defender_rating=9")

    assert code == 2 and "defender_rating" in err
