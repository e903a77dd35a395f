"""alice reads her notifications, marks them read, and looks at the club rating: the standings
column and her rating history chart. Screenshots at phone and desktop width."""

from __future__ import annotations

import pytest

from league import services
from league.models import Pairing
from tests.league.league_helpers import make_league, settle

pytestmark = pytest.mark.browser


@pytest.fixture
def rated_season(transactional_db):
    campaign, olivia, players = make_league(["alice", "bob", "carol", "dave"], name="Winter League")
    services.league_update(campaign=campaign, show_rating=True)
    services.swiss_round_generate(campaign=campaign)
    for pairing in Pairing.objects.filter(round__campaign=campaign).order_by("table"):
        settle(pairing, olivia, winner="HOME", home_vp=12, away_vp=5)
    services.swiss_round_generate(campaign=campaign)
    return campaign, players


def test_alice_reads_her_notifications_and_her_club_rating(
    page, live_server, sign_in, screens, rated_season
):
    campaign, _players = rated_season
    sign_in("alice")
    assert page.get_by_test_id("home-notices").is_visible()
    page.get_by_role("link", name="All notifications").click()
    assert "round 2: you play" in page.get_by_test_id("notices").inner_text()
    screens("notifications")
    page.get_by_role("button", name="Mark all read").click()
    assert page.get_by_text("Nothing unread.").is_visible()

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert page.get_by_role("columnheader", name="Rtg").is_visible()
    screens("campaign-rating-column")
    page.get_by_role("link", name="Every player's rating and its history").click()
    assert page.locator("svg.chart--steps").count() == 4
    screens("club-rating-history")
