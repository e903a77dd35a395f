"""d12 skirmish: stats, character generation, label, tables, activation, auto-resolve, CLI."""

import json

import pytest

from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.simulate import SimFigure
from rules.systems.d12_skirmish import SYSTEM
from rules.systems.d12_skirmish.chargen import roll_character
from rules.systems.d12_skirmish.stats import troop_modifier
from rules.systems.d12_skirmish.tables import BASE


@pytest.mark.parametrize(
    ("data", "wounds"),
    [
        ({}, 1),
        ({"officer": True}, 2),
        ({"ability": "campaign_wound"}, 1),
        ({"officer": True, "ability": "campaign_wound"}, 1),
        ({"wounds": 3}, 3),
    ],
)
def test_wounds_default_to_one_officers_two_less_a_campaign_wound(data, wounds):
    assert SYSTEM.stats.validate(data)["wounds"] == wounds


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"weapons": ["pistol", "bayonet"]}, "weapons"),
        ({"weapons": ["sword"], "loading": "repeater"}, "loading"),
        ({"troop": "green"}, "troop"),
        ({"wounds": 4}, "wounds"),
        ({"weapons": ["lance"]}, "weapons"),
    ],
)
def test_invalid_stats_name_the_bad_field(data, field):
    with pytest.raises(ValidationError) as caught:
        SYSTEM.stats.validate(data)

    assert field in caught.value.errors


def test_an_expert_takes_one_less_outside_their_field():
    stats = SYSTEM.stats.validate({"troop": "elite", "expertise": "combat"})

    combat, shooting = (
        troop_modifier(BASE, stats, "combat"),
        troop_modifier(BASE, stats, "shooting"),
    )
    assert (combat, shooting) == (2, 1)


def test_character_generation_reads_the_troop_and_ability_tables():
    stats = roll_character(GivenDice([11, 8, 12]), officer=True)

    assert (stats["troop"], stats["expertise"], stats["ability"]) == (
        "veteran",
        "shooting",
        "campaign_wound",
    )
    assert stats["wounds"] == 1


def test_seeded_character_generation_is_reproducible():
    one = roll_character(SeededDice("club", "gridley"), game="individual")

    assert one == roll_character(SeededDice("club", "gridley"), game="individual")
    assert one["wounds"] in (2, 3)


def test_label_is_short_and_names_troop_wounds_arms_and_ability():
    stats = SYSTEM.stats.validate(
        {
            "troop": "veteran",
            "officer": True,
            "ability": "dead_eye",
            "weapons": ["carbine", "sword"],
            "mount": "cavalry",
        }
    )

    assert SYSTEM.label_text("Capt. Hale", stats) == (
        "Capt. Hale",
        "Veteran Off. W2",
        "Carbine, Sword",
        "Dead Eye",
    )


def test_card_tracks_wounds_sized_by_the_wounds_stat():
    shown = {name for _, names in SYSTEM.card.sections for name in names}

    assert (SYSTEM.card.track, SYSTEM.card.track_size) == ("wounds", "wounds")
    assert shown == set(SYSTEM.stats.names) - {"wounds"}


def test_tables_follow_the_game_and_label_house_rules():
    plain = SYSTEM.tables(SYSTEM.options.validate({}))
    house = SYSTEM.tables(SYSTEM.options.validate({"game": "individual", "house_campaign": True}))

    assert plain["wounds"] == {"figure": 1, "officer": 2}
    assert house["wounds"] == {"every figure": 3}
    assert plain["campaign"] == {"house_rules": False}
    assert house["campaign"]["house_rules"] is True and "house" in house["campaign"]["label"]
    assert plain["misfire"][1] == {"low": 2, "high": 4, "result": "out_of_ammo"}
    json.dumps(house)


def test_prompt_care_and_a_hazardous_aftermath_exclude_each_other():
    with pytest.raises(ValidationError):
        SYSTEM.options.validate({"aftermath_care": "prompt", "aftermath_hazard": 1})


def test_initiative_goes_to_the_higher_d12_and_sides_alternate():
    method = SYSTEM.activation["initiative_alternate"]
    dice = GivenDice([4, 4, 3, 9])  # a tie rolls again; side 2 wins 9 to 3
    state = method.start(["1:Hale", "1:Gridley", "2:Boone"], {}, dice)

    order = []
    for _ in range(3):
        draw = method.draw(state, dice)
        state = draw.state
        order.append(draw.result["unit"])

    assert state["initiative_rolls"] == [[4, 4], [3, 9]]
    assert order == ["2:Boone", "1:Hale", "1:Gridley"]


def skirmishers():
    return [
        [
            SimFigure(f"a{i}", f"Blue {i}", {"troop": "veteran", "loading": "breechloader"})
            for i in range(4)
        ],
        [SimFigure(f"b{i}", f"Grey {i}", {"troop": "raw", "weapons": ["sword"]}) for i in range(4)],
    ]


def test_auto_resolve_is_reproducible_and_ends_when_a_side_is_gone_or_time_runs_out():
    first = SYSTEM.simulate(skirmishers(), {}, SeededDice("battle", "sim"))
    again = SYSTEM.simulate(skirmishers(), {}, SeededDice("battle", "sim"))

    assert [e.resolution.outcome for e in first.events] == [
        e.resolution.outcome for e in again.events
    ]
    assert first.casualties == again.casualties
    side_gone = max(first.casualties) == 4
    assert side_gone or first.turns == 20
    assert any(first.skills_used.values())


def test_cli_shoot_contract_odds(capsys):
    code = main(["odds", "d12_skirmish", "shoot", "troop=elite", "modifier=-2"])

    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["exact"] == {"hit": "7/12", "miss": "1/3", "misfire": "1/12"}


def test_cli_shoot_roll_with_given_dice(capsys):
    code = main(["roll", "d12_skirmish", "shoot", "troop=raw", "--dice", "7"])

    assert code == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "hit"


def test_cli_rejects_too_few_dice_in_one_line(capsys):
    code = main(["roll", "d12_skirmish", "hand_to_hand", "--dice", "7"])

    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "not enough dice" in err
