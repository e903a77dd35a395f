"""Print endpoints: who may print what, options as query parameters, clear 400s, big jobs."""

from __future__ import annotations

import pytest

from printing.models import LabelPreset, PrintJob
from tests.factories import CharacterFactory
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db


def _pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return " ".join(page_text(p) for p in open_pdf(response.content).pages)


def test_alice_prints_labels_for_her_force(story, as_user):
    response = as_user(story.alice).get(f"/api/forces/{story.force.pk}/labels.pdf?preset=OL5275")

    assert "Sgt. Gridley" in _pdf_text(response)


def test_bob_reads_the_campaign_so_he_may_print_alices_roster(story, as_user):
    response = as_user(story.bob).get(f"/api/forces/{story.force.pk}/roster.pdf")

    text = _pdf_text(response)
    assert "Gridley's Company" in text and "Sgt. Gridley" in text and "Musketeers" in text


def test_charlie_the_stranger_cannot_print_alices_force(story, as_user):
    client = as_user(story.charlie)

    for document in ("labels", "cards", "roster"):
        assert client.get(f"/api/forces/{story.force.pk}/{document}.pdf").status_code == 404


def test_nobody_signed_in_prints_nothing(story, api_client):
    assert api_client.get(f"/api/forces/{story.force.pk}/cards.pdf").status_code in (401, 403)


def test_cards_come_at_the_asked_size_and_paper(story, as_user):
    response = as_user(story.alice).get(
        f"/api/forces/{story.force.pk}/cards.pdf?size=tarot&page=Letter&blanks=1"
    )

    assert "Sgt. Gridley" in _pdf_text(response)


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("preset=OL9999", "preset", "unknown label sheet"),
        ("preset=OL1575&start=155", "start", "between 1 and 154"),
        ("preset=OL32&calibration_x=-7", "calibration_x", "leave the page"),
        ("start=0", "start", ""),
    ],
)
def test_bad_sheet_options_are_a_clear_400(story, as_user, query, field, message):
    response = as_user(story.alice).get(f"/api/forces/{story.force.pk}/labels.pdf?{query}")

    assert response.status_code == 400
    assert message in str(response.json()[field])
    assert not PrintJob.objects.exists()


def test_a_users_own_preset_prints_and_anothers_is_unknown(story, as_user):
    preset = LabelPreset.objects.create(
        owner=story.alice,
        name="Club stock",
        page="A4",
        shape="round",
        width=25,
        height=25,
        columns=7,
        rows=10,
        left=10,
        top=10,
        pitch_x=27,
        pitch_y=27,
    )

    mine = as_user(story.alice).get(f"/api/forces/{story.force.pk}/labels.pdf?preset={preset.key}")
    theirs = as_user(story.bob).get(f"/api/forces/{story.force.pk}/labels.pdf?preset={preset.key}")

    assert "Sgt. Gridley" in _pdf_text(mine)
    assert theirs.status_code == 400 and "no label sheet" in str(theirs.json()["preset"])


def test_a_stored_preset_that_no_longer_validates_is_a_400(story, as_user):
    preset = LabelPreset.objects.create(  # written past clean(), e.g. by an old version
        owner=story.alice,
        name="Bad",
        page="A4",
        shape="round",
        width=25,
        height=25,
        columns=9,
        rows=10,
        left=10,
        top=10,
        pitch_x=20,
        pitch_y=27,
    )

    response = as_user(story.alice).get(
        f"/api/forces/{story.force.pk}/labels.pdf?preset={preset.key}"
    )

    assert response.status_code == 400 and "overlap" in str(response.json()["preset"])


def test_the_reference_sheet_names_the_campaigns_options(story, as_user):
    url = f"/api/systems/rencounter/reference.pdf?campaign={story.campaign.pk}"

    text = _pdf_text(as_user(story.alice).get(url))

    assert story.campaign.name in text and "Campaign options" in text


def test_an_unknown_system_has_no_reference_sheet(story, as_user):
    assert as_user(story.alice).get("/api/systems/chess/reference.pdf").status_code == 404


def test_a_stranger_cannot_name_a_campaign_on_the_reference_sheet(story, as_user):
    url = f"/api/systems/rencounter/reference.pdf?campaign={story.campaign.pk}"

    assert as_user(story.charlie).get(url).status_code == 404


def test_posted_figures_print_as_a_label_preview(story, as_user):
    body = {
        "system": "rencounter",
        "preset": "A4-20MM",
        "figures": [{"name": "Cpl. Hobbs", "stats": {"fire": 7, "melee": 6}}],
    }

    response = as_user(story.charlie).post("/api/print/labels.pdf", body, format="json")

    assert "Cpl. Hobbs" in _pdf_text(response) and "F 7 M 6" in _pdf_text(response)


def test_posted_stats_outside_the_schema_are_a_400(story, as_user):
    body = {"system": "rencounter", "figures": [{"name": "Cpl. Hobbs", "stats": {"fire": 99}}]}

    response = as_user(story.alice).post("/api/print/labels.pdf", body, format="json")

    assert response.status_code == 400 and "fire" in str(response.json()["figures"])


def test_posted_figures_print_as_a_card_preview(story, as_user):
    body = {
        "system": "rencounter",
        "size": "mini",
        "figures": [{"name": "Cpl. Hobbs", "stats": {"weapons": ["javelin"]}}],
    }

    response = as_user(story.alice).post("/api/print/cards.pdf", body, format="json")

    assert "Javelin" in _pdf_text(response)


def test_wound_stickers_fill_one_sheet_by_default(story, as_user):
    response = as_user(story.alice).post(
        "/api/print/stickers.pdf", {"preset": "OL5275"}, format="json"
    )

    words = _pdf_text(response).split()
    assert (words.count("MW"), words.count("SW"), words.count("CW")) == (36, 36, 36)


def test_an_unknown_wound_code_is_a_400(story, as_user):
    response = as_user(story.alice).post(
        "/api/print/stickers.pdf", {"counts": {"XW": 3}}, format="json"
    )

    assert response.status_code == 400 and "XW" in str(response.json()["counts"])


def test_more_than_two_hundred_labels_become_a_print_job(
    story, as_user, django_capture_on_commit_callbacks
):
    CharacterFactory.create_batch(200, force=story.force)
    client = as_user(story.alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(f"/api/forces/{story.force.pk}/labels.pdf?preset=A4-12MM")
    status = client.get(response.json()["url"]).json()
    download = client.get(status["download"])

    assert response.status_code == 202
    assert status["status"] == "DONE" and status["progress"] == 100 and status["pages_done"] == 1
    assert b"".join(download.streaming_content).startswith(b"%PDF")


def test_only_the_requester_sees_a_print_job(story, as_user):
    job = PrintJob.objects.create(
        kind="ROSTER", parameters={}, idempotency_key="k", created_by=story.alice
    )

    assert as_user(story.bob).get(f"/api/print-jobs/{job.pk}/").status_code == 404
    assert as_user(story.alice).get(f"/api/print-jobs/{job.pk}/").json()["status"] == "QUEUED"
    assert as_user(story.alice).get(f"/api/print-jobs/{job.pk}/download").status_code == 409
