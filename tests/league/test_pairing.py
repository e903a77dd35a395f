"""Round robin, drop-outs, late joiners and the organiser's manual pairings."""

import ast
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.core import (
    Adjustment,
    LeagueSettings,
    Pairing,
    PairingError,
    Round,
    check_manual_round,
    dropout_forfeits,
    join_round_robin,
    late_joiner_adjustment,
    round_robin,
    swap_players,
)

LEAGUE = Path(__file__).resolve().parents[2] / "league" / "core"
player_counts = st.integers(min_value=2, max_value=16)


def _players(count):
    return [f"p{i:02d}" for i in range(count)]


def _games(rounds):
    return [game for r in rounds for game in r.games]


# --- purity ----------------------------------------------------------------------------------


def test_league_core_imports_no_django_and_no_global_random():
    forbidden = {"django", "rest_framework", "random", "time"}
    imported = set()
    for path in LEAGUE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
    assert imported & forbidden == set()


# --- round robin properties ------------------------------------------------------------------


@given(player_counts)
def test_round_robin_pairs_every_two_players_exactly_once(count):
    players = _players(count)

    rounds = round_robin(players)

    met = Counter(frozenset(game.players) for game in _games(rounds))
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}


@given(player_counts)
def test_round_robin_seats_each_player_at_most_once_per_round(count):
    rounds = round_robin(_players(count))

    for r in rounds:
        assert len(r.players) == len(set(r.players))


@given(player_counts)
def test_round_robin_takes_n_minus_one_rounds_for_even_and_n_for_odd_counts(count):
    rounds = round_robin(_players(count))

    assert len(rounds) == (count if count % 2 else count - 1)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))


@given(player_counts)
def test_round_robin_gives_one_bye_to_each_player_for_odd_counts_and_none_for_even(count):
    players = _players(count)

    rounds = round_robin(players)

    byes = Counter(p for r in rounds for p in r.byes)
    expected = Counter(players) if count % 2 else Counter()
    assert byes == expected
    assert all(len(r.byes) == count % 2 for r in rounds)


@given(player_counts, st.integers(min_value=1, max_value=3))
def test_round_robin_balances_home_and_away_within_one_game(count, legs):
    players = _players(count)

    rounds = round_robin(players, legs=legs)

    home = Counter(g.home for g in _games(rounds))
    away = Counter(g.away for g in _games(rounds))
    assert all(abs(home[p] - away[p]) <= 1 for p in players)


