"""Rencounter's house rules: an edit reaches the checks it touches and nothing else.

The generic properties (the template changes nothing, no leaks between threads) are in
tests/rules/test_house.py; these follow Rencounter's own tables into its checks, campaign
procedure, auto-resolver, CLI and quick-reference sheet.
"""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction
from typing import Any

import pytest

from rules import aftermath, house
from rules.campaign import FigureRecord
from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.simulate import SimFigure
from rules.system import get_system
from rules.systems.rencounter import reference
from rules.systems.rencounter.stats import OPTIONS

RENCOUNTER = get_system("rencounter")
BANDS = ("too_close", "short", "medium", "long", "extreme")


def _template() -> dict[str, Any]:
    return copy.deepcopy(house.template(RENCOUNTER))


def _row(document: dict[str, Any], table: str, key: str) -> dict[str, Any]:
    spec = RENCOUNTER.house.table(table)
    return next(row for row in document["tables"][table] if row[spec.key] == key)


def _edited(table: str, key: str, /, **cells: Any) -> dict[str, Any]:
    document = _template()
    _row(document, table, key).update(cells)
    return document


def _fire(system: Any, **params: Any) -> dict[str, Any]:
    return dict(system.check("fire").odds({"skill": 7, **params}).probabilities)


def _defaults(check: Any) -> dict[str, Any]:
    given = {
        f.name: f.choices[0][0] if f.choices else f.min
        for f in check.params.fields
        if f.required and f.default is None
    }
    return check.params.validate(given)


def _seeded(system: Any, name: str, params: dict[str, Any]) -> str:
    resolution = system.check(name).resolve(params, SeededDice("house", name))
    return json.dumps(resolution.as_json(), sort_keys=True, default=str)


# --- a weapon edited or added ---------------------------------------------------------------


def test_a_harder_hitting_matchlock_changes_its_fire_odds_only():
    housed = RENCOUNTER.with_house(_edited("missile_weapons", "matchlock_musket", damage=-3))
    others = [k for k, _ in RENCOUNTER.check("fire").params["weapon"].choices]
    others.remove("matchlock_musket")

    matchlock = {"weapon": "matchlock_musket", "range": "medium"}
    before, after = _fire(RENCOUNTER, **matchlock), _fire(housed, **matchlock)

    assert after["dead"] > before["dead"]
    assert after["miss"] == before["miss"]
    assert sum(after.values()) == 1
    for weapon in others:
        for band in BANDS:
            assert _fire(housed, weapon=weapon, range=band) == _fire(
                RENCOUNTER, weapon=weapon, range=band
            ), (weapon, band)


def test_a_weapon_edit_leaves_every_other_check_as_written():
    housed = RENCOUNTER.with_house(_edited("missile_weapons", "matchlock_musket", damage=-3))

    for name, check in RENCOUNTER.checks.items():
        if name == "fire":
            continue
        params = _defaults(check)
        assert housed.check(name).odds(params) == check.odds(params), name
        assert _seeded(housed, name, params) == _seeded(RENCOUNTER, name, params), name


MUSKETOON = {
    "key": "musketoon",
    "name": "Musketoon",
    "short": 6,
    "medium": 12,
    "long": 18,
    "extreme": 30,
    "damage": -2,
    "reload": 2.5,
    "shots": "2",
    "repeat": "S",
    "kind": "low_velocity",
}


def _with_musketoon() -> Any:
    document = _template()
    document["tables"]["missile_weapons"].append(MUSKETOON)
    return RENCOUNTER.with_house(document)


def test_an_added_weapon_is_a_choice_of_the_fire_check_and_resolves():
    housed = _with_musketoon()
    params = {"skill": 8, "weapon": "musketoon", "range": "short", "shots": 2}

    resolution = housed.check("fire").resolve(params, SeededDice("musketoon", "fire"))
    odds = housed.check("fire").odds(params)

    assert resolution.outcome in housed.check("fire").outcomes
    assert resolution.params["weapon"] == "musketoon"
    assert sum(odds.probabilities.values()) == 1
    with pytest.raises(ValidationError, match="weapon"):
        RENCOUNTER.check("fire").params.validate(params)
    with pytest.raises(ValidationError, match="at most 2 shot"):
        housed.check("fire").params.validate({**params, "shots": 3})


