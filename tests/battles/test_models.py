"""Database rules on battles: valid statuses, one event per number, one figure per character."""

from __future__ import annotations

import hashlib

import pytest
from django.db import IntegrityError, transaction

from battles.models import Battle, BattleEvent, BattleFigure, BattleStatus


def test_a_battle_refuses_an_unknown_status(battle: Battle) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=battle.pk).update(status="LOST")


def test_a_processing_battle_must_say_when_it_was_claimed(battle: Battle) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.PROCESSING, claimed_at=None)


def test_two_events_cannot_share_a_number(battle: Battle) -> None:
    BattleEvent.objects.create(battle=battle, seq=1, check_name="action")

    with pytest.raises(IntegrityError), transaction.atomic():
        BattleEvent.objects.create(battle=battle, seq=1, check_name="fire")


def test_a_character_fights_once_per_battle(battle: Battle) -> None:
    figure = battle.figures.exclude(character=None).first()

    with pytest.raises(IntegrityError), transaction.atomic():
        BattleFigure.objects.create(
            battle=battle, side=figure.side, character=figure.character, name="double", stats={}
        )


def test_the_seed_hash_commits_to_the_seed(battle: Battle) -> None:
    assert hashlib.sha256(battle.seed.encode()).hexdigest() == battle.seed_sha256
    assert len(battle.seed) == 64


def test_an_event_is_never_rewritten_only_voided(battle: Battle) -> None:
    event = BattleEvent.objects.create(battle=battle, seq=1, check_name="action", outcome="acts")

    BattleEvent.objects.filter(pk=event.pk).update(voided=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        BattleEvent.objects.filter(pk=event.pk).update(outcome="routs")

    assert BattleEvent.objects.get(pk=event.pk).outcome == "acts"


@pytest.mark.parametrize("column", ["outcome", "kind", "prev_hash"])
def test_the_append_only_trigger_survives_every_migration_of_the_event_table(
    battle: Battle, column: str
) -> None:
    # SQLite drops a table's triggers when a migration rebuilds it (new event kinds, the hash
    # chain's column): the last such migration must put the trigger back, prev_hash included.
    event = BattleEvent.objects.create(battle=battle, seq=1, check_name="action", outcome="acts")
    value = {"outcome": "routs", "kind": "VOID", "prev_hash": "0" * 64}[column]

    with pytest.raises(IntegrityError), transaction.atomic():
        BattleEvent.objects.filter(pk=event.pk).update(**{column: value})
