"""Fault fixtures: a Redis of the test's own (port 6391) that a test may stop and start.

The machine's Redis on 6379 is never touched. The test's Redis keeps nothing on disk
(`--save '' --appendonly no`), so stopping it loses its queue, as a crash would.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

from tests.integration.conftest import django_db_modify_db_settings, start_worker  # noqa: F401

PORT = 6391
URL = f"redis://127.0.0.1:{PORT}/0"
START_SECONDS = 10


class OwnRedis:
    """A redis-server process on PORT, started and stopped by the test."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(PORT),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(URL, socket_connect_timeout=0.5).ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise TimeoutError(f"redis-server on {PORT} did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=START_SECONDS)
        self.process = None


def _point_celery_at(url: str) -> None:
    """Make this process's Celery producer use `url` (settings are read once, at start)."""
    from config.celery_app import app

    app.conf.broker_url = url
    app.conf.broker_write_url = None
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def on_own_redis(own_redis: OwnRedis, settings) -> Iterator[OwnRedis]:
    """Run web code and workers of this test against the test's own Redis."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.REDIS_URL:
        pytest.skip("fault tests need REDIS_URL (a real broker)")
    original = settings.CELERY_BROKER_URL
    settings.REDIS_URL = settings.CELERY_BROKER_URL = URL
    _point_celery_at(URL)
    yield own_redis
    _point_celery_at(original)
