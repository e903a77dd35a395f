"""Filters, search and ordering narrow lists; a single object is fetched by its id alone."""

from __future__ import annotations

import pytest

from tests.factories import CampaignFactory, ForceFactory

pytestmark = pytest.mark.django_db


def test_a_list_is_filtered_searched_and_ordered(story, as_user):
    ForceFactory(owner=story.alice, campaign=None, name="Alice's Spares")
    client = as_user(story.alice)

    in_campaign = client.get(f"/api/forces/?campaign={story.campaign.pk}").json()["results"]
    searched = client.get("/api/forces/?search=Spares").json()["results"]
    ordered = client.get("/api/forces/?ordering=-name").json()["results"]

    assert [f["name"] for f in in_campaign] == ["Gridley's Company"]
    assert [f["name"] for f in searched] == ["Alice's Spares"]
    assert [f["name"] for f in ordered] == ["Gridley's Company", "Alice's Spares"]


def test_a_bad_filter_on_a_list_is_a_400_naming_it(story, as_user):
    response = as_user(story.alice).get("/api/forces/?campaign=not-a-number")

    assert response.status_code == 400
    assert "campaign" in response.json()


def test_list_filters_do_not_apply_to_a_single_object(story, as_user):
    other = CampaignFactory(name="Elsewhere")
    client = as_user(story.alice)

    response = client.get(f"/api/forces/{story.force.pk}/?campaign={other.pk}&search=zzz")

    assert response.status_code == 200
    assert response.json()["id"] == story.force.pk


def test_a_single_object_stays_scoped_to_what_the_user_may_see(story, as_user):
    response = as_user(story.charlie).get(f"/api/forces/{story.force.pk}/")

    assert response.status_code == 404
