"""Integration fixtures: real PostgreSQL, real Redis and Celery worker PROCESSES.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set (see `make test-integration`). Each worker
is its own process group, started here and stopped here (SIGTERM, then SIGKILL after a bound);
every wait is bounded so a broken worker fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 30
STOP_SECONDS = 15


def _require_services() -> None:
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("integration tests need DATABASE_URL=postgres://... and REDIS_URL")


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> None:
    """Use a test database of our own, so a `make test-postgres` run alongside cannot drop it."""
    test = settings.DATABASES["default"].setdefault("TEST", {})
    test["NAME"] = f"test_{settings.DATABASES['default']['NAME']}_integration"


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL the worker's whole process group, as a crash would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=STOP_SECONDS)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def _wait_ready(worker: Worker) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            raise RuntimeError(f"worker exited early:\n{worker.log.read_text()[-3000:]}")
        if "ready." in worker.log.read_text():
            return
        time.sleep(0.1)
    worker.stop()
    raise TimeoutError(f"worker not ready in {READY_SECONDS}s:\n{worker.log.read_text()[-3000:]}")


@pytest.fixture
def start_worker(tmp_path: Path, transactional_db: Any) -> Iterator[Callable[..., Worker]]:
    """Start `celery -A config worker` processes on the test database; stop them after."""
    _require_services()
    started: list[Worker] = []

    def start(name: str = "w1", pause: float = 0.0) -> Worker:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "DJANGO_SETTINGS_MODULE": "tests.integration.worker_settings",
            "MUSTER_BATTLES_PAUSE_AFTER_CLAIM": str(pause),
        }
        log = tmp_path / f"{name}-{len(started)}.log"
        command = [
            str(ROOT / ".venv/bin/celery"),
            "-A",
            "config",
            "worker",
            # Both queues: one test worker serves post-battle tasks and webhook deliveries.
            "-Q",
            "celery,notices",
            "-P",
            "solo",
            "-n",
            f"{name}-{os.getpid()}@%h",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(process, log)
        started.append(worker)
        _wait_ready(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture(autouse=True)
def empty_broker() -> Iterator[None]:
    """Start and end every test with an empty Redis test database (no stray messages)."""
    if not settings.REDIS_URL:
        yield
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.flushdb()
    yield
    client.flushdb()


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll `condition` until true, failing after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds}s waiting for {what}")
