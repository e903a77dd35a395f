"""Campaign reports: the league table, the latest round and the battles with their outcomes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle, BattleEvent, BattleSide
from battles.services import battle_process
from league.models import Pairing, Round, Winner
from printing.models import PrintJob
from tests.battles.conftest import finished, make_cast
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(db):
    """Brandywine: round 1 settled (alice beat bob 12–4, dave had the bye), one battle fought
    and processed with two logged checks."""
    cast = make_cast()
    battle = finished(cast)
    for seq, outcome in ((1, "hit"), (2, "miss")):
        BattleEvent.objects.create(battle=battle, seq=seq, check_name="fire", outcome=outcome)
    BattleEvent.objects.create(battle=battle, seq=3, check_name="fire", outcome="hit", voided=True)
    battle_process(battle_id=battle.pk)
    round_ = Round.objects.create(campaign=cast.campaign, number=1)
    alice, bob, dave = (
        cast.campaign.memberships.get(user=u) for u in (cast.alice, cast.bob, cast.dave)
    )
    Pairing.objects.create(
        round=round_,
        home=alice,
        away=bob,
        winner=Winner.HOME,
        home_vp=12,
        away_vp=4,
        confirmed_by_organiser=True,
        battle=battle,
    )
    Pairing.objects.create(round=round_, home=dave, table=2)
    return cast, battle


def _text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    return " ".join(page_text(p) for p in open_pdf(response.content).pages)


def test_the_report_shows_standings_the_latest_round_and_the_battle(league):
    cast, _ = league

    text = _text(cast.client(cast.bob).get(f"/api/campaigns/{cast.campaign.pk}/report.pdf"))

    assert "Brandywine" in text and "Standings" in text
    assert text.index("alice") < text.index("dave") < text.index("bob")  # 3, 3 (bye), 0 points
    assert "Round 1" in text and "12–4 (alice)" in text and "bye" in text
    assert "Skirmish at the ford" in text and "Red (alice): Win" in text
    assert "fire: hit ×1" in text and "fire: miss ×1" in text  # the voided hit left out
    assert "2 checks" in text.lower()


def test_the_report_lists_each_characters_post_battle_outcomes(league):
    cast, battle = league
    rolls = list(battle.ledger.select_related("character"))

    text = _text(cast.client(cast.olivia).get(f"/api/campaigns/{cast.campaign.pk}/report.pdf"))

    assert rolls, "the processed battle has post-battle rolls"
    for roll in rolls:
        assert roll.character.name in text


def test_eve_the_stranger_gets_no_report(league):
    cast, _ = league

    response = cast.client(cast.eve).get(f"/api/campaigns/{cast.campaign.pk}/report.pdf")

    assert response.status_code == 404


def test_a_report_of_every_battle_of_a_long_campaign_is_a_print_job(league, monkeypatch):
    monkeypatch.setattr("printing.apis.REPORT_BATTLES_IN_REQUEST", 0)
    cast, _ = league

    response = cast.client(cast.olivia).get(f"/api/campaigns/{cast.campaign.pk}/report.pdf?all=1")

    assert response.status_code == 202
    assert PrintJob.objects.get(pk=response.json()["id"]).kind == PrintJob.Kind.REPORT


def test_the_report_reads_the_same_number_of_queries_for_one_battle_or_three(league):
    from printing.jobs import build_document

    cast, _ = league
    params = {"campaign": cast.campaign.pk}
    with CaptureQueriesContext(connection) as one:
        build_document(PrintJob.Kind.REPORT, params, cast.olivia)
    for n in range(2):
        more = Battle.objects.create(
            campaign=cast.campaign,
            system="rencounter",
            scenario=f"Raid {n}",
            status=Battle.Status.FINISHED,
        )
        for index, force in enumerate((cast.red, cast.blue)):
            BattleSide.objects.create(battle=more, index=index, force=force)
        BattleEvent.objects.create(battle=more, seq=1, check_name="melee", outcome="win")
    with CaptureQueriesContext(connection) as three:
        build_document(PrintJob.Kind.REPORT, params, cast.olivia)

    assert len(three) == len(one)
