"""Standings from results: points, bonuses, adjustments, corrections, tie-breakers, CSV."""

import csv
import io
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.core import (
    Adjustment,
    LeagueSettings,
    Result,
    ResultError,
    SettingsError,
    compute_standings,
    current_results,
    standings_csv,
)

# --- the hand-worked example -----------------------------------------------------------------
#
# Six players, three rounds; win 3, draw 1, loss 0; +1 bonus for a major victory; tie-breakers in
# the default order (head to head, VP difference, strength of schedule, fewest figures lost).
#
#   round  home v away   VP     figures lost   result
#   1      ann  v ben    10-4   1-5            ann wins, a major victory (+1 bonus)
#   1      cat  v dan     6-6   3-3            draw
#   1      eve  v fay     8-5   2-4            eve wins
#   2      ann  v cat     5-5   2-2            draw
#   2      ben  v eve     9-3   1-4            ben wins
#   2      dan  v fay     6-7   4-1            first entered as fay's win ...
#   2      dan  v fay     7-6   2-3            ... corrected: dan won 7-6 (this one counts)
#   3      ben  v cat     4-7   4-1            cat wins
#   3      ann  v fay     2-6   4-2            fay wins
#   3      dan  v eve     8-3   1-5            dan wins
#
#   adjustments: ben +2 "painted force", dan -1 "late army list"
#
#   player  W D L  result bonus adj  points  VP for-against diff  SoS            figures
#   dan     2 1 0    7     0    -1     6       21 - 15     +6   cat+fay+eve=11     6
#   cat     1 2 0    5     0     0     5       18 - 15     +3   dan+ann+ben=16     6
#   ann     1 1 1    4     1     0     5       17 - 15     +2   ben+cat+fay=13     7
#   ben     1 0 2    3     0    +2     5       17 - 20     -3   ann+eve+cat=13    10
#   eve     1 0 2    3     0     0     3       14 - 22     -8   fay+ben+dan=14    11
#   fay     1 0 2    3     0     0     3       17 - 17      0   eve+dan+ann=14     9
#
# Ordering:
#   dan is alone on 6 points.
#   cat, ann and ben share 5 points and have all met: head-to-head mini-league among the three
#     (ann beat ben 3, ann drew cat 1 each, cat beat ben 3): ann 4, cat 4, ben 0 -> ben third of
#     the three, placed by head to head. Recomputed between ann and cat alone: they drew, 1-1, so
#     head to head cannot split them; VP difference does: cat +3 above ann +2.
#   eve and fay share 3 points; eve beat fay in round 1 -> head to head puts eve above fay.
#
#   rank  player  placed below the row above by
#   1     dan     -
#   2     cat     points
#   3     ann     vp_difference
#   4     ben     head_to_head
#   5     eve     points
#   6     fay     head_to_head

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
HAND_WORKED = LeagueSettings(major_victory_bonus=1)
RESULTS = [
    Result(
        1,
        "ann",
        "ben",
        winner="ann",
        home_vp=10,
        away_vp=4,
        home_figures_lost=1,
        away_figures_lost=5,
        major_victory=True,
    ),
    Result(1, "cat", "dan", home_vp=6, away_vp=6, home_figures_lost=3, away_figures_lost=3),
    Result(
        1,
        "eve",
        "fay",
        winner="eve",
        home_vp=8,
        away_vp=5,
        home_figures_lost=2,
        away_figures_lost=4,
    ),
    Result(2, "ann", "cat", home_vp=5, away_vp=5, home_figures_lost=2, away_figures_lost=2),
    Result(
        2,
        "ben",
        "eve",
        winner="ben",
        home_vp=9,
        away_vp=3,
        home_figures_lost=1,
        away_figures_lost=4,
    ),
    Result(
        2,
        "dan",
        "fay",
        winner="fay",
        home_vp=6,
        away_vp=7,
        home_figures_lost=4,
        away_figures_lost=1,
    ),
    Result(
        3,
        "ben",
        "cat",
        winner="cat",
        home_vp=4,
        away_vp=7,
        home_figures_lost=4,
        away_figures_lost=1,
    ),
    Result(
        3,
        "ann",
        "fay",
        winner="fay",
        home_vp=2,
        away_vp=6,
        home_figures_lost=4,
        away_figures_lost=2,
    ),
    Result(
        3,
        "dan",
        "eve",
        winner="dan",
        home_vp=8,
        away_vp=3,
        home_figures_lost=1,
        away_figures_lost=5,
    ),
    # The correction of round 2's dan v fay, recorded after the rest.
    Result(
        2,
        "dan",
        "fay",
        winner="dan",
        home_vp=7,
        away_vp=6,
        home_figures_lost=2,
        away_figures_lost=3,
    ),
]
ADJUSTMENTS = [Adjustment("ben", 2, "painted force"), Adjustment("dan", -1, "late army list")]


