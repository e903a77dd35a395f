"""The chronicle's read endpoints: members read, strangers get 404, every sentence cites."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from chronicle.citations import missing
from chronicle.models import ReportParagraph
from rosters.models import Character
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def cites(data: dict) -> list[tuple[str, int]]:
    return [
        (c["kind"], c["id"])
        for section in data["sections"]
        for sentence in section["sentences"]
        for c in sentence["cites"]
    ]


def test_a_member_reads_the_campaign_chronicle_with_its_battles(as_user, demo):
    campaign = demo["rencounter"]
    alice = get_user_model().objects.get(username="alice")

    data = as_user(alice).get(f"/api/campaigns/{campaign.pk}/chronicle/").json()

    assert data["title"] == campaign.name
    assert [b["name"] for b in data["battles"]] == ["Demo: the fight at the ford"]
    assert cites(data) and missing(cites(data)) == []


def test_the_battle_report_comes_with_the_players_paragraphs_apart(as_user, demo):
    battle = Battle.objects.get(campaign=demo["rencounter"])
    bob = get_user_model().objects.get(username="bob")
    ReportParagraph.objects.create(battle=battle, author=bob, text="We held the ford.")

    data = as_user(bob).get(f"/api/battles/{battle.pk}/report/").json()

    assert data["sections"][0]["title"] == "The forces"
    assert data["paragraphs"][0]["author"] == "bob"
    assert data["paragraphs"][0]["text"] == "We held the ford."
    assert missing(cites(data)) == []


def test_a_character_career_reads_from_the_api(as_user, demo):
    gridley = Character.objects.get(name="Gridley")

    data = as_user(gridley.force.owner).get(f"/api/characters/{gridley.pk}/career/").json()

    assert data["sections"][0]["title"] == "Career"
    assert missing(cites(data)) == []


def test_a_stranger_gets_404_from_every_chronicle_endpoint(as_user, demo):
    battle = Battle.objects.get(campaign=demo["rencounter"])
    gridley = Character.objects.get(name="Gridley")
    client = as_user(UserFactory(username="charlie"))

    for url in (
        f"/api/campaigns/{demo['rencounter'].pk}/chronicle/",
        f"/api/battles/{battle.pk}/report/",
        f"/api/characters/{gridley.pk}/career/",
    ):
        assert client.get(url).status_code == 404, url


def test_the_schema_documents_the_chronicle_endpoints(as_user, demo):
    alice = get_user_model().objects.get(username="alice")

    schema = as_user(alice).get("/api/schema/", {"format": "json"}).json()

    for path in (
        "/api/campaigns/{id}/chronicle/",
        "/api/battles/{id}/report/",
        "/api/characters/{id}/career/",
    ):
        assert path in schema["paths"], path
    report = schema["components"]["schemas"]["BattleReport"]
    assert "paragraphs" in report["properties"]
