"""Redis stops while a battle is finished: the result is saved, the player sees the battle
waiting for its rolls (202, not a 500), and the sweep queues it once Redis is back.

Runs on the test's own Redis (port 6391), never the machine's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from battles.models import Battle, BattleStatus, PostBattleRoll
from tests.battles.conftest import fought_battle, make_cast
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _status(battle: Battle) -> str:
    return Battle.objects.get(pk=battle.pk).status


def test_a_battle_finished_while_redis_is_down_is_saved_and_queued_by_the_sweep_later(
    on_own_redis: Any, start_worker: Callable[..., Any], client: Any
) -> None:
    cast = make_cast()
    battle = fought_battle(cast)
    on_own_redis.stop()

    reported = cast.client(cast.alice).post(f"/api/battles/{battle.pk}/finish/")
    finished = cast.client(cast.bob).post(f"/api/battles/{battle.pk}/confirm/")  # consent
    client.force_login(cast.alice)
    page = client.get(f"/battles/{battle.pk}/after/")
    health = client.get("/healthz")

    assert reported.status_code == 202, reported.content[:300]
    assert finished.status_code == 202, finished.content[:300]
    assert finished.json()["status"] == BattleStatus.FINISHED
    assert page.status_code == 200
    assert b"waiting for the post-battle rolls" in page.content
    assert health.status_code == 503 and health.json()["broker"]["ok"] is False
    assert _status(battle) == BattleStatus.FINISHED
    assert not PostBattleRoll.objects.filter(battle=battle).exists()

    on_own_redis.start()
    start_worker("after-outage")
    call_command("sweep_battles", "--grace-seconds", "0")
    wait_for(lambda: _status(battle) == BattleStatus.PROCESSED, 30, "the swept battle")

    keys = list(
        PostBattleRoll.objects.filter(battle=battle).values_list(
            "character_id", "procedure", "index"
        )
    )
    assert keys and len(keys) == len(set(keys))
