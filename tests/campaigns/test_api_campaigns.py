"""The campaigns API: creation by club admins, options through the system's schema."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_a_club_admin_creates_a_campaign_and_organises_it(as_user, story):
    club = ClubFactory(admins=[story.olivia])

    response = as_user(story.olivia).post(
        "/api/campaigns/",
        {"club": club.pk, "name": "Winter Quarters", "system": "escarmouche"},
        format="json",
    )

    assert response.status_code == 201, response.content
    campaign = Campaign.objects.get(pk=response.json()["id"])
    assert campaign.memberships.get().user == story.olivia


def test_someone_who_is_not_a_club_admin_cannot_create_a_campaign_there(as_user, story):
    club = ClubFactory()

    response = as_user(story.bob).post(
        "/api/campaigns/", {"club": club.pk, "name": "Coup", "system": "rencounter"}, format="json"
    )

    assert response.status_code == 400
    assert "club" in response.json()


def test_a_bad_option_is_a_400_naming_it_and_nothing_changes(as_user, story):
    before = dict(story.campaign.options)

    response = as_user(story.olivia).patch(
        f"/api/campaigns/{story.campaign.pk}/", {"options": {"free_beer": True}}, format="json"
    )

    story.campaign.refresh_from_db()
    assert response.status_code == 400
    assert "free_beer" in response.json()["options"]
    assert story.campaign.options == before


def test_the_campaign_system_cannot_change(as_user, story):
    response = as_user(story.olivia).patch(
        f"/api/campaigns/{story.campaign.pk}/", {"system": "escarmouche"}, format="json"
    )

    assert response.status_code == 400


def test_campaigns_filter_by_system(as_user, story):
    body = as_user(story.alice).get("/api/campaigns/?system=escarmouche").json()

    assert body["count"] == 0


def test_an_organiser_changes_a_members_role(as_user, story):
    membership = story.bob.memberships.get()

    response = as_user(story.olivia).patch(
        f"/api/memberships/{membership.pk}/", {"role": "ORGANISER"}, format="json"
    )

    assert response.json()["role"] == "ORGANISER"
