"""The club rating: Glickman's published example, incremental equals recomputed, and the
rating following confirmed results across campaigns of one club."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from campaigns import services
from league import services as league_services
from league.models import Pairing
from ratings.models import PlayerRating, RatedGame, RatingPoint
from ratings.selectors import rating_history
from ratings.services import glicko_period, ratings_recompute
from tests.factories import CampaignFactory, MembershipFactory
from tests.league.league_helpers import make_league, settle


def test_glickmans_published_example_is_reproduced():
    # Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06 against three players.
    rating, deviation, volatility = glicko_period(
        (1500.0, 200.0, 0.06),
        [((1400.0, 30.0, 0.06), 1.0), ((1550.0, 100.0, 0.06), 0.0), ((1700.0, 300.0, 0.06), 0.0)],
    )
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)


def snapshot(club_id: int) -> tuple[list[tuple], list[tuple]]:
    ratings = sorted(
        (r.user_id, r.rating, r.deviation, r.volatility, r.games)
        for r in PlayerRating.objects.filter(club_id=club_id)
    )
    points = [
        (p.game.pairing_id, p.user_id, p.rating, p.deviation, p.volatility)
        for p in RatingPoint.objects.filter(game__club_id=club_id).select_related("game")
    ]
    return ratings, sorted(points)


def play_two_swiss_rounds(campaign, olivia) -> None:
    """Round 1 all home wins; round 2 a draw and a major away win, settled in table order."""
    league_services.swiss_round_generate(campaign=campaign)
    for pairing in Pairing.objects.filter(round__number=1, round__campaign=campaign):
        settle(pairing, olivia, winner="HOME", home_vp=10, away_vp=4)
    league_services.swiss_round_generate(campaign=campaign)
    results = [{"winner": "DRAW"}, {"winner": "AWAY", "major_victory": True}]
    games = Pairing.objects.filter(round__number=2, round__campaign=campaign).order_by("table")
    for pairing, result in zip(games, results, strict=True):
        settle(pairing, olivia, **result)


@pytest.mark.django_db
def test_confirming_a_result_raises_the_winner_and_lowers_the_loser():
    campaign, olivia, _players = make_league(["alice", "bob"])
    league_services.swiss_round_generate(campaign=campaign)
    pairing = Pairing.objects.get(round__campaign=campaign)
    settle(pairing, olivia, winner="HOME", home_vp=3)
    home = PlayerRating.objects.get(user_id=pairing.home.user_id)
    away = PlayerRating.objects.get(user_id=pairing.away.user_id)
    assert home.rating > 1500 > away.rating
    assert home.games == away.games == 1
    assert len(rating_history(campaign.club_id, home.user_id)) == 1


@pytest.mark.django_db
def test_a_game_both_players_report_alike_is_rated_once():
    campaign, _olivia, players = make_league(["alice", "bob"])
    league_services.swiss_round_generate(campaign=campaign)
    pairing = Pairing.objects.get(round__campaign=campaign)
    claim = league_services.claim_from({"winner": "AWAY"})
    league_services.pairing_report(pairing=pairing, user=players["alice"].user, claim=claim)
    assert not RatedGame.objects.exists()  # one report is not yet a result
    league_services.pairing_report(pairing=pairing, user=players["bob"].user, claim=claim)
    assert RatedGame.objects.get().score == 0.0
    assert PlayerRating.objects.get(user=pairing.away.user).games == 1


@pytest.mark.django_db
def test_recomputing_from_scratch_gives_the_incremental_ratings_exactly():
    campaign, olivia, _players = make_league(["alice", "bob", "carol", "dave"])
    play_two_swiss_rounds(campaign, olivia)
    incremental = snapshot(campaign.club_id)
    assert len(incremental[0]) == 4 and len(incremental[1]) == 8

    assert ratings_recompute(club=campaign.club) == 4
    assert snapshot(campaign.club_id) == incremental

    RatedGame.objects.all().delete()  # from nothing at all: rebuilt from the pairings
    call_command("recompute_ratings", verbosity=0)
    assert snapshot(campaign.club_id) == incremental


@pytest.mark.django_db
def test_a_corrected_result_rebuilds_the_ratings_as_if_it_had_always_been_so():
    campaign, olivia, _players = make_league(["alice", "bob", "carol", "dave"])
    play_two_swiss_rounds(campaign, olivia)
    first = Pairing.objects.get(round__campaign=campaign, round__number=1, table=1)
    settle(first, olivia, winner="AWAY", away_vp=2)
    corrected = snapshot(campaign.club_id)
    assert RatedGame.objects.get(pairing=first).score == 0.0
    ratings_recompute(club=campaign.club)
    assert snapshot(campaign.club_id) == corrected


@pytest.mark.django_db
def test_one_rating_follows_a_player_across_the_clubs_systems():
    campaign, olivia, players = make_league(["alice", "bob"], system="d12_skirmish")
    league_services.swiss_round_generate(campaign=campaign)
    settle(Pairing.objects.get(round__campaign=campaign), olivia, winner="DRAW")
    other = CampaignFactory(club=campaign.club, system="escarmouche", slug="second")
    services.membership_create(campaign=other, user=olivia, role="ORGANISER")
    for name in ("alice", "bob"):
        MembershipFactory(campaign=other, user=players[name].user)
    league_services.swiss_round_generate(campaign=other)
    settle(Pairing.objects.get(round__campaign=other), olivia, winner="HOME")
    alice = PlayerRating.objects.get(user=players["alice"].user)
    assert alice.games == 2
    assert PlayerRating.objects.count() == 2
