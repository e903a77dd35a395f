"""The chronicle printed with the game-night packet and the campaign report."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from battles.models import Battle
from tests.printing.parsing import assert_read_as_xml_and_printed_the_same

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


def test_every_section_of_the_packet_and_the_report_is_read_by_the_xml_parser(
    as_user, demo, monkeypatch
):
    """The packet (cover, rosters, cards, reference, labels, chronicle) and the report print
    from well-formed markup, each section exactly as WeasyPrint's HTML5 parser would print it."""
    from printing import render

    rendered: list[tuple[str, dict]] = []
    real = render.render_document

    def recording(family, context):
        rendered.append((family, context))
        return real(family, context)

    monkeypatch.setattr(render, "render_document", recording)
    battle = Battle.objects.get(campaign=demo["rencounter"])
    alice = get_user_model().objects.get(username="alice")
    olivia = get_user_model().objects.get(username="olivia")
    pdf_text(as_user(alice).get(f"/api/battles/{battle.pk}/packet.pdf"))
    pdf_text(as_user(olivia).get(f"/api/campaigns/{demo['rencounter'].pk}/report.pdf"))
    monkeypatch.setattr(render, "render_document", real)

    families = {family for family, _ in rendered}
    assert {"packet", "roster", "cards", "reference", "chronicle", "report"} <= families
    for family, context in rendered:
        assert_read_as_xml_and_printed_the_same(family, context)
