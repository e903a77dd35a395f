"""The chronicle printed with the game-night packet and the campaign report."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from battles.models import Battle

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    pages = PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def test_the_game_night_packet_ends_with_the_campaign_chronicle(as_user, demo):
    battle = Battle.objects.get(campaign=demo["rencounter"])
    alice = get_user_model().objects.get(username="alice")

    text = pdf_text(as_user(alice).get(f"/api/battles/{battle.pk}/packet.pdf"))

    assert "The campaign's chronicle so far" in text  # on the cover's contents
    assert "The chronicle · Rencounter" in text
    assert "Gridley's Company won." in text  # the latest battle report


def test_the_campaign_report_carries_the_chronicle(as_user, demo):
    campaign = demo["rencounter"]
    olivia = get_user_model().objects.get(username="olivia")

    text = pdf_text(as_user(olivia).get(f"/api/campaigns/{campaign.pk}/report.pdf"))

    assert "Campaign report" in text
    assert "The chronicle · Rencounter" in text
    assert "After round 1," in text