def test_a_figure_may_carry_an_added_weapon_and_shoot_it_in_an_auto_resolved_battle():
    housed = _with_musketoon()
    stats = housed.stats.validate({"experience": 4, "weapons": ["musketoon", "sword"]})
    sides = [
        [SimFigure(f"{side}{n}", f"{side} {n}", stats, unit=side) for n in range(3)]
        for side in ("red", "blue")
    ]

    result = housed.simulate(sides, OPTIONS.validate({}), SeededDice("musketoon", "battle"))

    assert dict(housed.stats["weapons"].choices)["musketoon"] == "Musketoon (missile)"
    assert any(e.resolution.params.get("weapon") == "musketoon" for e in result.events)
    with pytest.raises(ValidationError):
        RENCOUNTER.stats.validate({"weapons": ["musketoon"]})


def test_a_weapon_added_to_both_tables_is_offered_once():
    document = _template()
    document["tables"]["missile_weapons"].append({**MUSKETOON, "key": "throwing_axe"})
    document["tables"]["melee_weapons"].append(
        {"key": "throwing_axe", "name": "Throwing axe", "to_hit": -1, "damage": -1, "ranks": 1}
        | {"shield": True}
    )

    choices = RENCOUNTER.with_house(document).stats["weapons"].choice_values()

    assert choices.count("throwing_axe") == 1
    assert choices[:2] == ("javelin", "throwing_axe")


def test_the_comparison_names_the_weapon_the_range_and_the_skill():
    after = house.load(RENCOUNTER, _edited("missile_weapons", "matchlock_musket", damage=-3))

    comparisons = {c.probe.label: c for c in house.compare(RENCOUNTER, None, after)}

    medium = comparisons["Matchlock musket, medium range, skill 7"]
    assert medium.before is not None and medium.after is not None
    assert medium.after["dead"] > medium.before["dead"]


def test_a_removed_weapon_has_no_odds_after():
    document = _template()
    document["tables"]["missile_weapons"] = [
        row for row in document["tables"]["missile_weapons"] if row["key"] != "long_bow"
    ]
    after = house.load(RENCOUNTER, document)

    (comparison, *_) = house.compare(RENCOUNTER, None, after)

    assert comparison.probe.params["weapon"] == "long_bow"
    assert comparison.before is not None and comparison.after is None


