"""Round 1 of a Swiss league paired by club rating when the league says so.

Swiss pairs the top half of the seeding against the bottom half (1st against 3rd, 2nd against
4th of four); seeded by rating, that is alice against bob and carol against dave."""

from __future__ import annotations

import pytest

from league import services
from league.models import Pairing
from ratings.models import PlayerRating
from tests.league.league_helpers import make_league

#: Ratings that seed alice, carol, bob, dave: not the table's (alphabetical) order.
RATINGS = {"alice": 1710.0, "carol": 1650.0, "bob": 1450.0, "dave": 1390.0}
SEEDED = {frozenset({"alice", "bob"}), frozenset({"carol", "dave"})}


def rate(campaign, players) -> None:
    for name, rating in RATINGS.items():
        PlayerRating.objects.create(
            club=campaign.club, user=players[name].user, rating=rating, deviation=80.0
        )


def first_round_games(campaign) -> set[frozenset[str]]:
    games = Pairing.objects.filter(round__campaign=campaign, round__number=1)
    return {
        frozenset((p.home.user.username, p.away.user.username))
        for p in games.select_related("home__user", "away__user")
    }


@pytest.mark.django_db
def test_round_one_pairs_the_best_rated_together_when_the_league_seeds_by_rating():
    campaign, _olivia, players = make_league(["alice", "bob", "carol", "dave"])
    rate(campaign, players)
    services.league_update(campaign=campaign, seed_by_rating=True)
    services.swiss_round_generate(campaign=campaign)
    assert first_round_games(campaign) == SEEDED


@pytest.mark.django_db
def test_round_one_ignores_ratings_when_the_setting_is_off():
    campaign, _olivia, players = make_league(["alice", "bob", "carol", "dave"])
    rate(campaign, players)
    services.swiss_round_generate(campaign=campaign)
    assert first_round_games(campaign) == {
        frozenset({"alice", "carol"}),
        frozenset({"bob", "dave"}),
    }