def _hand_worked_table():
    return compute_standings(PLAYERS, RESULTS, HAND_WORKED, ADJUSTMENTS)


def test_the_hand_worked_table_orders_players_and_says_what_separated_them():
    table = _hand_worked_table()

    assert [(r.rank, r.player, r.separated_by) for r in table] == [
        (1, "dan", None),
        (2, "cat", "points"),
        (3, "ann", "vp_difference"),
        (4, "ben", "head_to_head"),
        (5, "eve", "points"),
        (6, "fay", "head_to_head"),
    ]


def test_the_hand_worked_table_has_every_column_as_worked_out():
    table = {row.player: row for row in _hand_worked_table()}

    columns = {
        p: (
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.result_points,
            r.bonus_points,
            r.adjustment_points,
            r.points,
            r.vp_for,
            r.vp_against,
            r.vp_difference,
            r.strength_of_schedule,
            r.figures_lost,
        )
        for p, r in table.items()
    }
    assert columns == {
        "dan": (3, 2, 1, 0, 7, 0, -1, 6, 21, 15, 6, 11, 6),
        "cat": (3, 1, 2, 0, 5, 0, 0, 5, 18, 15, 3, 16, 6),
        "ann": (3, 1, 1, 1, 4, 1, 0, 5, 17, 15, 2, 13, 7),
        "ben": (3, 1, 0, 2, 3, 0, 2, 5, 17, 20, -3, 13, 10),
        "eve": (3, 1, 0, 2, 3, 0, 0, 3, 14, 22, -8, 14, 11),
        "fay": (3, 1, 0, 2, 3, 0, 0, 3, 17, 17, 0, 14, 9),
    }


def test_the_hand_worked_table_carries_each_adjustment_with_its_reason():
    table = {row.player: row for row in _hand_worked_table()}

    assert table["ben"].adjustments == (Adjustment("ben", 2, "painted force"),)
    assert table["dan"].adjustments == (Adjustment("dan", -1, "late army list"),)
    assert table["ann"].adjustments == ()


def test_without_the_correction_the_first_entry_for_dan_v_fay_would_count():
    uncorrected = compute_standings(PLAYERS, RESULTS[:-1], HAND_WORKED, ADJUSTMENTS)

    table = {row.player: row for row in uncorrected}
    assert (table["dan"].points, table["fay"].points) == (3, 6)


def test_a_correction_replaces_the_result_for_the_same_pairing():
    kept = current_results(RESULTS)

    dan_v_fay = [r for r in kept if set(r.players) == {"dan", "fay"}]
    assert len(kept) == 9 and dan_v_fay == [RESULTS[-1]]


def test_a_correction_named_by_pairing_id_may_even_fix_who_played():
    wrong = Result(1, "ann", "ben", winner="ann", pairing_id=17)
    fixed = Result(1, "ann", "cat", winner="cat", pairing_id=17)

    assert current_results([wrong, fixed]) == (fixed,)


# --- each tie-breaker on its own -------------------------------------------------------------


def _table(results, tie_breakers, players=("a", "b", "c", "d"), **scoring):
    league = LeagueSettings(tie_breakers=tie_breakers, **scoring)
    return compute_standings(list(players), results, league)


def _order(table):
    return [(row.rank, row.player, row.separated_by) for row in table]


def test_head_to_head_puts_the_winner_of_the_tied_players_game_first():
    # a beat b, b beat c, c drew d: a and b level on 3 (a won their game), c and d level on 1
    # (their game was a draw, so head to head cannot split them).
    results = [
        Result(1, "a", "b", winner="a"),
        Result(2, "b", "c", winner="b"),
        Result(2, "c", "d"),
    ]

    table = _table(results, ("head_to_head",))

    assert _order(table) == [
        (1, "a", None),
        (2, "b", "head_to_head"),
        (3, "c", "points"),
        (3, "d", None),
    ]


def test_head_to_head_is_skipped_when_not_every_tied_player_has_met():
    # a, b and c all on 3 points; a beat b, but c has met neither -> no fair mini-league.
    results = [
        Result(1, "a", "b", winner="a"),
        Result(1, "c", "d", winner="c"),
        Result(2, "b", "d", winner="b"),
    ]

    table = _table(results, ("head_to_head",))

    assert _order(table)[:3] == [(1, "a", None), (1, "b", None), (1, "c", None)]


