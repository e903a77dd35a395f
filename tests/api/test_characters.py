"""The characters endpoint: writes validate through the rule system; reads filter and search."""

from __future__ import annotations

import pytest

from common.stats import starting_stats
from rosters.models import Character, EntryCause, ServiceRecordEntry
from rules.system import all_systems, get_system
from tests.factories import CampaignFactory, CharacterFactory, ForceFactory, UnitFactory

pytestmark = pytest.mark.django_db


def bounded_int(system_key: str):
    return next(
        f for f in get_system(system_key).stats.fields if f.kind == "int" and f.max is not None
    )


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_a_character_can_be_created_for_each_system(as_user, system):
    force = ForceFactory(system=system)
    stats = starting_stats(get_system(system).stats)

    response = as_user(force.owner).post(
        "/api/characters/", {"force": force.pk, "name": "Hero", "stats": stats}, format="json"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["system"], body["stats"], body["service_record_count"]) == (system, stats, 1)


def test_an_out_of_range_stat_is_a_400_naming_the_stat_and_nothing_is_saved(story, as_user):
    stat = bounded_int(story.force.system)

    response = as_user(story.alice).post(
        "/api/characters/",
        {"force": story.force.pk, "name": "Tom", "stats": {stat.name: stat.max + 1}},
        format="json",
    )

    assert response.status_code == 400
    assert stat.name in response.json()["stats"]
    assert not Character.objects.filter(name="Tom").exists()


def test_an_unknown_stat_is_a_400(story, as_user):
    response = as_user(story.alice).patch(
        f"/api/characters/{story.character.pk}/", {"stats": {"charisma": 18}}, format="json"
    )

    assert response.status_code == 400
    assert "charisma" in response.json()["stats"]


def test_a_bad_patch_changes_nothing(story, as_user):
    stat = bounded_int(story.force.system)
    before = dict(story.character.stats)

    response = as_user(story.alice).patch(
        f"/api/characters/{story.character.pk}/",
        {"rank": "Colonel", "stats": {stat.name: stat.max + 3}},
        format="json",
    )

    story.character.refresh_from_db()
    assert response.status_code == 400
    assert (story.character.rank, story.character.stats) == ("Sergeant", before)
    assert not ServiceRecordEntry.objects.exists()


def test_a_patch_merges_stats_and_writes_the_service_record(story, as_user):
    stat = bounded_int(story.force.system)

    response = as_user(story.alice).patch(
        f"/api/characters/{story.character.pk}/", {"stats": {stat.name: stat.min}}, format="json"
    )

    entry = story.character.service_record.get()
    assert response.json()["stats"][stat.name] == stat.min
    assert (entry.cause, entry.user) == (EntryCause.HAND_EDIT, story.alice)


def test_a_unit_of_another_force_is_a_400(story, as_user):
    other = UnitFactory(force=ForceFactory(owner=story.alice))

    response = as_user(story.alice).post(
        "/api/characters/",
        {"force": story.force.pk, "name": "Tom", "unit": other.pk},
        format="json",
    )

    assert response.status_code == 400
    assert "unit" in response.json()


def test_characters_filter_by_campaign_status_and_system(story, as_user):
    CharacterFactory(force=story.force, name="Old Ned", status="DEAD")
    CharacterFactory(force=ForceFactory(owner=story.alice, system="escarmouche"), name="Luc")
    client = as_user(story.alice)

    by_campaign = client.get(f"/api/characters/?campaign={story.campaign.pk}").json()
    dead = client.get("/api/characters/?status=DEAD").json()
    escarmouche = client.get("/api/characters/?system=escarmouche").json()

    assert {c["name"] for c in by_campaign["results"]} == {"Sgt. Gridley", "Old Ned"}
    assert [c["name"] for c in dead["results"]] == ["Old Ned"]
    assert [c["name"] for c in escarmouche["results"]] == ["Luc"]


def test_characters_can_be_searched_by_name(story, as_user):
    CharacterFactory(force=story.force, name="Private Jones")

    body = as_user(story.bob).get("/api/characters/?search=jones").json()

    assert [c["name"] for c in body["results"]] == ["Private Jones"]


@pytest.mark.parametrize("paging", ["", "&page=1"])
def test_the_page_size_is_capped(story, as_user, monkeypatch, paging):
    from config.pagination import CappedPageNumberPagination, KeysetPagination

    monkeypatch.setattr(KeysetPagination, "max_page_size", 2)
    monkeypatch.setattr(CappedPageNumberPagination, "max_page_size", 2)
    CharacterFactory.create_batch(3, force=story.force)

    body = as_user(story.alice).get(f"/api/characters/?page_size=100000{paging}").json()

    assert (body["count"], len(body["results"])) == (4, 2)


def test_the_service_record_lists_entries_oldest_first(story, as_user):
    client = as_user(story.alice)
    client.patch(f"/api/characters/{story.character.pk}/", {"rank": "Ensign"}, format="json")
    client.post(
        f"/api/characters/{story.character.pk}/retire/", {"note": "old wounds"}, format="json"
    )

    body = client.get(f"/api/characters/{story.character.pk}/service-record/").json()

    assert [e["cause"] for e in body["results"]] == ["HAND_EDIT", "RETIRED"]
    assert body["results"][1]["note"] == "old wounds"


def test_moving_to_a_unit_answers_with_the_new_unit(story, as_user):
    reserve = UnitFactory(force=story.force, name="Reserve")

    body = (
        as_user(story.alice)
        .post(f"/api/characters/{story.character.pk}/move/", {"unit": reserve.pk}, format="json")
        .json()
    )

    assert body["unit"] == {"id": reserve.pk, "name": "Reserve"}


def test_retiring_the_dead_is_a_400(story, as_user):
    Character.objects.filter(pk=story.character.pk).update(status="DEAD")

    response = as_user(story.alice).post(
        f"/api/characters/{story.character.pk}/retire/", {}, format="json"
    )

    assert response.status_code == 400
    assert "status" in response.json()


def test_a_force_keeps_to_its_campaigns_system(story, as_user):
    other = CampaignFactory(system="escarmouche")
    other.memberships.create(user=story.alice, role="PLAYER")

    response = as_user(story.alice).patch(
        f"/api/forces/{story.force.pk}/", {"campaign": other.pk}, format="json"
    )

    assert response.status_code == 400
    assert "campaign" in response.json()
