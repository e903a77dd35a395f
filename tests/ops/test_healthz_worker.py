"""/healthz reports the worker heartbeat: "inline" in eager mode, its age with a broker, and
"degraded" (still 200: the site serves, the sweep catches up) when it is stale or missing."""

from __future__ import annotations

import time

import pytest

from config import health, heartbeat

pytestmark = pytest.mark.django_db


class MemoryRedis:
    """Just the two Redis calls the heartbeat makes."""

    def __init__(self) -> None:
        self.values: dict[str, bytes] = {}

    def set(self, key: str, value: str, ex: int) -> None:
        self.values[key] = value.encode()

    def get(self, key: str) -> bytes | None:
        return self.values.get(key)


@pytest.fixture
def with_broker(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = "redis://127.0.0.1:6379/15"
    store = MemoryRedis()
    monkeypatch.setattr(heartbeat, "_client", lambda: store)
    monkeypatch.setattr(health, "_broker", lambda: {"ok": True, "mode": "broker"})
    return store


def test_in_eager_mode_the_worker_is_reported_inline(client):
    body = client.get("/healthz").json()

    assert body["worker"] == {"ok": True, "mode": "inline"}
    assert body["status"] == "ok"


def test_a_fresh_heartbeat_is_reported_with_its_age(client, with_broker):
    heartbeat.heartbeat_write(now=time.time() - 5)

    response = client.get("/healthz")

    assert response.status_code == 200
    worker = response.json()["worker"]
    assert worker["ok"] is True
    assert 4 <= worker["heartbeat_age_seconds"] < 60
    assert response.json()["status"] == "ok"


def test_a_stale_heartbeat_makes_the_site_degraded_but_still_200(client, with_broker, settings):
    heartbeat.heartbeat_write(now=time.time() - settings.HEARTBEAT_STALE_SECONDS - 30)

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert "last heartbeat over" in response.json()["worker"]["error"]


def test_no_heartbeat_at_all_is_reported_as_such(client, with_broker):
    body = client.get("/healthz").json()

    assert body["status"] == "degraded"
    assert body["worker"]["error"] == "no worker heartbeat yet"


def test_the_heartbeat_task_writes_now(with_broker):
    heartbeat.heartbeat()

    assert heartbeat.heartbeat_age() < 5


def test_beat_schedules_the_heartbeat_well_inside_the_stale_limit(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]

    assert entry["task"] == "config.heartbeat"
    assert entry["schedule"].total_seconds() * 3 <= settings.HEARTBEAT_STALE_SECONDS
