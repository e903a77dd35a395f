"""Game the 90%: unit stats, label, card, tables, turn sequence, record, auto-resolve, CLI."""

import json

import pytest

from rules.campaign import FigureRecord
from rules.cli import main
from rules.dice import SeededDice
from rules.errors import ValidationError
from rules.simulate import SimFigure
from rules.systems.game_the_90 import SYSTEM


def test_unit_stats_fill_missiles_by_type():
    assert SYSTEM.stats.validate({"type": "bowmen"})["missiles"] == "bows"
    assert SYSTEM.stats.validate({"type": "lights"})["missiles"] == "javelins"
    assert SYSTEM.stats.validate({"type": "knights"})["missiles"] == "none"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "knights", "missiles": "bows"}, "missiles"),
        ({"type": "bowmen", "missiles": "javelins"}, "missiles"),
        ({"type": "serjeants", "out_of_missiles": True}, "out_of_missiles"),
        ({"type": "knights", "hits": 15}, "hits"),
        ({"type": "dragoons"}, "type"),
    ],
)
def test_invalid_unit_stats_name_the_bad_field(data, field):
    with pytest.raises(ValidationError) as caught:
        SYSTEM.stats.validate(data)

    assert field in caught.value.errors


def test_the_system_is_unit_level_with_no_house_rules():
    assert SYSTEM.piece == "unit"
    assert SYSTEM.house_rules is False


def test_label_shows_type_move_class_melee_modifier_and_missiles():
    stats = SYSTEM.stats.validate({"type": "lights"})

    assert SYSTEM.label_text("Kerns", stats) == ("Kerns", "Lights C2 -2", 'Javelins 6"')
    assert SYSTEM.label_text("Milites", SYSTEM.stats.validate({"type": "knights"})) == (
        "Milites",
        "Knights C3 +2",
    )


def test_card_tracks_hits_and_shows_every_stat():
    shown = {name for _, names in SYSTEM.card.sections for name in names}

    assert SYSTEM.card.track == "hits"
    assert shown == set(SYSTEM.stats.names)


def test_initial_state_carries_hits_and_missiles():
    state = SYSTEM.initial_state(SYSTEM.stats.validate({"type": "bowmen", "hits": 11}))

    assert state == {"hits": 11, "passed_ten": True, "out_of_missiles": False, "status": "unhurt"}


def test_tables_show_the_campaigns_die():
    d6 = SYSTEM.tables(SYSTEM.options.validate({}))
    avg = SYSTEM.tables(SYSTEM.options.validate({"die": "avg"}))

    assert d6["die"]["faces"] == [1, 2, 3, 4, 5, 6]
    assert avg["die"]["faces"] == [2, 3, 3, 4, 4, 5]
    assert avg["rally"]["faces_of_this_die"] == {"2": 1, "3": 2, "4": 2, "5": 3}
    json.dumps(avg)


def test_turn_sequence_runs_four_phases_for_a_then_d():
    method = SYSTEM.activation["turn_sequence"]
    dice = SeededDice("s")
    state = method.start(["a:Milites", "d:Kerns", "a:Bowmen"], {}, dice)

    seen = []
    for _ in range(9):
        draw = method.draw(state, dice)
        state = draw.state
        seen.append((draw.result["turn"], draw.result["player"], draw.result["phase"]))

    assert seen[:5] == [
        (1, "A", "shoot"),
        (1, "A", "move"),
        (1, "A", "melee"),
        (1, "A", "rally"),
        (1, "D", "shoot"),
    ]
    assert seen[8] == (2, "A", "shoot")


def test_turn_sequence_needs_two_sides():
    with pytest.raises(ValidationError):
        SYSTEM.activation["turn_sequence"].start(["a:x", "b:y", "c:z"], {}, SeededDice("s"))


def test_post_battle_adds_to_the_units_record_without_dice():
    record = FigureRecord(
        "Milites",
        {"type": "knights"},
        wounds=16,
        status="out",
        career={"battles": 2, "hits_taken": 9, "removed": 0},
    )

    (roll,) = SYSTEM.post_battle(record, {"die": "d6"}, lambda p, i: SeededDice("s", p))

    assert roll.dice == () and not roll.house_rule
    assert roll.outcome == "removed"
    changes = {c.field: (c.before, c.after) for c in roll.changes if c.kind == "career"}
    assert changes == {"battles": (2, 3), "hits_taken": (9, 25), "removed": (0, 1)}
    assert {c.kind for c in roll.changes} <= {"career", "note"}


def armies():
    return [
        [
            SimFigure("k", "Milites", {"type": "knights"}),
            SimFigure("b", "Archers", {"type": "bowmen"}),
        ],
        [
            SimFigure("s", "Serjeants", {"type": "serjeants"}),
            SimFigure("l", "Kerns", {"type": "lights"}),
        ],
    ]


def test_auto_resolve_is_reproducible_and_ends_by_removal_or_turn_limit():
    first = SYSTEM.simulate(armies(), {"die": "avg"}, SeededDice("battle", "sim"))
    again = SYSTEM.simulate(armies(), {"die": "avg"}, SeededDice("battle", "sim"))

    assert [e.resolution.dice for e in first.events] == [e.resolution.dice for e in again.events]
    assert first.turns <= 15
    loser_gone = first.winner is not None and first.casualties[1 - first.winner] == 2
    assert loser_gone or first.turns == 15
    assert all(r.dice[0].die == "avg" for r in (e.resolution for e in first.events))


def test_cli_odds_prints_exact_fractions(capsys):
    code = main(["odds", "game_the_90", "rally", "hits=6", "passed_ten=true"])

    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["exact"]["hits_off_1"] == "1/1"


def test_cli_roll_with_given_dice(capsys):
    code = main(["roll", "game_the_90", "shoot", "shooter=lights", "--dice", "6"])

    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["outcome"] == "hits_4_out_of_missiles"


def test_cli_rejects_a_bad_parameter_in_one_line(capsys):
    code = main(["odds", "game_the_90", "melee", "contact=sideways"])

    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "contact" in err