@given(player_counts)
def test_a_second_leg_replays_every_game_with_home_and_away_swapped(count):
    players = _players(count)

    rounds = round_robin(players, legs=2)

    first_leg, second_leg = rounds[: len(rounds) // 2], rounds[len(rounds) // 2 :]
    assert {(g.away, g.home) for g in _games(first_leg)} == {
        (g.home, g.away) for g in _games(second_leg)
    }


def test_round_robin_is_deterministic_and_numbers_from_the_first_round_given():
    players = [7, 3, 11, 5]

    first, again = round_robin(players, first_round=4), round_robin(players, first_round=4)

    assert first == again
    assert first[0].number == 4


def test_round_robin_of_four_follows_the_circle_method():
    # ann keeps her seat; ben, cat and dan turn one seat round the circle each round:
    #   round 1: ann dan / ben cat    round 2: ann cat / dan ben    round 3: ann ben / cat dan
    # ann swaps sides every round; the other table alternates with the seat order.
    rounds = round_robin(["ann", "ben", "cat", "dan"])

    assert [r.pairings for r in rounds] == [
        (Pairing("ann", "dan"), Pairing("ben", "cat")),
        (Pairing("cat", "ann"), Pairing("dan", "ben")),
        (Pairing("ann", "ben"), Pairing("cat", "dan")),
    ]


@pytest.mark.parametrize(
    ("players", "legs", "message"),
    [
        (["ann"], 1, "at least 2 players"),
        (["ann", "ann"], 1, "entered twice: ann"),
        (["ann", "ben"], 0, "at least 1 leg"),
    ],
)
def test_round_robin_rejects_a_bad_entry_with_a_clear_message(players, legs, message):
    with pytest.raises(PairingError, match=message):
        round_robin(players, legs=legs)


# --- drop-outs and late joiners ----------------------------------------------------------------


def test_a_dropout_forfeits_only_their_games_from_the_round_they_leave():
    rounds = round_robin(["ann", "ben", "cat", "dan", "eve"])

    forfeits = dropout_forfeits(rounds, "cat", from_round=3)

    later_games = [(r.number, g) for r in rounds[2:] for g in r.games if "cat" in g.players]
    assert [(f.round_number, f.pairing) for f in forfeits] == later_games
    assert all(f.awarded_to == f.pairing.opponent_of("cat") for f in forfeits)


def test_a_forfeit_becomes_a_win_for_the_opponent_with_the_forfeit_flag():
    rounds = round_robin(["ann", "ben"])

    (forfeit,) = dropout_forfeits(rounds, "ann", from_round=1)
    result = forfeit.as_result()

    assert (result.winner, result.forfeit, result.home_vp, result.away_vp) == ("ben", True, 0, 0)


def test_a_dropout_after_the_last_round_forfeits_nothing():
    rounds = round_robin(["ann", "ben", "cat"])

    assert dropout_forfeits(rounds, "ann", from_round=4) == ()


def test_a_late_joiner_in_an_odd_round_robin_plays_each_rounds_bye_holder():
    rounds = round_robin(["ann", "ben", "cat", "dan", "eve"])

    schedule, catch_up = join_round_robin(rounds, "fay", from_round=3)

    for before, after in zip(rounds[2:], schedule[2:], strict=True):
        assert Pairing(before.byes[0], "fay") in after.pairings and not after.byes
    assert schedule[:2] == rounds[:2]
    met_in_schedule = {g.opponent_of("fay") for g in _games(schedule) if "fay" in g.players}
    assert {g.opponent_of("fay") for g in catch_up} == {"ann", "ben", "cat", "dan", "eve"} - (
        met_in_schedule
    )


def test_a_late_joiner_in_an_even_round_robin_has_byes_and_catches_up_every_game():
    rounds = round_robin(["ann", "ben", "cat", "dan"])

    schedule, catch_up = join_round_robin(rounds, "eve", from_round=2)

    assert [r.byes for r in schedule] == [(), ("eve",), ("eve",)]
    assert sorted(g.opponent_of("eve") for g in catch_up) == ["ann", "ben", "cat", "dan"]


def test_a_player_already_scheduled_cannot_join_again():
    with pytest.raises(PairingError, match="already in the schedule"):
        join_round_robin(round_robin(["ann", "ben"]), "ann", from_round=1)


def test_a_late_joiner_starts_with_the_leagues_configured_score_as_an_adjustment():
    settings = LeagueSettings(late_joiner_points=4)

    adjustment = late_joiner_adjustment("fay", first_round=3, settings=settings)

    assert adjustment == Adjustment("fay", 4, "late joiner: entered in round 3")


def test_a_late_joiner_on_zero_points_or_joining_in_round_one_needs_no_adjustment():
    settings = LeagueSettings(late_joiner_points=4)

    assert late_joiner_adjustment("fay", first_round=3, settings=LeagueSettings()) is None
    assert late_joiner_adjustment("fay", first_round=1, settings=settings) is None


def test_a_late_joiners_score_can_be_set_for_that_player_but_not_negative():
    settings = LeagueSettings()

    adjustment = late_joiner_adjustment("fay", first_round=2, settings=settings, points=2)

    assert adjustment is not None and adjustment.points == 2
    with pytest.raises(PairingError, match="cannot be negative"):
        late_joiner_adjustment("fay", first_round=2, settings=settings, points=-1)


# --- manual pairings -------------------------------------------------------------------------

PLAYERS = ("ann", "ben", "cat", "dan", "eve")
HISTORY = (
    Round(1, (Pairing("ann", "ben"), Pairing("cat", "dan"), Pairing("eve", None))),
    Round(2, (Pairing("ann", "cat"), Pairing("ben", "eve"), Pairing("dan", None))),
)


def _check(pairings, settings=None, withdrawn=()):
    return check_manual_round(
        Round(3, pairings),
        players=PLAYERS,
        history=HISTORY,
        settings=settings or LeagueSettings(),
        withdrawn=withdrawn,
    )


def test_a_fresh_manual_round_has_no_warnings():
    warnings = _check((Pairing("ann", "dan"), Pairing("ben", "cat"), Pairing("eve", None)))

    assert [w.kind for w in warnings] == ["second_bye"]  # eve sat out round 1
    assert warnings[0].message == "eve already had a bye in round 1"


def test_a_manual_rematch_is_a_warning_naming_the_earlier_round_not_an_error():
    warnings = _check((Pairing("ben", "ann"), Pairing("cat", "eve"), Pairing("dan", None)))

    kinds = [(w.kind, w.players) for w in warnings]
    assert ("rematch", ("ben", "ann")) in kinds
    assert ("over_max_games", ("ben", "ann")) in kinds
    assert "ben and ann already met in round 1" in [w.message for w in warnings]


def test_a_rematch_within_the_maximum_games_per_pair_is_only_a_rematch_warning():
    settings = LeagueSettings(max_games_per_pair=2)

    warnings = _check((Pairing("ben", "ann"), Pairing("cat", "eve")), settings, withdrawn=("dan",))

    assert [w.kind for w in warnings] == ["rematch"]


def test_a_withdrawn_player_in_a_manual_round_and_an_unseated_player_are_warned_about():
    warnings = _check((Pairing("ann", "dan"), Pairing("ben", "cat")), withdrawn=("dan",))

    assert {(w.kind, w.players) for w in warnings} == {
        ("withdrawn", ("dan",)),
        ("unpaired", ("eve",)),
    }


@pytest.mark.parametrize(
    ("pairings", "message"),
    [
        ((Pairing("ann", "dan"), Pairing("ann", "cat")), "ann listed more than once"),
        ((Pairing("ann", "zed"),), "zed not in the league"),
    ],
)
def test_a_malformed_manual_round_is_an_error(pairings, message):
    with pytest.raises(PairingError, match=message):
        _check(pairings)


def test_swapping_two_players_exchanges_their_opponents_and_sides():
    round_ = Round(3, (Pairing("ann", "dan"), Pairing("ben", "cat"), Pairing("eve", None)))

    swapped = swap_players(round_, "dan", "eve")

    assert swapped.pairings == (Pairing("ann", "eve"), Pairing("ben", "cat"), Pairing("dan", None))


def test_swapping_a_player_who_is_not_in_the_round_is_an_error():
    round_ = Round(3, (Pairing("ann", "dan"),))

    with pytest.raises(PairingError, match="ben not in this round"):
        swap_players(round_, "ann", "ben")
