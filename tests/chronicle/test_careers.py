"""Careers and obituaries: from the service record, each sentence citing its rows."""

from __future__ import annotations

import pytest

from battles.models import PostBattleRoll
from chronicle.careers import character_story
from chronicle.citations import missing
from rosters.models import Character, EntryCause, ServiceRecordEntry
from tests.chronicle.conftest import RAW_KEY, fight, finish

pytestmark = pytest.mark.django_db


def test_every_demo_figure_has_a_career_whose_sentences_cite_real_rows(demo):
    for character in Character.objects.filter(force__campaign__club__slug="demo"):
        story = character_story(character)
        sentences = list(story.sentences())

        assert [s.title for s in story.sections] == ["Career"]
        assert all(s.cites for s in sentences)
        assert missing(c for s in sentences for c in s.cites) == []
        assert not any(RAW_KEY.search(s.text) for s in sentences)


def test_a_career_tells_the_battle_the_figure_fought_in(demo):
    gridley = Character.objects.get(name="Gridley")

    texts = [s.text for s in character_story(gridley).sentences()]

    assert any(t.startswith("Gridley fought in Demo: the fight at the ford") for t in texts)


def test_a_career_tells_the_post_battle_rolls_citing_the_ledger(demo):
    entry = ServiceRecordEntry.objects.filter(cause=EntryCause.ROLL).order_by("pk").first()
    rolls = PostBattleRoll.objects.filter(character=entry.character, battle_id=entry.battle_id)

    story = character_story(entry.character)

    told = next(s for s in story.sentences() if ("service_entry", entry.pk) in s.cites)
    assert {("post_battle_roll", r.pk) for r in rolls} <= set(told.cites)
    assert told.text.rstrip(".") in entry.note


def test_a_figure_killed_in_battle_has_an_obituary(demo):
    battle = fight(demo["rencounter"], "The last stand at the mill")
    victim = battle.figures.filter(side__index=1).order_by("pk").first()
    finish(battle, [{"figure": victim.pk, "status": "dead"}])
    character = Character.objects.get(pk=victim.character_id)
    assert character.status == Character.Status.DEAD

    story = character_story(character)

    assert [s.title for s in story.sections] == ["Obituary", "Career"]
    obituary = story.sections[0].sentences
    assert (
        obituary[0].text == f"{character.name} fell in The last stand at the mill on 14 July 1643."
    )
    assert any(t.text.startswith(f"{character.name} served in 2 battles") for t in obituary)
    assert missing(c for s in story.sentences() for c in s.cites) == []
