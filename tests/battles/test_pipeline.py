"""The post-battle pipeline: claim, ledger, changes applied once, the sweep."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db.utils import IntegrityError
from django.utils import timezone

from battles import selectors, services
from battles.errors import BattleConflict
from battles.models import Battle, BattleStatus, PostBattleRoll
from battles.services import pipeline
from rosters.models import Character, CharacterStatus, EntryCause, ServiceRecordEntry
from tests.battles.conftest import Cast, finished


def _entries(battle: Battle) -> Counter[int]:
    return Counter(
        ServiceRecordEntry.objects.filter(battle_id=battle.pk).values_list(
            "character_id", flat=True
        )
    )


def _characters() -> dict[int, tuple[Any, ...]]:
    return {c.pk: (c.status, c.stats, c.permanent_wounds) for c in Character.objects.all()}


def test_processing_writes_the_ledger_and_marks_the_battle_processed(cast: Cast) -> None:
    battle = finished(cast)

    assert services.battle_process(battle_id=battle.pk) is True

    battle.refresh_from_db()
    assert battle.status == BattleStatus.PROCESSED and battle.processed_at is not None
    procedures = set(battle.ledger.values_list("procedure", flat=True))
    assert {"aftermath", "improvement"} <= procedures


def test_a_figure_killed_in_battle_dies_on_the_roster(cast: Cast) -> None:
    battle = finished(cast)
    dead = battle.figures.get(final_status="dead").character

    services.battle_process(battle_id=battle.pk)

    dead.refresh_from_db()
    assert dead.status == CharacterStatus.DEAD
    entry = ServiceRecordEntry.objects.get(
        character=dead, battle_id=battle.pk, after={"status": "DEAD"}
    )
    assert entry.cause == EntryCause.BATTLE


def test_running_the_task_twice_in_a_row_changes_each_character_once(cast: Cast) -> None:
    battle = finished(cast)
    services.battle_process(battle_id=battle.pk)
    after_first, entries, rows = _characters(), _entries(battle), battle.ledger.count()

    second = services.battle_process(battle_id=battle.pk)

    assert second is False
    assert _characters() == after_first
    assert _entries(battle) == entries and all(n <= 2 for n in entries.values())
    assert battle.ledger.count() == rows


def test_a_late_worker_whose_claim_was_swept_changes_nothing(cast: Cast) -> None:
    battle = finished(cast)
    late_token = services.battle_claim(battle_id=battle.pk)
    Battle.objects.filter(pk=battle.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    services.battles_sweep(stale_after=timedelta(minutes=10))
    services.battle_process(battle_id=battle.pk)  # the sweep's new worker
    after, entries = _characters(), _entries(battle)

    assert pipeline._process_claimed(battle.pk, late_token) is False

    assert _characters() == after and _entries(battle) == entries
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.PROCESSED


def test_a_crash_half_way_rolls_everything_back_and_the_sweep_recovers(
    cast: Cast, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle = finished(cast)
    before = _characters()
    real, calls = pipeline.rosters.character_update, []

    def crash_on_second(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) == 2:
            raise RuntimeError("worker lost")
        return real(**kwargs)

    monkeypatch.setattr(pipeline.rosters, "character_update", crash_on_second)
    with pytest.raises(RuntimeError):
        services.battle_process(battle_id=battle.pk)
    monkeypatch.setattr(pipeline.rosters, "character_update", real)

    assert _characters() == before and not battle.ledger.exists()
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.PROCESSING
    Battle.objects.filter(pk=battle.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    assert services.battles_sweep(stale_after=timedelta(minutes=10)) == [battle.pk]
    assert services.battle_process(battle_id=battle.pk) is True
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.PROCESSED


def test_the_sweep_leaves_fresh_claims_and_requeues_forgotten_finished_battles(cast: Cast) -> None:
    waiting = finished(cast)
    Battle.objects.filter(pk=waiting.pk).update(finished_at=timezone.now() - timedelta(hours=1))

    queued = services.battles_sweep(stale_after=timedelta(minutes=10))

    assert queued == [waiting.pk]
    services.battle_claim(battle_id=waiting.pk)
    assert services.battles_sweep(stale_after=timedelta(minutes=10)) == []


def test_the_ledger_refuses_a_duplicate_roll(cast: Cast) -> None:
    battle = finished(cast)
    services.battle_process(battle_id=battle.pk)
    row = battle.ledger.first()

    with pytest.raises(IntegrityError):
        PostBattleRoll.objects.create(
            battle=battle,
            character=row.character,
            procedure=row.procedure,
            index=row.index,
            outcome="x",
            result={},
        )


def test_each_wound_aftermath_shows_on_the_roster_with_its_healing_date(cast: Cast) -> None:
    battle = finished(cast)

    services.battle_process(battle_id=battle.pk)

    rows = list(battle.ledger.filter(procedure="aftermath"))
    assert len(rows) == 2  # the two wounded figures who lived through the battle
    for row in rows:
        character = Character.objects.get(pk=row.character_id)
        changes = {c["kind"]: c for c in row.result["changes"]}
        if "status" in changes:
            assert character.status == CharacterStatus.DEAD
        elif "recovers_on" in changes:
            assert character.status == CharacterStatus.RECOVERING
            assert str(selectors.character_recovers_on(character)) == "1777-10-11"
        else:
            assert character.status == CharacterStatus.ACTIVE


def test_finishing_twice_is_a_conflict(cast: Cast) -> None:
    battle = finished(cast)

    with pytest.raises(BattleConflict, match="already finished"):
        services.battle_finish(battle=battle, user=cast.olivia)


def test_career_changes_are_folded_from_earlier_ledger_rows(cast: Cast) -> None:
    battle = finished(cast)
    services.battle_process(battle_id=battle.pk)
    character = battle.figures.filter(character__isnull=False).first().character
    PostBattleRoll.objects.create(
        battle=battle,
        character=character,
        procedure="career",
        index=0,
        outcome="steps_up",
        result={"changes": [{"kind": "career", "field": "hero", "before": 1, "after": 2}]},
    )

    assert selectors.character_career(character) == {"hero": 2}
    assert selectors.character_career(character, before=battle) == {}
