"""Migrations 0003 and 0004 keep every battle processed before them auditable.

0003 gives every existing figure its character's id as its dice key, and 0004 marks every
existing battle as rolled with dice scheme 1: together, exactly the contexts and derivation
its dice were rolled with.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import Battle, BattleFigure, BattleStatus
from battles.services import battle_audit
from rules.dice import HMAC_SHA256
from tests.battles.conftest import fought_battle, make_cast
from tests.consent import finish_agreed

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("battles", "0002_event_log_append_only")]


def _latest() -> list[tuple[str, str]]:
    """Return the newest migration of every app (later migrations rebuild these tables too)."""
    loader = MigrationExecutor(connection).loader
    return loader.graph.leaf_nodes()


def _migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def test_upgrading_keeps_the_keys_and_scheme_an_old_battle_was_rolled_with(
    django_capture_on_commit_callbacks,
):
    cast = make_cast()
    battle = fought_battle(cast)
    Battle.objects.filter(pk=battle.pk).update(dice_scheme=HMAC_SHA256)  # as before 0004
    with django_capture_on_commit_callbacks(execute=True):
        finish_agreed(battle)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PROCESSED

    _migrate(BEFORE)  # the columns go, as on a database from before the key and the scheme
    _migrate(_latest())

    battle.refresh_from_db()
    figures = BattleFigure.objects.filter(battle=battle)
    assert figures.exists()
    assert all(f.dice_key == str(f.character_id) for f in figures if f.character_id)
    assert battle.dice_scheme == HMAC_SHA256
    report = battle_audit(battle=battle)
    assert report["ledger"] and report["all_match"] and report["dice_scheme"] == HMAC_SHA256
