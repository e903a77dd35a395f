"""Game-night packets: both rosters, cards, the reference sheet and labels for new figures."""

from __future__ import annotations

import pytest

from league.models import Pairing, Round
from printing.models import LabelPrint, PrintJob
from tests.battles.conftest import make_cast, start_battle
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db


def _texts(response) -> list[str]:
    assert response.status_code == 200, response.content[:300]
    return [page_text(page) for page in open_pdf(response.content).pages]


@pytest.fixture
def cast(db):
    return make_cast()


def test_a_battle_packet_holds_both_rosters_cards_reference_and_labels(cast):
    battle = start_battle(cast)

    pages = _texts(cast.client(cast.alice).get(f"/api/battles/{battle.pk}/packet.pdf"))

    text = " ".join(pages)
    assert "game-night packet" in pages[0].lower() and "Skirmish at the ford" in pages[0]
    for figure in ("Red 1", "Red 3", "Blue 1", "Blue 3"):
        assert text.count(figure) >= 3  # roster, card and label
    assert "quick reference" in text and "Brandywine" in text
    assert "Base labels for 6 figures without one" in pages[0]


def test_printing_a_packet_records_the_labels_so_the_next_packet_skips_them(cast):
    battle = start_battle(cast)
    client = cast.client(cast.alice)

    client.get(f"/api/battles/{battle.pk}/packet.pdf")
    second = " ".join(_texts(client.get(f"/api/battles/{battle.pk}/packet.pdf")))

    assert LabelPrint.objects.filter(character__force__in=[cast.red, cast.blue]).count() == 6
    assert "every figure has one already" in second
    assert second.count("Red 1") == 2  # roster and card, no label this time


def test_force_labels_printed_through_muster_count_as_printed(cast):
    client = cast.client(cast.alice)

    client.get(f"/api/forces/{cast.red.pk}/labels.pdf")
    battle = start_battle(cast)
    cover = _texts(client.get(f"/api/battles/{battle.pk}/packet.pdf"))[0]

    assert "Base labels for 3 figures without one" in cover


def test_eve_the_stranger_gets_no_packet(cast):
    battle = start_battle(cast)

    assert cast.client(cast.eve).get(f"/api/battles/{battle.pk}/packet.pdf").status_code == 404


def test_a_bad_label_preset_is_a_400_and_records_nothing(cast):
    battle = start_battle(cast)

    response = cast.client(cast.alice).get(f"/api/battles/{battle.pk}/packet.pdf?preset=NOPE")

    assert response.status_code == 400 and "preset" in response.json()
    assert not LabelPrint.objects.exists()


def test_a_pairing_packet_brings_each_players_forces(cast):
    round_ = Round.objects.create(campaign=cast.campaign, number=1)
    alice, bob = (cast.campaign.memberships.get(user=u) for u in (cast.alice, cast.bob))
    pairing = Pairing.objects.create(round=round_, home=alice, away=bob, table=2)

    pages = _texts(cast.client(cast.bob).get(f"/api/pairings/{pairing.pk}/packet.pdf"))

    assert "alice v bob" in pages[0] and "round 1, table 2" in pages[0]
    text = " ".join(pages)
    assert "Red 2" in text and "Blue 2" in text and "Grey 1" not in text


def test_a_big_packet_becomes_one_print_job_and_the_worker_records_its_labels(cast, monkeypatch):
    monkeypatch.setattr("printing.apis.JOB_THRESHOLD", 4)
    battle = start_battle(cast)
    client = cast.client(cast.alice)

    first = client.get(f"/api/battles/{battle.pk}/packet.pdf")
    again = client.get(f"/api/battles/{battle.pk}/packet.pdf")

    assert first.status_code == again.status_code == 202
    assert first.json()["id"] == again.json()["id"]
    from printing.services import print_job_run

    assert print_job_run(job_id=first.json()["id"])
    job = PrintJob.objects.get(pk=first.json()["id"])
    assert job.status == PrintJob.Status.DONE and job.kind == PrintJob.Kind.PACKET
    assert LabelPrint.objects.filter(job=job).count() == 6
