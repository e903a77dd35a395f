"""The chronicle pages: members read them, strangers get 404; the players of a battle (and only
they) write their own paragraph beside its report."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.models import Battle
from chronicle.models import ReportParagraph
from rosters.models import Character
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def user(name: str):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def battle(demo) -> Battle:
    return Battle.objects.get(campaign=demo["rencounter"])


def as_(client, name: str):
    client.force_login(user(name) if name != "charlie" else UserFactory(username="charlie"))
    return client


@pytest.mark.parametrize("name", ["alice", "bob", "carol", "olivia"])
def test_members_read_the_chronicle_with_links_to_reports_and_careers(client, demo, battle, name):
    campaign = demo["rencounter"]

    page = as_(client, name).get(reverse("campaign-chronicle", args=[campaign.pk]))

    assert page.status_code == 200
    html = page.content.decode()
    assert "Demo: the fight at the ford: Gridley&#x27;s Company beat The Grey Riders." in html
    assert reverse("battle-report", args=[battle.pk]) in html
    gridley = Character.objects.get(name="Gridley")
    assert reverse("character-story", args=[gridley.pk]) in html


def test_a_stranger_gets_404_for_every_chronicle_page(client, demo, battle):
    gridley = Character.objects.get(name="Gridley")
    as_(client, "charlie")

    for url in (
        reverse("campaign-chronicle", args=[demo["rencounter"].pk]),
        reverse("campaign-chronicle-pdf", args=[demo["rencounter"].pk]),
        reverse("battle-report", args=[battle.pk]),
        reverse("character-story", args=[gridley.pk]),
    ):
        assert client.get(url).status_code == 404, url


def test_nobody_signed_in_is_sent_to_sign_in(client, demo):
    page = client.get(reverse("campaign-chronicle", args=[demo["rencounter"].pk]))

    assert page.status_code == 302
    assert reverse("account_login") in page["Location"]


def test_a_player_of_the_battle_adds_a_paragraph_shown_beside_the_report(client, battle):
    url = reverse("battle-report", args=[battle.pk])
    as_(client, "bob")

    answer = client.post(url, {"text": "The Riders held the ford till dusk."})
    again = client.post(url, {"text": "The Riders held the ford till dusk."})  # a double tap

    assert answer.status_code == again.status_code == 302
    assert ReportParagraph.objects.get(battle=battle).author == user("bob")
    html = client.get(url).content.decode()
    assert "The Riders held the ford till dusk." in html
    assert "(yours), written by the player" in html


@pytest.mark.parametrize("name", ["carol", "olivia"])
def test_a_member_who_did_not_fight_reads_the_report_but_cannot_write(client, battle, name):
    url = reverse("battle-report", args=[battle.pk])
    as_(client, name)

    page = client.get(url)
    refused = client.post(url, {"text": "I was there in spirit."})

    assert page.status_code == 200
    assert "Save my paragraph" not in page.content.decode()
    assert refused.status_code == 404
    assert not ReportParagraph.objects.exists()


def test_a_paragraph_too_long_is_refused_next_to_the_field_and_nothing_is_saved(client, battle):
    as_(client, "alice")

    page = client.post(reverse("battle-report", args=[battle.pk]), {"text": "x" * 2001})

    assert page.status_code == 200
    assert "at most 2000 characters" in page.content.decode()
    assert not ReportParagraph.objects.exists()


def test_an_empty_paragraph_takes_the_players_own_down(client, battle):
    url = reverse("battle-report", args=[battle.pk])
    as_(client, "alice")
    client.post(url, {"text": "Gridley's finest hour."})

    client.post(url, {"text": ""})

    assert not ReportParagraph.objects.exists()


def test_the_chronicle_pdf_renders_the_story_reports_and_paragraphs(client, demo, battle):
    import io

    from pypdf import PdfReader

    as_(client, "alice").post(
        reverse("battle-report", args=[battle.pk]), {"text": "Gridley's finest hour."}
    )

    pdf = client.get(reverse("campaign-chronicle-pdf", args=[demo["rencounter"].pk]))

    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    text = " ".join(text.split())
    assert "Rencounter demo campaign" in text
    assert "Battle reports" in text
    assert "Gridley's Company won." in text
    assert "Gridley's finest hour." in text
    assert "in the player's own words" in text
