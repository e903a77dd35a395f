"""A Rencounter battle played through the API end to end, processed by a real Celery worker
(in-process, on the memory broker) rather than the eager inline runner."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun

from battles.models import Battle, BattleStatus, PostBattleRoll
from config.celery_app import app
from rosters.models import Character, EntryCause, ServiceRecordEntry
from tests.battles.conftest import make_cast

WAIT_SECONDS = 30


@pytest.fixture
def worker(settings: Any) -> Iterator[threading.Event]:
    """Run a real worker thread; the event is set each time it finishes a battle task."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    done = threading.Event()

    def finished(sender: Any = None, **kwargs: Any) -> None:
        if sender is not None and sender.name == "battles.process_battle":
            done.set()

    task_postrun.connect(finished, weak=False)
    try:
        with start_worker(
            app, perform_ping_check=False, pool="solo", concurrency=1, shutdown_timeout=10
        ):
            yield done
    finally:
        task_postrun.disconnect(finished)
        # Drop the override rather than "restore" a value: app.conf reads the Django setting
        # live, so a value read after the line above is already False and would pin every later
        # test in this process to the broker (their battles would wait FINISHED forever).
        app.conf.changes.pop("task_always_eager", None)


def _play(client: Any, battle: dict[str, Any]) -> int:
    """Fight three events (server dice, typed dice, one voided); return the wounded figure."""
    url = f"/api/battles/{battle['id']}"
    red = [f["id"] for f in battle["figures"] if f["side"] == battle["sides"][0]["id"]]
    blue = [f["id"] for f in battle["figures"] if f["side"] == battle["sides"][1]["id"]]
    fire = {"skill": 12, "weapon": "flintlock_musket"}
    served = client.post(
        f"{url}/resolve/",
        {"check": "fire", "actor": red[0], "target": blue[0], "params": fire},
        format="json",
    )
    assert served.status_code == 201, served.json()
    # attack 1 hits, parry 12 fails, damage 9 is a serious wound (2 points)
    typed = client.post(
        f"{url}/resolve/",
        {
            "check": "melee",
            "actor": red[1],
            "target": blue[1],
            "params": {"attack_skill": 7, "parry_skill": 7},
            "dice": [1, 12, 9],
        },
        format="json",
    )
    assert typed.status_code == 201, typed.json()
    mistake = client.post(
        f"{url}/resolve/",
        {
            "check": "melee",
            "actor": blue[2],
            "target": red[2],
            "dice": [1, 12, 12],
            "params": {"attack_skill": 7, "parry_skill": 7},
        },
        format="json",
    )
    assert mistake.status_code == 201
    assert client.post(f"{url}/void/").status_code == 200
    return blue[1]


def _finish(client: Any, battle: dict[str, Any], opponent: Any) -> None:
    """alice reports the result, bob (the other side) confirms it: the rolls are queued."""
    url = f"/api/battles/{battle['id']}"
    sides = [
        {"side": battle["sides"][0]["id"], "result": "WIN", "victory_points": 3},
        {"side": battle["sides"][1]["id"], "result": "LOSS"},
    ]
    assert client.post(f"{url}/result/", {"sides": sides}, format="json").status_code == 200
    assert client.post(f"{url}/finish/").status_code == 202
    assert opponent.post(f"{url}/confirm/").status_code == 202


@pytest.mark.django_db(transaction=True)
def test_a_battle_played_through_the_api_is_processed_by_a_real_worker(worker: Any) -> None:
    # Arrange
    cast = make_cast()
    client = cast.client(cast.alice)
    created = client.post(
        "/api/battles/",
        {"campaign": cast.campaign.pk, "sides": [{"force": cast.red.pk}, {"force": cast.blue.pk}]},
        format="json",
    ).json()
    wounded = _play(client, created)

    # Act
    _finish(client, created, cast.client(cast.bob))
    assert worker.wait(WAIT_SECONDS), "the worker never finished the battle"

    # Assert
    battle = Battle.objects.get(pk=created["id"])
    assert battle.status == BattleStatus.PROCESSED
    assert client.get(f"/api/battles/{battle.pk}/").json()["seed"] == battle.seed
    _assert_characters_follow_the_ledger(battle, wounded)
    assert client.get(f"/api/battles/{battle.pk}/audit/").json()["all_match"] is True


def _assert_characters_follow_the_ledger(battle: Battle, wounded_figure: int) -> None:
    rows = list(PostBattleRoll.objects.filter(battle=battle))
    wounded = battle.figures.get(pk=wounded_figure)
    assert wounded.state["wounds"] == 2
    assert any(r.character_id == wounded.character_id and r.procedure == "aftermath" for r in rows)
    for row in rows:
        character = Character.objects.get(pk=row.character_id)
        for change in row.result["changes"]:
            if change["kind"] == "stat":
                assert character.stats[change["field"]] == change["after"]
            if change["kind"] == "permanent_wound":
                assert change["after"] in character.permanent_wounds
    changed = {r.character_id for r in rows if r.result["changes"]}
    entries = ServiceRecordEntry.objects.filter(battle_id=battle.pk, cause=EntryCause.ROLL)
    assert sorted(e.character_id for e in entries) == sorted(changed)
