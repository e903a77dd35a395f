"""The campaign page and the odds page say which house rules a campaign plays.

olivia organises a Game the 90% campaign whose club edits its missiles
(tests/house_rules_system.py); alice plays in it; charlie is a stranger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from campaigns.models import Campaign, Role
from campaigns.services.house_rules import house_rules_save
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.house_rules_system import pack

pytestmark = pytest.mark.django_db


@dataclass
class Club:
    campaign: Campaign
    olivia: Any
    alice: Any
    charlie: Any

    def page(self, client: Client, user: Any, url: str, **query: Any) -> Any:
        if user is not None:
            client.force_login(user)
        return client.get(url, query)


@pytest.fixture
def club(house_rules_system: Any) -> Club:
    campaign = CampaignFactory(name="Hastings", slug="hastings", system="game_the_90")
    olivia, alice, charlie = (UserFactory(username=n) for n in ("olivia", "alice", "charlie"))
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    MembershipFactory(user=alice, campaign=campaign, role=Role.PLAYER)
    return Club(campaign, olivia, alice, charlie)


def _two_versions(club: Club) -> None:
    longbows = pack(longbow={"range": 24, "volley": 3})
    house_rules_save(campaign=club.campaign, document=longbows, user=club.olivia, note="fyrd")
    longer = pack(longbow={"range": 24, "volley": 3}, bows={"range": 20})
    house_rules_save(campaign=club.campaign, document=longer, user=club.olivia)


def _editor_route_exists(pk: int) -> bool:
    try:
        reverse("campaign-house-rules", args=[pk])
    except NoReverseMatch:
        return False
    return True


def test_the_campaign_page_shows_the_version_and_what_it_changes(club: Club, client: Client):
    _two_versions(club)

    page = club.page(client, club.alice, f"/campaigns/{club.campaign.pk}/").content.decode()

    assert "house rules v2" in page
    assert "Missiles: added longbow" in page
    assert "Since v1" in page and "Missiles, bows: Range &quot; 18 → 20" in page
    assert f"/api/campaigns/{club.campaign.pk}/house-rules/versions/2/" in page
    assert f"/odds/?campaign={club.campaign.pk}" in page


def test_only_an_organiser_is_offered_the_editor(club: Club, client: Client):
    _two_versions(club)
    url = f"/campaigns/{club.campaign.pk}/"

    player = club.page(client, club.alice, url).content.decode()
    organiser = club.page(Client(), club.olivia, url).content.decode()

    assert 'data-testid="house-rules-edit"' not in player
    expected = _editor_route_exists(club.campaign.pk)
    assert ('data-testid="house-rules-edit"' in organiser) is expected


def test_a_campaign_without_house_rules_plays_the_rules_as_written(club: Club, client: Client):
    page = club.page(client, club.alice, f"/campaigns/{club.campaign.pk}/").content.decode()

    assert "plays the rules as written" in page


def test_the_odds_page_prices_a_campaign_s_house_rules(club: Club, client: Client):
    _two_versions(club)

    response = club.page(
        client,
        club.alice,
        "/odds/",
        campaign=club.campaign.pk,
        check="volley",
        shown="game_the_90/volley",
        missile="longbow",
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "2/3" in page  # a longbow hits on 3+
    assert "house rules v2" in page and 'data-testid="odds-campaign"' in page
    assert "--house hastings-house-rules-v2.json" in page
    assert 'value="rencounter"' not in page  # the campaign's game only


@pytest.mark.parametrize("who", ["charlie", "anonymous"])
def test_the_odds_page_hides_a_campaign_from_those_who_cannot_see_it(
    club: Club, client: Client, who: str
):
    user = getattr(club, who) if who != "anonymous" else None

    response = club.page(client, user, "/odds/", campaign=club.campaign.pk)

    assert response.status_code == 404


def test_the_odds_page_refuses_a_campaign_that_is_not_a_number(club: Club, client: Client):
    assert club.page(client, club.alice, "/odds/", campaign="x").status_code == 404


def test_without_a_campaign_the_odds_page_offers_every_game_as_written(club: Club, client: Client):
    _two_versions(club)

    page = club.page(client, None, "/odds/", system="game_the_90", check="volley").content
    text = page.decode()

    assert 'value="rencounter"' in text
    assert 'value="longbow"' not in text and "house rules v" not in text
