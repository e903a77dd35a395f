"""Escarmouche under a club's house rules: edited tables reach the checks that read them, and
only those; added weapon classes resolve with exact odds; a bad pack is refused in one line."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest

from rules import house
from rules.campaign import FigureRecord
from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.house import PackError
from rules.simulate import SimFigure
from rules.system import get_system
from rules.systems.escarmouche import reference
from rules.systems.escarmouche import tables as t

SYSTEM = get_system("escarmouche")
ARQUEBUS = {"key": "arquebus", "label": "Arquebus", "passive": 2}


def template() -> dict[str, Any]:
    return copy.deepcopy(house.template(SYSTEM))


def row(document: dict[str, Any], table: str, key: str) -> dict[str, Any]:
    return next(r for r in document["tables"][table] if r["key"] == key)


def with_musket_at(passive: int) -> dict[str, Any]:
    document = template()
    row(document, "weapons", "musket")["passive"] = passive
    return document


def with_arquebus() -> dict[str, Any]:
    document = template()
    document["tables"]["weapons"].append(dict(ARQUEBUS))
    return document


def odds(system: Any, check: str, params: dict[str, Any]) -> dict[str, Fraction]:
    return dict(system.check(check).odds(params).probabilities)


def seeded(system: Any, check: str, params: dict[str, Any]) -> str:
    resolution = system.check(check).resolve(params, SeededDice("house", check))
    return json.dumps(resolution.as_json(), sort_keys=True, default=str)


# --- one weapon class edited ------------------------------------------------------------------

#: Every check's default parameters, and each shot and volley with each weapon, led by skill.
WEAPON_KEYS = ("thrown", "short_bow", "carbine", "musket", "cannon")
PROBED = [
    *((name, {}) for name in SYSTEM.checks),
    *(("shoot", {"weapon": weapon, "skill": 3}) for weapon in WEAPON_KEYS),
    *(("volley", {"weapon": weapon, "leader": 3}) for weapon in WEAPON_KEYS),
]


def test_a_lighter_musket_changes_only_the_shots_fired_with_a_musket():
    housed = SYSTEM.with_house(with_musket_at(1))

    changed = {
        (name, params.get("weapon"))
        for name, params in PROBED
        if odds(housed, name, params) != odds(SYSTEM, name, params)
        or seeded(housed, name, params) != seeded(SYSTEM, name, params)
    }

    assert changed == {("shoot", "musket"), ("volley", "musket")}


def test_a_lighter_musket_turns_no_more_shooter_skill_into_active_dice_than_it_has():
    housed = SYSTEM.with_house(with_musket_at(1))
    musket = {"weapon": "musket", "skill": 3}

    # One passive die left for the Shooter skill to turn: the thrown weapon's shot exactly.
    assert odds(housed, "shoot", musket) == odds(SYSTEM, "shoot", {"weapon": "thrown", "skill": 3})
    roll = housed.check("shoot").resolve(musket, SeededDice("house", "musket")).details["roll"]
    assert (len(roll["active"]), len(roll["passive"])) == (2, 0)


def test_only_the_weapon_choices_and_the_figures_weapons_change_in_the_schemas():
    housed = SYSTEM.with_house(with_musket_at(1))

    differ = {
        name
        for name, check in SYSTEM.checks.items()
        if housed.check(name).params.as_json() != check.params.as_json()
    }
    fields = {
        spec.name
        for spec, was in zip(housed.stats.fields, SYSTEM.stats.fields, strict=True)
        if spec != was
    }

    assert differ == {"shoot", "volley"}
    assert fields == {"weapons"}
    assert dict(housed.check("shoot").params["weapon"].choices)["musket"].endswith("(1)")


def test_the_weapon_edit_is_compared_by_the_shots_it_changes():
    pack = house.load(SYSTEM, with_musket_at(1))

    comparisons = house.compare(SYSTEM, None, pack)

    assert [c.probe.params["weapon"] for c in comparisons] == ["musket", "musket"]
    shooter_three = next(c for c in comparisons if c.probe.params["skill"] == 3)
    assert shooter_three.before != shooter_three.after
    assert "Musket" in shooter_three.probe.label


# --- an added weapon class ------------------------------------------------------------------


def test_an_added_weapon_class_is_a_choice_and_shoots_with_exact_odds():
    housed = SYSTEM.with_house(with_arquebus())
    shot = {"weapon": "arquebus", "skill": 3, "rating": 4, "target_rating": 3}

    result = housed.check("shoot").odds(shot)

    assert result.exact and sum(result.probabilities.values()) == 1
    assert all(isinstance(p, Fraction) for p in result.probabilities.values())
    # Two passive dice, as a short bow: the same pool, so the same odds.
    assert dict(result.probabilities) == odds(SYSTEM, "shoot", {**shot, "weapon": "short_bow"})
    assert housed.check("volley").params["weapon"].choice_values()[-1] == "arquebus"


def test_an_added_weapon_class_resolves_with_its_passive_dice():
    housed = SYSTEM.with_house(with_arquebus())

    resolution = housed.check("shoot").resolve(
        {"weapon": "arquebus", "target_rating": 1}, GivenDice([5, 1, 4, 2])
    )

    assert resolution.details["roll"]["passive"] == [1, 4]
    assert (resolution.outcome, resolution.details["initiative"]) == (
        "multiple_hits",
        "figure_ends",
    )


def test_the_rules_as_written_still_refuse_the_clubs_weapon():
    SYSTEM.with_house(with_arquebus())

    with pytest.raises(ValidationError, match="weapon"):
        SYSTEM.check("shoot").odds({"weapon": "arquebus"})
    with pytest.raises(ValidationError, match="weapons"):
        SYSTEM.stats.validate({"weapons": ["arquebus"]})


def test_a_figure_carrying_the_added_class_fights_a_simulated_battle():
    housed = SYSTEM.with_house(with_arquebus())
    stats = {"rating": 3, "weapons": ["arquebus"], "shooter": 1}
    sides = [
        [SimFigure(f"a{i}", f"Arquebusier {i}", stats) for i in range(2)],
        [SimFigure("s", "Sergeant", {"rating": 3, "fighter": 2})],
    ]

    result = housed.simulate(sides, {}, SeededDice("house", "battle"))

    shots = [e for e in result.events if e.resolution.check == "shoot"]
    assert shots and all(e.resolution.params["weapon"] == "arquebus" for e in shots)
    assert result.winner is not None


def test_the_artillery_check_needs_the_cannon_class():
    document = template()
    document["tables"]["weapons"] = [
        r for r in document["tables"]["weapons"] if r["key"] != t.CANNON
    ]

    with pytest.raises(PackError, match="must keep the 'cannon' row") as caught:
        house.load(SYSTEM, document)

    assert caught.value.table == "weapons"


# --- terrain, melee weapons, effects bands, improvement ------------------------------------


def test_added_terrain_is_a_choice_of_the_move_and_the_marshal():
    document = template()
    document["tables"]["terrain"].append({"key": "ice", "label": "Frozen river", "passive": 6})
    housed = SYSTEM.with_house(document)

    move = housed.check("move").resolve({"terrain": "ice"}, SeededDice("house", "ice"))

    assert len(move.details["roll"]["passive"]) == 6
    assert housed.check("marshal").params["terrain"].choice_values()[-1] == "ice"
    assert house.compare(SYSTEM, None, house.load(SYSTEM, document))[0].before is None


def test_a_clubs_melee_weapon_may_fight_as_a_pike_or_leave_a_figure_weaponless():
    document = template()
    document["tables"]["melee_weapons"] += [
        {"key": "halberd", "label": "Halberd", "pike": True, "weaponless": False},
        {"key": "bare", "label": "Bare fists", "pike": False, "weaponless": True},
    ]
    housed = SYSTEM.with_house(document)
    tables = housed.tables({})

    assert housed.label_text("Hans", {"rating": 3, "melee": "halberd"})[-1] == "Halberd"
    assert housed.initial_state(housed.stats.validate({"melee": "bare"}))["disarmed"] is True
    assert reference.card_notes({"melee": "halberd"}, tables) == (
        "Halberd: in the first round against cavalry only the pike's win counts.",
    )


def test_a_weaponless_pike_is_refused_naming_its_row():
    document = template()
    row(document, "melee_weapons", "pike")["weaponless"] = True

    with pytest.raises(PackError) as caught:
        house.load(SYSTEM, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == (
        "melee_weapons",
        1,
        "weaponless",
    )


def test_a_wider_cowered_band_puts_the_first_hit_at_three():
    document = template()
    row(document, "shooting_effects", "hit")["diff"] = 3
    row(document, "shooting_effects", "multiple_hits")["diff"] = 4
    housed = SYSTEM.with_house(document)

    effects = housed.snapshot.SHOOTING_EFFECTS
    bands = [(effects.row(d).key, effects.hits(d)) for d in range(6)]
    shot = housed.check("shoot").resolve(
        {"weapon": "thrown", "target_rating": 1}, GivenDice([5, 4, 2])
    )

    assert bands == [
        ("shaken", 0),
        ("cowered", 0),
        ("cowered", 0),
        ("hit", 1),
        ("multiple_hits", 2),
        ("multiple_hits", 3),
    ]
    assert (shot.outcome, shot.details["hits"]) == ("hit", 1)
    assert [r["diff"] for r in housed.tables({})["shooting_effects"]] == ["0", "1-2", "3", "4+"]


def _effects(resolution: Any) -> list[tuple[str, str, Any]]:
    return [(e.who, e.key, e.value) for e in resolution.effects]


def test_a_tie_won_on_rating_gives_the_first_bands_effects_as_the_club_sets_them():
    document = template()
    row(document, "shooting_effects", "shaken").update(shaken=False, disarmed=True, hits=1)
    housed = SYSTEM.with_house(document)
    # The thrown weapon's 2 against the target's 2: a tie the shooter's rating 3 wins over 1.
    tie = {"weapon": "thrown", "target_rating": 1}

    written = SYSTEM.check("shoot").resolve(tie, GivenDice([2, 4, 2]))
    club = housed.check("shoot").resolve(tie, GivenDice([2, 4, 2]))

    assert (written.outcome, club.outcome) == ("shaken", "shaken")
    assert _effects(written) == [("target", "shaken", 1)]
    assert _effects(club) == [("target", "wounds", -1), ("target", "disarmed", True)]


def test_the_last_shooting_band_may_send_the_target_prone_and_stop_adding_hits():
    document = template()
    row(document, "shooting_effects", "multiple_hits").update(prone=True, more_hits=False)
    housed = SYSTEM.with_house(document)
    # 5 against 1: won by 4, one point above the band's start at 3.
    shot = {"weapon": "thrown", "target_rating": 1}

    written = SYSTEM.check("shoot").resolve(shot, GivenDice([5, 4, 1]))
    club = housed.check("shoot").resolve(shot, GivenDice([5, 4, 1]))

    assert (written.details["hits"], club.details["hits"]) == (3, 2)
    assert ("target", "prone", True) in _effects(club)
    assert ("target", "cover", True) in _effects(club)
    assert ("target", "prone", True) not in _effects(written)


def test_a_fighting_band_may_disarm_and_spare_the_loser_its_shaken_marker():
    document = template()
    row(document, "fighting_effects", "shaken").update(shaken=False, disarmed=True)
    housed = SYSTEM.with_house(document)

    # Attacker 4 against defender 3: won by one.
    fight = housed.check("fight").resolve({}, GivenDice([4, 3, 1, 1]))

    assert fight.outcome == "defender_shaken"
    assert _effects(fight) == [("target", "disarmed", True)]
    assert _effects(SYSTEM.check("fight").resolve({}, GivenDice([4, 3, 1, 1]))) == [
        ("target", "shaken", 1)
    ]


@pytest.mark.parametrize(("table", "index"), [("shooting_effects", 2), ("fighting_effects", 0)])
def test_more_hits_on_a_band_one_difference_wide_is_refused(table, index):
    document = template()
    document["tables"][table][index]["more_hits"] = True

    with pytest.raises(PackError, match="one difference wide") as caught:
        house.load(SYSTEM, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == (
        table,
        index,
        "more_hits",
    )


def test_more_hits_counts_once_the_band_is_wider_than_one_difference():
    document = template()
    row(document, "shooting_effects", "hit")["more_hits"] = True
    row(document, "shooting_effects", "multiple_hits")["diff"] = 4
    housed = SYSTEM.with_house(document)

    # 5 against 2: won by 3, one point above the hit band's start at 2.
    shot = housed.check("shoot").resolve(
        {"weapon": "thrown", "target_rating": 1}, GivenDice([5, 4, 2])
    )

    assert (shot.outcome, shot.details["hits"]) == ("hit", 2)


def _fought_checks(system: Any, melee: str) -> set[str]:
    pikeman = SimFigure("p", "Pikeman", {"rating": 3, "pike_trailer": 1, "melee": melee})
    horseman = SimFigure("h", "Horseman", {"rating": 3, "rider": 1, "mounted": True})
    checks: set[str] = set()
    for seed in range(6):
        result = system.simulate([[pikeman], [horseman]], {}, SeededDice(f"pike-{seed}"))
        checks |= {event.resolution.check for event in result.events}
    return checks


def test_the_auto_resolver_fights_as_a_pike_only_with_a_weapon_the_club_calls_a_pike():
    document = template()
    row(document, "melee_weapons", "pike")["pike"] = False
    housed = SYSTEM.with_house(document)

    assert "pike_vs_cavalry" in _fought_checks(SYSTEM, "pike")
    assert "pike_vs_cavalry" not in _fought_checks(housed, "pike")
    assert "horse_vs_foot" in _fought_checks(housed, "pike")


def test_a_renamed_melee_weapon_is_carried_by_its_new_key_only():
    document = template()
    row(document, "melee_weapons", "pike")["key"] = "long_pike"
    housed = SYSTEM.with_house(document)

    assert housed.stats.validate({"melee": "long_pike"})["melee"] == "long_pike"
    with pytest.raises(ValidationError):
        housed.stats.validate({"melee": "pike"})


def test_the_skill_improvement_die_is_the_clubs():
    document = template()
    row_ = next(r for r in document["tables"]["improvement"] if r["stat"] == "skill")
    row_["die"] = 6
    housed = SYSTEM.with_house(document)
    shooter = FigureRecord(
        name="Jacques",
        stats=housed.stats.validate({"rating": 5, "shooter": 1}),
        skills_used=frozenset({"shooter"}),
    )

    # A 5 is a face of the club's d6 (not of the text's d4), over the skill of 1.
    faces = {0: [1], 1: [5]}  # the rating's roll, then the Shooter skill's
    rolls = housed.post_battle(shooter, {"house_campaign": True}, lambda p, i: GivenDice(faces[i]))

    assert [(r.subject, r.outcome) for r in rolls] == [
        ("improvement: rating (d6 over 5)", "unchanged"),
        ("improvement: shooter (d6 over 1)", "improves"),
    ]


@pytest.mark.parametrize(
    ("table", "index", "diff", "words"),
    [
        ("shooting_effects", 0, 1, "must be 0"),
        ("fighting_effects", 3, 2, "must be more than the row above's 2"),
    ],
)
def test_effects_bands_out_of_order_are_refused_naming_the_cell(table, index, diff, words):
    document = template()
    document["tables"][table][index]["diff"] = diff

    with pytest.raises(PackError, match=words) as caught:
        house.load(SYSTEM, document)

    assert (caught.value.table, caught.value.row, caught.value.column) == (table, index, "diff")


def test_a_fighting_band_without_push_back_leaves_the_loser_standing():
    document = template()
    row(document, "fighting_effects", "shaken")["pushed_back"] = False
    housed = SYSTEM.with_house(document)

    # Attacker 4 against defender 3: won by one.
    fight = housed.check("fight").resolve({}, GivenDice([4, 3, 1, 1]))

    assert fight.outcome == "defender_shaken"
    assert fight.details["pushed_back"] is None
    assert SYSTEM.check("fight").resolve({}, GivenDice([4, 3, 1, 1])).details["pushed_back"]


def test_a_higher_maximum_rating_reaches_the_stats_the_checks_and_the_improvement_roll():
    document = template()
    rating = next(r for r in document["tables"]["improvement"] if r["stat"] == "rating")
    rating.update(die=8, maximum=6)
    housed = SYSTEM.with_house(document)

    veteran = FigureRecord(name="Jacques", stats=housed.stats.validate({"rating": 5}))
    # A 7 is a face of the club's d8 (not of the text's d6), over the rating of 5.
    rolls = housed.post_battle(veteran, {"house_campaign": True}, lambda p, i: GivenDice([7]))

    assert housed.stats.validate({"rating": 6})["rating"] == 6
    assert housed.check("opposed").odds({"rating": 6, "defender_rating": 6}).exact
    assert [(r.subject, r.outcome) for r in rolls] == [
        ("improvement: rating (d8 over 5)", "improves")
    ]
    assert rolls[0].changes[0].after == 6
    with pytest.raises(ValidationError):
        SYSTEM.stats.validate({"rating": 6})


def test_a_maximum_outside_the_stats_range_is_refused():
    document = template()
    document["tables"]["improvement"][1]["maximum"] = 7

    with pytest.raises(PackError, match="must be 1 to 6 for the skill") as caught:
        house.load(SYSTEM, document)

    assert (caught.value.row, caught.value.column) == (1, "maximum")


# --- the quick-reference sheet ----------------------------------------------------------------


def test_the_sheet_marks_the_sections_whose_tables_the_pack_changed():
    housed = SYSTEM.with_house(with_musket_at(1))

    sections = reference.sheet(housed.tables({}), {}, housed.changed_tables())
    plain = reference.sheet(SYSTEM.tables({}), {})

    assert [s["title"] for s in sections if s.get("house")] == ["Shooting"]
    assert not any(s.get("house") for s in plain)
    weapons = next(s for s in sections if s["title"] == "Shooting")["items"][0]["table"]
    assert ["Musket, heavy crossbow", "+1"] in weapons["rows"]


# --- the CLI ----------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_edited_template_from_the_cli_changes_the_odds_it_prices(capsys, tmp_path):
    code, out, _ = run(capsys, "house-template", "escarmouche")
    document = json.loads(out)
    row(document, "weapons", "musket")["passive"] = 1
    pack = tmp_path / "musket.json"
    pack.write_text(json.dumps(document))
    shot = ("odds", "escarmouche", "shoot", "weapon=musket", "skill=3")

    _, plain, _ = run(capsys, *shot)
    code_house, housed, _ = run(capsys, *shot, "--house", str(pack))
    _, thrown, _ = run(capsys, "odds", "escarmouche", "shoot", "weapon=thrown", "skill=3")

    assert code == code_house == 0
    assert json.loads(housed)["exact"] != json.loads(plain)["exact"]
    assert json.loads(housed)["exact"] == json.loads(thrown)["exact"]


def test_an_added_class_is_rolled_from_the_cli(capsys, tmp_path):
    pack = tmp_path / "arquebus.json"
    pack.write_text(json.dumps(with_arquebus()))

    code, out, _ = run(
        capsys,
        "roll",
        "escarmouche",
        "shoot",
        "weapon=arquebus",
        "--seed",
        "s",
        "--house",
        str(pack),
    )

    assert code == 0
    assert len(json.loads(out)["details"]["roll"]["passive"]) == 2


def test_a_bad_cell_is_one_stderr_line_naming_table_row_and_column_and_exit_two(capsys, tmp_path):
    document = template()
    row(document, "weapons", "musket")["passive"] = 11
    pack = tmp_path / "bad.json"
    pack.write_text(json.dumps(document))

    code, out, err = run(capsys, "odds", "escarmouche", "shoot", "--house", str(pack))

    assert (code, out) == (2, "")
    assert err == "error: table weapons, row 4, column passive: must be at most 10, not 11\n"
