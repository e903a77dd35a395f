"""The post-battle pipeline on PostgreSQL and Redis with real worker processes: a battle
played through the API, duplicate delivery to two workers, and a worker SIGKILLed mid-task."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from battles.models import Battle, BattleStatus, PostBattleRoll
from battles.tasks import process_battle
from rosters.models import Character, EntryCause, ServiceRecordEntry
from tests.battles.conftest import fought_battle, make_cast
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
PROCESS_SECONDS = 30


def _status(battle_id: int) -> str:
    return Battle.objects.get(pk=battle_id).status


def _processed(battle_id: int) -> None:
    wait_for(
        lambda: _status(battle_id) == BattleStatus.PROCESSED,
        PROCESS_SECONDS,
        f"battle {battle_id} to be PROCESSED",
    )


def _assert_changed_exactly_once(battle_id: int) -> None:
    rows = PostBattleRoll.objects.filter(battle_id=battle_id)
    keys = Counter(rows.values_list("character_id", "procedure", "index"))
    assert keys and max(keys.values()) == 1
    # A figure may carry two battle entries ("Fought in", written at finish, and the fate the
    # worker applies, e.g. fell), but never the same entry twice.
    entries = Counter(
        ServiceRecordEntry.objects.filter(battle_id=battle_id).values_list(
            "character_id", "cause", "note"
        )
    )
    assert all(n == 1 for n in entries.values()), entries
    changed = {r.character_id for r in rows if r.result["changes"]}
    rolled = {c for c, cause, _ in entries if cause == EntryCause.ROLL}
    assert rolled == changed
    for row in rows:
        stats = Character.objects.get(pk=row.character_id).stats
        for change in row.result["changes"]:
            if change["kind"] == "stat":
                assert stats[change["field"]] == change["after"]


def _finish_through_the_api(cast: Any, battle: Battle) -> None:
    """alice reports the result, bob confirms it (consent): the rolls are queued."""
    response = cast.client(cast.alice).post(f"/api/battles/{battle.pk}/finish/")
    assert response.status_code == 202, response.content
    response = cast.client(cast.bob).post(f"/api/battles/{battle.pk}/confirm/")
    assert response.status_code == 202, response.content


def test_a_battle_played_through_the_api_is_processed_by_a_worker_process(
    start_worker: Callable[..., Any],
) -> None:
    start_worker()
    cast = make_cast()
    client = cast.client(cast.alice)
    body = {
        "campaign": cast.campaign.pk,
        "sides": [{"force": cast.red.pk}, {"force": cast.blue.pk}],
    }
    created = client.post("/api/battles/", body, format="json").json()
    url = f"/api/battles/{created['id']}"
    red, blue = (f["id"] for f in created["figures"][:1]), created["figures"][-1]["id"]
    actor = next(red)
    served = client.post(
        f"{url}/resolve/",
        {"check": "fire", "actor": actor, "target": blue, "params": {"skill": 12}},
        format="json",
    )
    typed = client.post(
        f"{url}/resolve/",
        {
            "check": "melee",
            "actor": actor,
            "target": blue,
            "params": {"attack_skill": 7, "parry_skill": 7},
            "dice": [1, 12, 9],
        },
        format="json",
    )
    assert (served.status_code, typed.status_code) == (201, 201)
    assert client.post(f"{url}/void/").status_code == 200
    sides = [
        {"side": s["id"], "result": r}
        for s, r in zip(created["sides"], ("WIN", "LOSS"), strict=True)
    ]
    assert client.post(f"{url}/result/", {"sides": sides}, format="json").status_code == 200

    assert client.post(f"{url}/finish/").status_code == 202
    assert cast.client(cast.bob).post(f"{url}/confirm/").status_code == 202
    _processed(created["id"])

    _assert_changed_exactly_once(created["id"])
    assert client.get(f"{url}/audit/").json()["all_match"] is True


def test_a_battle_queued_twice_to_two_workers_is_applied_once(
    start_worker: Callable[..., Any],
) -> None:
    start_worker("w1", pause=0.5)
    start_worker("w2", pause=0.5)
    cast = make_cast(size=6)
    battle = fought_battle(cast)

    _finish_through_the_api(cast, battle)
    process_battle.delay(battle_id=battle.pk)
    process_battle.delay(battle_id=battle.pk)
    _processed(battle.pk)

    _assert_changed_exactly_once(battle.pk)


def test_a_worker_killed_mid_processing_is_recovered_by_the_sweep(
    start_worker: Callable[..., Any],
) -> None:
    doomed = start_worker("doomed", pause=60)
    cast = make_cast()
    battle = fought_battle(cast)
    before = list(Character.objects.order_by("pk").values_list("status", "stats"))
    _finish_through_the_api(cast, battle)
    wait_for(
        lambda: _status(battle.pk) == BattleStatus.PROCESSING,
        PROCESS_SECONDS,
        "the doomed worker to claim the battle",
    )

    doomed.kill()

    assert _status(battle.pk) == BattleStatus.PROCESSING
    assert not PostBattleRoll.objects.filter(battle=battle).exists()
    assert list(Character.objects.order_by("pk").values_list("status", "stats")) == before
    start_worker("rescuer")
    call_command("sweep_battles", "--stale-minutes", "0")
    _processed(battle.pk)
    _assert_changed_exactly_once(battle.pk)
