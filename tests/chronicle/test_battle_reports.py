"""Battle reports: every sentence cites rows that exist, the same rows give the same text, a
rare roll is called out with its exact odds, and no raw key shows."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battles.models import Battle
from chronicle.citations import missing
from chronicle.reports import RARE, battle_report, rarity
from rules.system import all_systems
from tests.chronicle.conftest import RAW_KEY, rare_fight

pytestmark = pytest.mark.django_db


def test_every_demo_battle_of_every_system_has_a_report_whose_sentences_all_cite_real_rows(demo):
    battles = list(Battle.objects.order_by("pk"))
    assert sorted(b.system for b in battles) == sorted(s.key for s in all_systems())

    for battle in battles:
        report = battle_report(battle)
        sentences = list(report.sentences())

        assert [s.title for s in report.sections][:3] == [
            "The forces",
            "Decisive moments",
            "The result",
        ]
        assert all(s.cites for s in sentences), battle.system
        assert missing(c for s in sentences for c in s.cites) == []


def test_a_report_cites_the_post_battle_rolls_that_changed_a_figure(demo):
    battle = Battle.objects.get(system="rencounter")

    cited = {c for s in battle_report(battle).sentences() for c in s.cites}

    changed = [r for r in battle.ledger.all() if r.result.get("changes")]
    assert changed
    assert {("post_battle_roll", r.pk) for r in changed} <= cited


def test_the_same_rows_give_the_same_report(demo):
    for battle in Battle.objects.order_by("pk"):
        assert battle_report(battle).as_json() == battle_report(battle).as_json()


def test_no_report_holds_a_raw_key(demo):
    for battle in Battle.objects.order_by("pk"):
        for sentence in battle_report(battle).sentences():
            assert not RAW_KEY.search(sentence.text), sentence.text


def test_a_one_in_144_result_is_called_out_with_its_exact_odds(demo):
    battle = rare_fight(demo["escarmouche"])
    event = battle.events.get()

    assert rarity("escarmouche", event) == Fraction(1, 144) == RARE
    moments = next(s for s in battle_report(battle).sections if s.title == "Decisive moments")
    rare = [s for s in moments.sentences if "1 in 144" in s.text]
    assert len(rare) == 1
    assert rare[0].cites == (("battle_event", event.pk),)
    assert "Against the odds" in rare[0].text
    assert not RAW_KEY.search(rare[0].text)


def test_an_ordinary_roll_is_not_called_rare(demo):
    battle = rare_fight(demo["escarmouche"])
    event = battle.events.get()
    event.outcome = "attacker_hit"  # a commonplace result of the same fight

    assert rarity("escarmouche", event) is None
