"""Every document prints user text literally: markup in a name is text, never HTML.

(Wound stickers carry no user text: only the wound codes.)
"""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSide
from campaigns.models import Campaign
from tests.factories import CharacterFactory
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
CLOSER = "</div>"


@pytest.fixture
def hostile(story):
    """alice's force and her character carry markup in their names, as does the campaign."""
    CharacterFactory(force=story.force, name=SCRIPT)
    story.force.name = f"{CLOSER} Company"
    story.force.save()
    Campaign.objects.filter(pk=story.campaign.pk).update(name=f"{CLOSER} League {SCRIPT}")
    return story


def _text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    return " ".join(page_text(p).replace(" ", "") for p in open_pdf(response.content).pages)


def _literal(text: str, *needles: str) -> None:
    for needle in needles:
        assert needle.replace(" ", "") in text


@pytest.mark.parametrize(
    "url",
    [
        "/api/forces/{force}/labels.pdf?preset=AVERY5167",
        "/api/forces/{force}/cards.pdf",
        "/api/forces/{force}/roster.pdf",
    ],
)
def test_force_documents_print_markup_literally(hostile, as_user, url):
    response = as_user(hostile.alice).get(url.format(force=hostile.force.pk))

    _literal(_text(response), SCRIPT)


def test_the_roster_prints_a_force_name_with_a_closing_tag_literally(hostile, as_user):
    response = as_user(hostile.alice).get(f"/api/forces/{hostile.force.pk}/roster.pdf")

    _literal(_text(response), f"{CLOSER} Company")


def test_the_reference_sheet_prints_the_campaign_name_literally(hostile, as_user):
    response = as_user(hostile.alice).get(
        f"/api/systems/rencounter/reference.pdf?campaign={hostile.campaign.pk}"
    )

    _literal(_text(response), CLOSER, SCRIPT)


def test_the_packet_prints_markup_literally(hostile, as_user):
    battle = Battle.objects.create(
        campaign=hostile.campaign, system="rencounter", scenario=f"{SCRIPT} at the ford"
    )
    BattleSide.objects.create(battle=battle, index=0, force=hostile.force)

    response = as_user(hostile.alice).get(f"/api/battles/{battle.pk}/packet.pdf")

    _literal(_text(response), f"{SCRIPT} at the ford", f"{CLOSER} Company")


def test_the_campaign_report_prints_markup_literally(hostile, as_user):
    battle = Battle.objects.create(
        campaign=hostile.campaign,
        system="rencounter",
        scenario=SCRIPT,
        status=Battle.Status.FINISHED,
    )
    BattleSide.objects.create(battle=battle, index=0, force=hostile.force)

    response = as_user(hostile.olivia).get(f"/api/campaigns/{hostile.campaign.pk}/report.pdf")

    _literal(_text(response), f"{CLOSER} League", SCRIPT, f"{CLOSER} Company")


def test_posted_preview_cards_print_markup_literally(as_user, story):
    body = {"system": "rencounter", "figures": [{"name": SCRIPT, "unit": CLOSER}]}

    response = as_user(story.alice).post("/api/print/cards.pdf", body, format="json")

    _literal(_text(response), SCRIPT, CLOSER)
