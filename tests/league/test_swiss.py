"""Swiss rounds: score groups, floats, byes, no rematches while avoidable, clear failures."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.core import (
    Entrant,
    LeagueSettings,
    Pairing,
    PairingError,
    Result,
    Round,
    compute_standings,
    late_joiner_adjustment,
    next_swiss_round,
)
from rules.dice import D12, SeededDice

LEAGUE = LeagueSettings()


def _ranking(*players, points=0):
    return [Entrant(p, points) for p in players]


def _met(rounds):
    return Counter(frozenset(g.players) for r in rounds for g in r.games)


# --- a simulated season ----------------------------------------------------------------------


def _play(round_, dice):
    """Settle each game of a round from seeded dice: 1-5 home win, 6-10 away win, 11-12 draw."""
    results = [Result(round_.number, bye, None) for bye in round_.byes]
    for game in round_.games:
        roll = dice.roll(D12, f"round {round_.number}: {game.home} v {game.away}")
        winner = game.home if roll <= 5 else game.away if roll <= 10 else None
        results.append(
            Result(
                round_.number, game.home, game.away, winner=winner, home_vp=roll, away_vp=13 - roll
            )
        )
    return results


def _season(seed, players=13, rounds=8):
    """Play a Swiss season; return each round with the score groups it was paired from."""
    entrants = list(range(1, players + 1))
    dice = SeededDice(seed, "swiss season")
    played, results, groups = [], [], []
    for number in range(1, rounds + 1):
        table = compute_standings(entrants, results, LEAGUE)
        levels = sorted({row.points for row in table}, reverse=True)
        groups.append({row.player: levels.index(row.points) for row in table})
        round_ = next_swiss_round(table, played, LEAGUE, number=number)
        played.append(round_)
        results += _play(round_, dice)
    return played, groups


SEEDS = ["club night", "autumn league", "summer slam", "winter war", "13 at the table"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_thirteen_player_eight_round_season_never_repeats_a_game(seed):
    rounds, _ = _season(seed)

    assert set(_met(rounds).values()) == {1}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_seats_every_player_once_a_round_with_one_bye(seed):
    rounds, _ = _season(seed)

    for r in rounds:
        assert sorted(r.players) == list(range(1, 14))
        assert len(r.byes) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_nobody_gets_a_second_bye_in_a_season(seed):
    rounds, _ = _season(seed)

    byes = Counter(p for r in rounds for p in r.byes)
    assert len(byes) == 8 and set(byes.values()) == {1}


def _shortest_possible_float(players, group, met):
    """Brute force: the smallest reach (in score groups) any rematch-free pairing needs."""

    def reach(rest):
        if not rest:
            return 0
        first, options = rest[0], []
        for other in rest[1:]:
            if frozenset((first, other)) not in met:
                remaining = reach([p for p in rest[1:] if p != other])
                options.append(max(abs(group[first] - group[other]), remaining))
        return min(options, default=float("inf"))

    return reach(players)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_floats_players_no_further_than_the_round_forces(seed):
    rounds, groups = _season(seed)

    for number, (r, group) in enumerate(zip(rounds, groups, strict=True)):
        seated = [p for g in r.games for p in g.players]
        longest = max(abs(group[g.home] - group[g.away]) for g in r.games)
        assert longest == _shortest_possible_float(seated, group, set(_met(rounds[:number])))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_first_half_of_a_season_pairs_within_a_score_group_or_the_next_one(seed):
    # Later on, 3/1/0 scoring spreads 13 players over up to nine score groups, many of a single
    # player, and the rematch ban forces some longer floats (kept minimal: see the test above).
    rounds, groups = _season(seed)

    for r, group in list(zip(rounds, groups, strict=True))[:4]:
        assert all(abs(group[g.home] - group[g.away]) <= 1 for g in r.games)


def test_the_same_season_is_paired_the_same_way_every_time():
    assert _season("replay")[0] == _season("replay")[0]


# --- pairing rules ---------------------------------------------------------------------------


def test_an_equal_score_group_pairs_top_half_against_bottom_half():
    round_ = next_swiss_round(_ranking("a", "b", "c", "d", "e", "f"), [], LEAGUE, number=1)

    assert round_.pairings == (Pairing("a", "d"), Pairing("b", "e"), Pairing("c", "f"))


def test_the_odd_player_of_a_score_group_floats_down_to_the_top_of_the_next_group():
    ranking = [*_ranking("a", "b", "c", points=3), *_ranking("d", "e", "f", points=0)]

    round_ = next_swiss_round(ranking, [], LEAGUE, number=2)

    assert round_.pairings == (Pairing("a", "b"), Pairing("c", "d"), Pairing("e", "f"))


def test_a_rematch_is_avoided_by_the_next_preferred_opponent():
    history = [Round(1, (Pairing("a", "c"), Pairing("b", "d")))]

    round_ = next_swiss_round(_ranking("a", "b", "c", "d"), history, LEAGUE, number=2)

    assert {frozenset(g.players) for g in round_.games} == {frozenset("ad"), frozenset("bc")}


def test_the_search_looks_past_the_greedy_choice_to_find_a_rematch_free_round():
    # Greedy top-down pairing takes a-b (fresh, same group) and is then left with c-d, who
    # have met. Only a-c / b-d or a-d / b-c avoid every rematch.
    history = [Round(1, (Pairing("c", "d"),)), Round(2, (Pairing("a", "d"),))]

    round_ = next_swiss_round(_ranking("a", "b", "c", "d"), history, LEAGUE, number=3)

    assert set(_met([*history, round_]).values()) == {1}


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    history = [Round(1, (Pairing("e", None),))]
    ranking = [Entrant("a", 6), Entrant("b", 3), Entrant("c", 3), Entrant("d", 0), Entrant("e", 0)]

    round_ = next_swiss_round(ranking, history, LEAGUE, number=2)

    assert round_.byes == ("d",)


def test_the_bye_moves_up_the_table_when_the_lowest_player_cannot_sit_out():
    # If e sits out, a, b, c and d cannot be paired: d has met a, b and c.
    history = [Round(n, (Pairing("d", other),)) for n, other in enumerate("abc", start=1)]

    round_ = next_swiss_round(_ranking("a", "b", "c", "d", "e"), history, LEAGUE, number=4)

    assert round_.byes == ("d",)
    assert set(_met([*history, round_]).values()) == {1}


def test_a_late_joiner_enters_the_score_group_of_their_starting_score():
    league = LeagueSettings(late_joiner_points=3)
    played = [Round(1, (Pairing("a", "b"), Pairing("c", "d")))]
    results = [Result(1, "a", "b", winner="a"), Result(1, "c", "d", winner="c")]
    start = late_joiner_adjustment("e", first_round=2, settings=league)
    table = compute_standings(["a", "b", "c", "d", "e"], results, league, [start])

    round_ = next_swiss_round(table, played, league, number=2)

    # e starts in the 3-point group with a and c: a plays c, e is the group's odd player and
    # floats down to b (who hosts: b has been away once, e never played); d has the bye.
    assert [(row.player, row.points) for row in table] == [
        ("a", 3),
        ("c", 3),
        ("e", 3),
        ("b", 0),
        ("d", 0),
    ]
    assert round_.pairings == (Pairing("a", "c"), Pairing("b", "e"), Pairing("d", None))


def test_withdrawn_players_are_left_out_of_the_next_round():
    round_ = next_swiss_round(_ranking("a", "b", "c", "d"), [], LEAGUE, number=1, withdrawn={"b"})

    assert "b" not in round_.players and len(round_.byes) == 1


def test_home_goes_to_the_player_who_has_been_home_less_often():
    history = [Round(1, (Pairing("a", "x"), Pairing("y", "b")))]

    round_ = next_swiss_round(_ranking("a", "b"), history, LEAGUE, number=2)

    assert round_.pairings == (Pairing("b", "a"),)


def test_seeded_dice_draw_inside_score_groups_reproducibly():
    ranking = [*_ranking(*"abcdef", points=3), *_ranking(*"ghijkl", points=0)]

    first = next_swiss_round(ranking, [], LEAGUE, number=2, dice=SeededDice("draw", "r2"))
    again = next_swiss_round(ranking, [], LEAGUE, number=2, dice=SeededDice("draw", "r2"))

    assert first == again
    for game in first.games:
        assert (set(game.players) <= set("abcdef")) or (set(game.players) <= set("ghijkl"))


# --- when no valid round exists --------------------------------------------------------------


def test_no_valid_pairing_raises_a_clear_error_naming_the_stuck_players():
    history = [Round(1, (Pairing("a", "b"),))]

    with pytest.raises(
        PairingError,
        match=r"cannot pair round 2: a, b already played every "
        r"other active player once",
    ):
        next_swiss_round(_ranking("a", "b"), history, LEAGUE, number=2)


def test_no_valid_pairing_without_a_stuck_player_still_explains_itself():
    # Everyone still has a fresh opponent, but d's only fresh opponent is c, and so is e's.
    history = [
        Round(n, (Pairing(x, y),))
        for n, (x, y) in enumerate(["ad", "bd", "de", "df", "ae", "be", "ef"], start=1)
    ]

    with pytest.raises(PairingError, match="no way to pair all 6 active players"):
        next_swiss_round(_ranking(*"abcdef"), history, LEAGUE, number=8)


def test_a_rematch_is_allowed_up_to_the_maximum_games_per_pair_only_when_unavoidable():
    history = [
        Round(1, (Pairing("a", "b"), Pairing("c", "d"))),
        Round(2, (Pairing("a", "c"), Pairing("b", "d"))),
        Round(3, (Pairing("a", "d"), Pairing("b", "c"))),
    ]

    round_ = next_swiss_round(
        _ranking("a", "b", "c", "d"), history, LeagueSettings(max_games_per_pair=2), number=4
    )

    assert set(_met([*history, round_]).values()) == {1, 2}


def test_fewer_than_two_active_players_cannot_be_paired():
    with pytest.raises(PairingError, match="at least 2 active players"):
        next_swiss_round(_ranking("a", "b"), [], LEAGUE, number=1, withdrawn={"a"})


# --- the search is complete: compared with brute force ---------------------------------------


def _rematch_free_round_exists(players, met):
    def pairable(rest):
        if not rest:
            return True
        first = rest[0]
        return any(
            frozenset((first, other)) not in met and pairable([p for p in rest[1:] if p != other])
            for other in rest[1:]
        )

    sitters = players if len(players) % 2 else [None]
    return any(pairable([p for p in players if p != sitter]) for sitter in sitters)


histories = st.integers(min_value=2, max_value=9).flatmap(
    lambda n: st.tuples(
        st.just(list(range(n))),
        st.lists(st.sampled_from(list(combinations(range(n), 2))), unique=True),
        st.lists(st.integers(min_value=0, max_value=6), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(histories)
def test_swiss_finds_a_rematch_free_round_exactly_when_one_exists(case):
    players, earlier_games, points = case
    ranking = sorted(
        (Entrant(p, s) for p, s in zip(players, points, strict=True)), key=lambda e: -e.points
    )
    history = [Round(n, (Pairing(a, b),)) for n, (a, b) in enumerate(earlier_games, start=1)]
    exists = _rematch_free_round_exists(players, {frozenset(g) for g in earlier_games})

    try:
        round_ = next_swiss_round(ranking, history, LEAGUE, number=len(history) + 1)
    except PairingError:
        assert not exists
    else:
        assert exists
        assert sorted(round_.players) == players
        assert set(_met([*history, round_]).values()) == {1}