# --- what a pack may not hold ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "key", "cells", "column", "words"),
    [
        ("missile_weapons", "long_bow", {"medium": 12}, "medium", "longer than the short band"),
        ("missile_weapons", "long_bow", {"damage": 9}, "damage", "at most 6, not 9"),
        ("missile_weapons", "long_bow", {"reload": 0.3}, "reload", "a half"),
        ("missile_weapons", "long_bow", {"key": "none"}, "key", "means no weapon"),
        ("melee_weapons", "pike", {"ranks": 0}, "ranks", "at least 1"),
        ("cover", "leafy", {"modifier": 2}, "modifier", "at most 0"),
        ("damage", "serious", {"up_to": 4}, "up_to", "more than 4"),
        ("aftermath", "healed", {"up_to": 5}, "up_to", "every face"),
        ("aftermath", "permanent", {"up_to": 0}, "up_to", "at least 1"),
        ("improvement", "experience", {"maximum": 7}, "maximum", "from 1 to 6"),
    ],
)
def test_a_cell_out_of_the_rules_scale_is_refused_naming_its_place(
    table, key, cells, column, words
):
    document = _edited(table, key, **cells)
    key_column = RENCOUNTER.house.table(table).key
    index = next(
        i
        for i, row in enumerate(document["tables"][table])
        if row[key_column] == cells.get("key", key)
    )

    with pytest.raises(PackError) as caught:
        house.load(RENCOUNTER, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == (table, index, column)
    assert words in str(caught.value)


def test_aftermath_bands_that_could_roll_for_ever_are_refused():
    # Sepsis on 1-3 and no permanent face: at hazard 2 every roll but a 6 is septic.
    document = _template()
    document["tables"]["aftermath"] = [
        {"result": "sepsis", "up_to": 3},
        {"result": "permanent", "up_to": 3},
        {"result": "healed", "up_to": 6},
    ]

    with pytest.raises(PackError, match="might never end") as caught:
        house.load(RENCOUNTER, document)

    assert (caught.value.table, caught.value.column) == ("aftermath", "up_to")


# --- house campaign rules ---------------------------------------------------------------------

#: Sepsis on a 1, permanent on a 2 or 3, healed on 4-6.
HARSH = [
    {"result": "sepsis", "up_to": 1},
    {"result": "permanent", "up_to": 3},
    {"result": "healed", "up_to": 6},
]


def _harsh() -> Any:
    document = _template()
    document["tables"]["aftermath"] = HARSH
    return RENCOUNTER.with_house(document)


@pytest.mark.parametrize(
    "params",
    [{"wounds": 3}, {"wounds": 2, "care": "prompt"}, {"wounds": 5, "hazard": 2}],
    ids=["plain", "prompt care", "hazard 2"],
)
def test_harsher_aftermath_bands_change_the_odds_which_still_sum_to_one(params):
    before = RENCOUNTER.check("aftermath").odds(params)
    after = _harsh().check("aftermath").odds(params)

    assert after.exact is False
    assert after.error_bound == aftermath.AFTERMATH_ERROR_BOUND
    assert abs(sum(after.probabilities.values()) - 1) <= after.error_bound
    assert after.probabilities["permanent_0"] < before.probabilities["permanent_0"]


def _by_iteration(bands: Any, care: str, hazard: int, wounds: int) -> dict[str, float]:
    """The same odds without the closed form: iterate one point's generating polynomial
    (k permanent points, k <= 5) from nothing until it settles; the least fixed point is the
    chance of a chain that ends with k permanent points."""
    sepsis, permanent, healed = (float(c) for c in aftermath.point_chances(bands, care, hazard))
    f = [0.0] * 6
    for _ in range(5000):
        square = [sum(f[i] * f[k - i] for i in range(k + 1)) for k in range(6)]
        f = [healed * (k == 0) + permanent * (k == 1) + sepsis * square[k] for k in range(6)]
    total = [1.0] + [0.0] * 5
    for _ in range(wounds):
        total = [sum(total[i] * f[k - i] for i in range(k + 1)) for k in range(6)]
    return {f"permanent_{k}": total[k] for k in range(6)} | {"dies": 1 - sum(total)}


@pytest.mark.parametrize(("care", "hazard"), [("none", 0), ("prompt", 0), ("none", 1)])
def test_the_closed_form_agrees_with_plain_iteration_under_the_harsh_bands(care, hazard):
    bands = tuple((row["up_to"], row["result"]) for row in HARSH)
    params = {"wounds": 3, "care": care, "hazard": hazard}

    closed = _harsh().check("aftermath").odds(params).probabilities
    iterated = _by_iteration(bands, care, hazard, 3)

    for outcome, chance in iterated.items():
        assert closed[outcome] == pytest.approx(chance, abs=1e-9), outcome


def test_the_harsh_odds_agree_with_a_seeded_monte_carlo_run():
    housed = _harsh()
    check = housed.check("aftermath")
    params = {"wounds": 3, "care": "prompt"}
    runs = 6000
    dice = SeededDice("harsh-aftermath", "monte-carlo")
    counts: dict[str, int] = {}
    for _ in range(runs):
        outcome = check.resolve(params, dice).outcome
        counts[outcome] = counts.get(outcome, 0) + 1
        dice.rolls.clear()

    # Outcomes expected fewer than 30 times are judged together: one stray death is no signal.
    odds = check.odds(params).probabilities
    common = [o for o, chance in odds.items() if chance * runs >= 30]
    rare = 1 - sum(odds[o] for o in common)
    for outcome, chance in [*((o, odds[o]) for o in common), ("rare", rare)]:
        seen = (
            counts.get(outcome, 0)
            if outcome != "rare"
            else runs - sum(counts.get(o, 0) for o in common)
        )
        sigma = math.sqrt(chance * (1 - chance) / runs)
        assert abs(seen / runs - chance) <= 4 * sigma + 1e-9, outcome


def test_given_dice_are_read_on_the_pack_bands_in_the_same_order():
    # 3 is now permanent; under prompt care it is rerolled (a 5 heals); sepsis 1 -> two dice.
    housed = _harsh()

    plain = housed.check("aftermath").resolve({"wounds": 2}, GivenDice([3, 1, 5, 2]))
    cared = housed.check("aftermath").resolve({"wounds": 1, "care": "prompt"}, GivenDice([3, 5]))
    as_written = RENCOUNTER.check("aftermath").resolve({"wounds": 1}, GivenDice([3]))

    assert (plain.outcome, plain.details) == (
        "permanent_2",
        {"permanent": 2, "healed": 1, "sepsis": 1},
    )
    assert [r.value for r in plain.dice] == [3, 1, 5, 2]
    assert cared.outcome == "permanent_0"
    assert [r.label for r in cared.dice] == [
        "wound point 1",
        "wound point 1 (prompt care reroll)",
    ]
    assert as_written.outcome == "permanent_0"


def test_the_campaign_procedure_reads_the_pack_bands_and_caps():
    document = _template()
    document["tables"]["aftermath"] = HARSH
    _row(document, "improvement", "fire").update(maximum=9)
    housed = RENCOUNTER.with_house(document)
    stats = RENCOUNTER.stats.validate({"experience": 4, "fire": 9, "melee": 6})
    record = FigureRecord("Gridley", stats, wounds=1, skills_used=frozenset({"fire"}))
    dice = {("aftermath", 0): [3], ("improvement", 0): [12]}

    def given(procedure: str, index: int) -> GivenDice:
        return GivenDice(dice[(procedure, index)])

    rolls = housed.post_battle(record, OPTIONS.validate({}), given)
    as_written = RENCOUNTER.post_battle(record, OPTIONS.validate({}), given)

    assert [r.outcome for r in rolls] == ["permanent_1", "unchanged"]
    assert [r.outcome for r in as_written] == ["permanent_0", "improves"]


def test_a_lowered_cap_stops_improvement_but_a_man_past_it_may_still_roll():
    housed = RENCOUNTER.with_house(_edited("improvement", "fire", maximum=10))
    improvement = housed.check("improvement")

    assert improvement.odds({"stat": "fire", "value": 9}).probabilities["improves"] == Fraction(
        3, 12
    )
    assert improvement.odds({"stat": "fire", "value": 10}).probabilities["improves"] == 0
    assert improvement.odds({"stat": "fire", "value": 11}).probabilities["improves"] == 0
    assert RENCOUNTER.check("improvement").odds({"stat": "fire", "value": 10}).probabilities[
        "improves"
    ] == Fraction(2, 12)


# --- the quick-reference sheet and cards ------------------------------------------------------


def _sheet(system: Any, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    options = OPTIONS.validate(options or {})
    return reference.sheet(system.tables(options), options, system.changed_tables())


def test_sections_drawing_on_a_changed_table_are_marked_as_house_rules():
    document = _edited("damage", "dead", up_to=1)
    document["tables"]["aftermath"] = HARSH
    housed = RENCOUNTER.with_house(document)

    marked = {s["title"] for s in _sheet(housed) if s.get("house")}

    assert marked == {"Damage (d12 + weapon's damage modifier)", "After the battle"}
    assert not any(s.get("house") for s in _sheet(RENCOUNTER))
    assert not any(s.get("house") for s in _sheet(RENCOUNTER.with_house(_template())))


def test_the_sheet_prints_the_pack_tables():
    document = _edited("damage", "dead", up_to=1)
    document["tables"]["aftermath"] = HARSH
    _row(document, "shields", "large").update(modifier=-3)
    sheet = {s["title"]: s for s in _sheet(RENCOUNTER.with_house(document), {"prompt_care": True})}

    damage = sheet["Damage (d12 + weapon's damage modifier)"]["items"][0]["table"]["rows"]
    after = sheet["After the battle"]["items"][0]["table"]
    shields = [i["table"] for i in sheet["Weapons"]["items"] if "table" in i][-1]

    assert damage[:2] == [["1 or less", "Dead"], ["2\u20134", "Crippling wound (3 points)"]]
    assert after["rows"] == [
        ["1", "Sepsis: roll two dice for this point"],
        ["2\u20133", "Permanent"],
        ["4\u20136", "Heals"],
    ]
    assert "prompt care rerolls each 1, 2 or 3 once" in after["caption"]
    assert ["Large shield", "\u22123"] in shields["rows"]
    assert sheet["Weapons"]["house"] is True


def test_cards_read_an_edited_weapon_profile():
    housed = RENCOUNTER.with_house(_edited("missile_weapons", "long_bow", long=40, damage=-1))
    options = OPTIONS.validate({})

    profile = dict(reference.weapon_profile("long_bow", housed.tables(options)) or ())
    as_written = dict(reference.weapon_profile("long_bow", RENCOUNTER.tables(options)) or ())

    assert profile['Range "'] == "12/24/40/60"
    assert profile["Dmg"] == "\u22121"
    assert as_written['Range "'] == "12/24/36/60"


# --- the CLI --------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_template_edited_gives_the_new_fire_odds(capsys, tmp_path):
    code, out, _ = _run(capsys, "house-template", "rencounter")
    document = json.loads(out)
    _row(document, "missile_weapons", "matchlock_musket")["damage"] = -3
    pack_file = tmp_path / "club.json"
    pack_file.write_text(json.dumps(document))
    fire = ("odds", "rencounter", "fire", "skill=7", "weapon=matchlock_musket", "range=medium")

    _, plain, _ = _run(capsys, *fire)
    code_house, housed, err = _run(capsys, *fire, "--house", str(pack_file))

    assert (code, code_house, err) == (0, 0, "")
    expected = (
        RENCOUNTER.with_house(document)
        .check("fire")
        .odds({"skill": 7, "weapon": "matchlock_musket", "range": "medium"})
    )
    assert json.loads(housed)["outcomes"] == expected.as_floats()
    assert json.loads(housed)["outcomes"] != json.loads(plain)["outcomes"]


def test_the_cli_refuses_a_bad_pack_with_one_line_naming_its_place(capsys, tmp_path):
    code, out, _ = _run(capsys, "house-template", "rencounter")
    document = json.loads(out)
    document["tables"]["damage"][2]["up_to"] = 3  # serious below crippling's 4
    pack_file = tmp_path / "club.json"
    pack_file.write_text(json.dumps(document))

    code, out, err = _run(
        capsys, "odds", "rencounter", "fire", "skill=7", "--house", str(pack_file)
    )

    assert (code, out) == (2, "")
    assert err.startswith("error: table damage, row 3, column up_to: must be more than 4")
    assert err.count("\n") == 1


# --- the sheet's modifier lists: the rows naming a rule are the checks' numbers ---------------


def _with_rule(document: dict[str, Any], table: str, rule: str, modifier: int) -> dict[str, Any]:
    row = next(row for row in document["tables"][table] if row["rule"] == rule)
    row["modifier"] = modifier
    return document


def _melee(system: Any, **params: Any) -> dict[str, Fraction]:
    check = system.check("melee")
    given = {"attack_skill": 7, "parry_skill": 7, **params}
    return dict(check.odds(check.params.validate(given)).probabilities)


def test_a_clubs_gang_up_of_two_gives_three_on_one_the_clubs_odds():
    # Melee 7 against 7, three attackers; the club's sheet: +2 to the attack and -2 to the
    # parry per attacker after the first. By hand: attack on 11 or less, parry on 3 or less:
    # 11/12 * (1 - 3/12) = 11/16 (the text's +1/-1 gives 7/16).
    document = _with_rule(_template(), "melee_modifiers", "gang_up_attack", 2)
    document = _with_rule(document, "melee_modifiers", "gang_up_parry", -2)
    housed = RENCOUNTER.with_house(document)

    assert _melee(housed, attackers=3)["hit"] == Fraction(11, 16)
    assert _melee(RENCOUNTER, attackers=3)["hit"] == Fraction(7, 16)
    assert _melee(housed, attackers=3, defender_master=True) == _melee(
        RENCOUNTER, attackers=3, defender_master=True
    )


def test_a_clubs_armour_modifier_reaches_the_stroke_and_the_riposte():
    housed = RENCOUNTER.with_house(_with_rule(_template(), "melee_modifiers", "armour", -2))

    # Attack 7, parry 7, armour 2 at -2 a point: the stroke needs 3 or less.
    assert _melee(housed, defender_armour=2)["hit"] == Fraction(3, 12) * Fraction(5, 12)
    assert _melee(RENCOUNTER, defender_armour=2)["hit"] == Fraction(5, 12) * Fraction(5, 12)
    riposte = {"riposte": True, "attacker_armour": 1}
    assert _melee(housed, **riposte)["riposte"] < _melee(RENCOUNTER, **riposte)["riposte"]


def test_a_clubs_extra_shot_penalty_reaches_every_shot_after_the_first():
    housed = RENCOUNTER.with_house(_with_rule(_template(), "fire_modifiers", "extra_shot", -3))
    params = {"skill": 7, "weapon": "magazine_rifle", "shots": 2}

    plan_house = housed.check("fire")
    seeded_house = plan_house.resolve(
        plan_house.params.validate(params), SeededDice("shots", "fire")
    ).details["shots"]
    seeded_text = (
        RENCOUNTER.check("fire")
        .resolve(RENCOUNTER.check("fire").params.validate(params), SeededDice("shots", "fire"))
        .details["shots"]
    )

    assert [shot["need"] for shot in seeded_house] == [7, 4]
    assert [shot["need"] for shot in seeded_text] == [7, 6]
    assert _fire(housed, weapon="magazine_rifle", shots=2) != _fire(
        RENCOUNTER, weapon="magazine_rifle", shots=2
    )


def test_the_shields_table_is_the_one_source_of_a_shields_melee_modifier():
    housed = RENCOUNTER.with_house(_edited("shields", "large", modifier=-4))
    sheet = {s["title"]: s for s in _sheet(housed)}
    melee_rows = sheet["Melee (d12 against d12)"]["items"][1]["table"]["rows"]

    # Attack 7 against a large shield at -4: the stroke needs 3 or less.
    assert _melee(housed, defender_shield="large")["hit"] == Fraction(3, 12) * Fraction(5, 12)
    assert ["Against large shield", "\u22124", reference.BY_THE_CHECK] in melee_rows
    situations = [r["situation"] for r in house.template(RENCOUNTER)["tables"]["melee_modifiers"]]
    assert not any(situation.startswith("Against") for situation in situations)
    assert sheet["Melee (d12 against d12)"]["house"] is True


def test_the_sheet_says_which_modifiers_the_check_applies_and_which_the_player_adds():
    sheet = {s["title"]: s for s in _sheet(RENCOUNTER)}
    fire = next(
        i["table"]
        for i in sheet["Fire (d12)"]["items"]
        if "table" in i and i["table"]["caption"] == "Other fire modifiers"
    )

    assert fire["header"] == ["Situation", "To hit", "Applied by"]
    assert [
        "Each shot after the first in a turn (cumulative)",
        "\u22121",
        reference.BY_THE_CHECK,
    ] in fire["rows"]
    assert ["Aimed one turn", "+2", reference.BY_THE_PLAYER] in fire["rows"]


def test_a_pack_from_before_the_rows_named_their_rules_keeps_the_texts_numbers():
    document = _template()
    for table in ("fire_modifiers", "melee_modifiers"):
        for row in document["tables"][table]:
            del row["rule"]
            row["modifier"] = 5
    housed = RENCOUNTER.with_house(document)

    assert _melee(housed, attackers=3, defender_armour=2) == _melee(
        RENCOUNTER, attackers=3, defender_armour=2
    )
    assert _fire(housed, weapon="magazine_rifle", shots=2) == _fire(
        RENCOUNTER, weapon="magazine_rifle", shots=2
    )


def test_a_rule_named_by_two_rows_is_refused_naming_the_second():
    document = _template()
    document["tables"]["fire_modifiers"][0]["rule"] = "extra_shot"

    with pytest.raises(PackError) as caught:
        house.load(RENCOUNTER, document)

    assert str(caught.value).startswith("table fire_modifiers, row 10, column rule: ")


def test_the_cli_tables_and_odds_print_the_clubs_gang_up(capsys, tmp_path):
    document = _with_rule(_template(), "melee_modifiers", "gang_up_attack", 2)
    document = _with_rule(document, "melee_modifiers", "gang_up_parry", -2)
    pack_file = tmp_path / "pack.json"
    pack_file.write_text(json.dumps(document))

    code, out, _ = _run(
        capsys,
        "odds",
        "rencounter",
        "melee",
        "attack_skill=7",
        "parry_skill=7",
        "attackers=3",
        "--house",
        str(pack_file),
    )
    tables = json.loads(_run(capsys, "tables", "rencounter", "--house", str(pack_file))[1])

    assert code == 0
    assert json.loads(out)["exact"]["hit"] == "11/16"
    assert ["Each active attacker after the first: attackers", 2, "gang_up_attack"] in tables[
        "tables"
    ]["melee_modifiers"]