def test_vp_difference_puts_the_bigger_margin_first():
    results = [
        Result(1, "a", "c", winner="a", home_vp=5, away_vp=4),
        Result(1, "b", "d", winner="b", home_vp=9, away_vp=2),
    ]

    table = _table(results, ("vp_difference",))

    assert _order(table)[:2] == [(1, "b", None), (2, "a", "vp_difference")]


def test_strength_of_schedule_puts_the_player_with_tougher_opponents_first():
    # a, b and c end on 3 points; d on 0. SoS = points of the opponents each played:
    #   a beat c (3) -> 3;  c lost to a (3), beat d (0) -> 3;  b beat d (0) -> 0.
    results = [
        Result(1, "a", "c", winner="a"),
        Result(1, "b", "d", winner="b"),
        Result(2, "c", "d", winner="c"),
    ]

    table = _table(results, ("strength_of_schedule",))

    assert [row.strength_of_schedule for row in table] == [3, 3, 0, 6]
    assert _order(table) == [
        (1, "a", None),
        (1, "c", None),
        (3, "b", "strength_of_schedule"),
        (4, "d", "points"),
    ]


def test_fewest_figures_lost_puts_the_more_careful_player_first():
    results = [
        Result(1, "a", "c", winner="a", home_figures_lost=4),
        Result(1, "b", "d", winner="b", home_figures_lost=1),
    ]

    table = _table(results, ("fewest_figures_lost",))

    assert _order(table)[:2] == [(1, "b", None), (2, "a", "fewest_figures_lost")]


def test_tie_breakers_apply_in_the_leagues_order():
    # b has the better VP difference, a lost fewer figures.
    results = [
        Result(1, "a", "c", winner="a", home_vp=5, away_vp=4, home_figures_lost=1),
        Result(1, "b", "d", winner="b", home_vp=9, away_vp=2, home_figures_lost=3),
    ]

    by_vp = _table(results, ("vp_difference", "fewest_figures_lost"))
    by_figures = _table(results, ("fewest_figures_lost", "vp_difference"))

    assert [r.player for r in by_vp][:2] == ["b", "a"]
    assert [r.player for r in by_figures][:2] == ["a", "b"]


def test_players_nothing_separates_share_a_rank_and_the_next_rank_is_skipped():
    results = [Result(1, "a", "c", winner="a"), Result(1, "b", "d", winner="b")]

    table = _table(results, ("vp_difference",))

    assert [row.rank for row in table] == [1, 1, 3, 3]
    assert [row.separated_by for row in table] == [None, None, "points", None]


def test_no_tie_breakers_leaves_players_level_on_points_sharing_a_rank():
    results = [Result(1, "a", "b", winner="a", home_vp=9)]

    table = _table(results, (), players=("a", "b", "c"))

    assert _order(table) == [(1, "a", None), (2, "b", "points"), (2, "c", None)]


# --- byes, forfeits, bonuses -----------------------------------------------------------------


def test_a_bye_scores_a_wins_points_by_default_and_is_not_a_game_played():
    table = _table([Result(1, "a", None)], (), players=("a", "b"))

    row = table[0]
    assert (row.player, row.points, row.byes, row.played, row.won) == ("a", 3, 1, 0, 0)
    assert (row.vp_for, row.vp_against, row.strength_of_schedule) == (0, 0, 0)


def test_a_league_can_score_a_bye_like_a_draw():
    table = _table([Result(1, "a", None)], (), players=("a",), bye_points=1)

    assert table[0].points == 1


def test_a_forfeit_is_a_played_loss_for_the_absent_player_and_a_win_for_the_other():
    table = {r.player: r for r in _table([Result(1, "a", "b", winner="b", forfeit=True)], ())}

    assert (table["b"].won, table["b"].points, table["a"].lost, table["a"].points) == (1, 3, 1, 0)


def test_a_double_forfeit_is_a_loss_for_both_players():
    table = {r.player: r for r in _table([Result(1, "a", "b", forfeit=True)], ())}

    assert (table["a"].lost, table["b"].lost, table["a"].drawn) == (1, 1, 0)


def test_a_major_victory_adds_the_leagues_bonus_to_the_winner_only():
    result = Result(1, "a", "b", winner="a", major_victory=True)

    table = {r.player: r for r in _table([result], (), major_victory_bonus=2)}

    assert (table["a"].bonus_points, table["a"].points, table["b"].bonus_points) == (2, 5, 0)


