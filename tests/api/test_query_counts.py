"""Lists cost the same number of queries at 20 rows as at 200."""

from __future__ import annotations

import pytest

from rosters.selectors import character_roster
from tests.factories import CharacterFactory, ServiceRecordEntryFactory, UnitFactory

pytestmark = pytest.mark.django_db


def grow_roster(story, size: int) -> None:
    """Give alice's force `size` characters in all, spread over units, each with a record."""
    units = [story.unit, *(UnitFactory(force=story.force) for _ in range(3))]
    characters = CharacterFactory.create_batch(size - 1, force=story.force)
    for i, character in enumerate([story.character, *characters]):
        character.unit = units[i % len(units)]
        ServiceRecordEntryFactory(character=character)
    type(story.character).objects.bulk_update(characters, ["unit"])


def list_characters(client, campaign, size: int) -> list:
    url = f"/api/characters/?campaign={campaign.pk}&page_size={size}"
    return client.get(url).json()["results"]


@pytest.mark.parametrize("size", [20, 200])
def test_listing_characters_costs_the_same_queries_at_any_size(
    story, as_user, django_assert_num_queries, size
):
    grow_roster(story, size)
    client = as_user(story.bob)

    # 1 count + 1 page of ids (off the name index) + the page's rows (force, unit, campaign
    # joined; record counts for those rows only)
    with django_assert_num_queries(3):
        results = list_characters(client, story.campaign, size)

    assert len(results) == size
    assert all(r["service_record_count"] == 1 for r in results)
    assert all(r["campaign"]["id"] == story.campaign.pk for r in results)


@pytest.mark.parametrize("size", [20, 200])
def test_the_roster_selector_is_one_query(story, django_assert_num_queries, size):
    grow_roster(story, size)

    with django_assert_num_queries(1):
        rows = [
            (c.force.name, c.unit.name, c.force.campaign.name, c.service_record_count)
            for c in character_roster(story.force.characters.all())
        ]

    assert len(rows) == size


@pytest.mark.parametrize("size", [20, 200])
def test_listing_forces_and_units_is_constant(story, as_user, django_assert_num_queries, size):
    grow_roster(story, size)
    client = as_user(story.alice)

    with django_assert_num_queries(2):
        client.get("/api/forces/")
    with django_assert_num_queries(2):
        client.get(f"/api/units/?force={story.force.pk}")
