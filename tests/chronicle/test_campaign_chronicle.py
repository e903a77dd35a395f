"""The campaign chronicle: league rounds (results, standings movement) and months of battles."""

from __future__ import annotations

import pytest

from chronicle.campaigns import campaign_chronicle
from chronicle.citations import missing
from league.models import Pairing
from tests.chronicle.conftest import RAW_KEY

pytestmark = pytest.mark.django_db


def test_every_demo_campaign_chronicle_cites_real_rows_and_holds_no_raw_key(demo):
    for campaign in demo.values():
        sentences = list(campaign_chronicle(campaign).sentences())

        assert sentences, campaign.system
        assert all(s.cites for s in sentences)
        assert missing(c for s in sentences for c in s.cites) == []
        assert not any(RAW_KEY.search(s.text) for s in sentences)


def test_the_league_round_tells_each_settled_result_and_who_leads(demo):
    story = campaign_chronicle(demo["rencounter"])
    round_one = next(s for s in story.sections if s.title == "Round 1")
    settled = [p for p in Pairing.objects.filter(round__number=1) if p.is_settled and p.away_id]

    results = [s for s in round_one.sentences if " beat " in s.text or "draw" in s.text]
    assert {c for s in results for c in s.cites} == {("pairing", p.pk) for p in settled}
    assert any(
        s.text.startswith("After round 1, ") and " leads with " in s.text
        for s in round_one.sentences
    )


def test_a_month_of_battles_names_the_victors_and_the_deadliest(demo):
    story = campaign_chronicle(demo["rencounter"])
    month = next(s for s in story.sections if s.title == "May 1643")
    texts = [s.text for s in month.sentences]

    assert "Demo: the fight at the ford: Gridley's Company beat The Grey Riders." in texts
    assert "Gridley and Ned Fletcher were the deadliest, with 1 kill each." in texts
