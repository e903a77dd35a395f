"""Structured logs: each battle's processing is one line with battle, characters, rolls and
duration, and both formatters carry every structured field."""

from __future__ import annotations

import json
import logging

import pytest

from battles.models import BattleStatus
from config.logs import JsonFormatter, KeyValueFormatter
from tests.battles.conftest import fought_battle
from tests.consent import finish_agreed

pytestmark = pytest.mark.django_db


def _record(**extra):
    record = logging.makeLogRecord(
        {
            "name": "muster.battles",
            "levelname": "INFO",
            "levelno": logging.INFO,
            "msg": "battle.processed",
        }
    )
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def test_the_json_formatter_writes_one_object_with_the_structured_fields():
    line = JsonFormatter().format(_record(battle=7, characters=[1, 2], rolls=5, duration_ms=3.2))

    entry = json.loads(line)
    assert entry["message"] == "battle.processed"
    assert entry["logger"] == "muster.battles"
    assert (entry["battle"], entry["characters"], entry["rolls"]) == (7, [1, 2], 5)
    assert entry["duration_ms"] == 3.2


def test_the_key_value_formatter_writes_key_value_pairs():
    line = KeyValueFormatter().format(_record(battle=7, characters=[1, 2], note="two words"))

    assert "battle.processed battle=7 characters=[1, 2]" in line.replace("[1,2]", "[1, 2]")
    assert 'note="two words"' in line


def test_processing_a_battle_logs_one_structured_line(
    cast, caplog, django_capture_on_commit_callbacks
):
    battle = fought_battle(cast)
    caplog.set_level(logging.INFO, logger="muster.battles")

    with django_capture_on_commit_callbacks(execute=True):
        finish_agreed(battle)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.PROCESSED
    [record] = [r for r in caplog.records if r.getMessage() == "battle.processed"]
    characters = sorted(
        battle.figures.exclude(character=None).values_list("character_id", flat=True)
    )
    assert record.battle == battle.pk
    assert record.characters == characters
    assert record.rolls == battle.ledger.count() > 0
    assert record.duration_ms >= 0


def test_a_broker_outage_at_finish_is_logged_not_raised(
    cast, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from battles import tasks

    def broker_down(**kwargs):
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    battle = fought_battle(cast)
    monkeypatch.setattr(tasks.process_battle, "delay", broker_down)

    with django_capture_on_commit_callbacks(execute=True):
        finish_agreed(battle)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    [record] = [r for r in caplog.records if r.getMessage() == "battle.queue_failed"]
    assert record.battle_id == battle.pk and "refused" in record.error
