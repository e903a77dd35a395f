"""The club rating on the pages: the campaign card, the optional standings column, and the
rating history chart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import services
from league.models import Pairing
from tests.league.league_helpers import make_league, settle


def rated_league():
    campaign, olivia, players = make_league(["alice", "bob"])
    services.swiss_round_generate(campaign=campaign)
    pairing = Pairing.objects.get(round__campaign=campaign)
    settle(pairing, olivia, winner="HOME", home_vp=6)
    return campaign, olivia, players, pairing


@pytest.mark.django_db
def test_the_rating_column_shows_in_the_standings_only_when_the_league_asks(client):
    campaign, _olivia, players, _pairing = rated_league()
    client.force_login(players["alice"].user)
    page = client.get(reverse("campaign-page", args=[campaign.pk])).content.decode()
    assert 'data-testid="club-rating"' in page
    assert '<abbr title="Club rating">Rtg</abbr>' not in page
    services.league_update(campaign=campaign, show_rating=True)
    page = client.get(reverse("campaign-page", args=[campaign.pk])).content.decode()
    assert '<abbr title="Club rating">Rtg</abbr>' in page
    assert '<td class="num">1662</td>' in page  # the winner of one game from 1500/350


@pytest.mark.django_db
def test_each_player_has_a_rating_history_chart_drawn_on_the_server(client):
    campaign, _olivia, players, _pairing = rated_league()
    client.force_login(players["bob"].user)
    page = client.get(reverse("campaign-ratings", args=[campaign.pk])).content.decode()
    assert page.count('class="chart chart--steps"') == 2
    assert "bob&#x27;s club rating: Start 1500, Game 1 1338" in page