@given(
    st.lists(
        st.tuples(
            st.sampled_from("abcd"),
            st.sampled_from("abcd"),
            st.integers(0, 2),
            st.integers(0, 9),
            st.integers(0, 9),
        ),
        max_size=12,
    )
)
def test_points_add_up_and_the_table_never_climbs(games):
    results = [
        Result(n, h, a, winner=(h, a, None)[w], home_vp=hv, away_vp=av)
        for n, (h, a, w, hv, av) in enumerate(games)
        if h != a
    ]

    table = _table(results, ("head_to_head", "vp_difference", "strength_of_schedule"))

    assert sum(r.won for r in table) == sum(r.lost for r in table)
    assert sum(r.vp_for for r in table) == sum(r.vp_against for r in table)
    assert all(x.points >= y.points and x.rank <= y.rank for x, y in pairwise(table))
    assert all(r.points == 3 * r.won + r.drawn for r in table)


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        ({"tie_breakers": ("coin_toss",)}, "tie_breakers", "unknown tie-breaker 'coin_toss'"),
        ({"tie_breakers": ("vp_difference", "vp_difference")}, "tie_breakers", "listed once"),
        ({"loss_points": -1}, "loss_points", "cannot be negative"),
        ({"bye_points": -3}, "bye_points", "cannot be negative"),
        ({"draw_points": 4}, "draw_points", "win >= draw >= loss"),
        ({"max_games_per_pair": 0}, "max_games_per_pair", "at least 1"),
        ({"win_points": 2.5}, "win_points", "whole number"),
        ({"tie_breakers": "head_to_head"}, "tie_breakers", "must be a list"),
    ],
)
def test_invalid_settings_are_refused_naming_the_setting(bad, field, message):
    with pytest.raises(SettingsError, match=message) as caught:
        LeagueSettings(**bad)
    assert field in caught.value.errors


def test_settings_round_trip_through_stored_json_and_refuse_unknown_keys():
    league = LeagueSettings(win_points=2, tie_breakers=("vp_difference",), major_victory_bonus=1)

    assert LeagueSettings.from_mapping(league.as_mapping()) == league
    with pytest.raises(SettingsError, match="colour_bonus: is not a league setting"):
        LeagueSettings.from_mapping({"colour_bonus": 1})


def test_bye_points_default_to_the_points_for_a_win():
    assert LeagueSettings(win_points=2, draw_points=1).bye_points == 2


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"home": "a", "away": "a"}, "cannot play themself"),
        ({"home": "a", "away": "b", "winner": "c"}, "c did not play"),
        ({"home": "a", "away": None, "winner": "a"}, "a bye has no winner"),
        ({"home": "a", "away": "b", "major_victory": True}, "major victory needs a winner"),
        ({"home": "a", "away": "b", "home_vp": -1}, "cannot be negative"),
    ],
)
def test_an_inconsistent_result_is_refused(result, message):
    with pytest.raises(ResultError, match=message):
        Result(1, **result)


def test_an_adjustment_needs_a_reason():
    with pytest.raises(ResultError, match="needs a reason"):
        Adjustment("a", 1, "  ")


def test_results_naming_a_player_outside_the_league_are_refused():
    with pytest.raises(ResultError, match="not in the league: zed"):
        compute_standings(["a"], [Result(1, "a", "zed", winner="a")], LeagueSettings())


# --- CSV export ------------------------------------------------------------------------------


def test_the_csv_has_a_header_and_one_line_per_row_with_names_and_reasons():
    names = {p: p.title() for p in PLAYERS}

    lines = list(csv.reader(io.StringIO(standings_csv(_hand_worked_table(), names))))

    assert lines[0][:3] == ["Rank", "Player", "Played"] and len(lines) == 7
    by_name = {line[1]: dict(zip(lines[0], line, strict=True)) for line in lines[1:]}
    assert by_name["Ben"]["Adjustments"] == "painted force (+2)"
    assert by_name["Ben"]["Placed below the row above by"] == "Head to head"
    assert (by_name["Dan"]["Points"], by_name["Dan"]["VP difference"]) == ("6", "6")
    assert by_name["Dan"]["Adjustments"] == "late army list (-1)"


def test_the_csv_defuses_names_a_spreadsheet_would_run_as_formulas():
    table = compute_standings(["=cmd()"], [], LeagueSettings())

    lines = list(csv.reader(io.StringIO(standings_csv(table))))

    assert lines[1][1] == "'=cmd()"
