"""Migration 0003 gives every existing figure its character's id as its dice key.

That is the context the figure's ledger was rolled with, so battles processed before the key
existed still pass the audit after the upgrade.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import BattleFigure, BattleStatus
from battles.services import battle_audit, battle_finish
from tests.battles.conftest import fought_battle, make_cast

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("battles", "0002_event_log_append_only")]
AFTER = [("battles", "0003_battlefigure_dice_key")]


def _migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def test_upgrading_keys_each_figure_by_its_character_and_the_old_ledger_still_audits(
    django_capture_on_commit_callbacks,
):
    cast = make_cast()
    battle = fought_battle(cast)
    with django_capture_on_commit_callbacks(execute=True):
        battle_finish(battle=battle, user=cast.alice)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PROCESSED

    _migrate(BEFORE)  # the column goes, as on a database from before the key
    _migrate(AFTER)

    figures = BattleFigure.objects.filter(battle=battle)
    assert figures.exists()
    assert all(f.dice_key == str(f.character_id) for f in figures if f.character_id)
    report = battle_audit(battle=battle)
    assert report["ledger"] and report["all_match"]
