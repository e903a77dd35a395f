"""The worker heartbeat /healthz reports: a timestamp a worker writes into Redis.

Beat schedules `config.heartbeat` every 30 s (settings.CELERY_BEAT_SCHEDULE) and a worker
also writes one as soon as it is ready. The key's age therefore says whether the whole chain
(beat -> broker -> a worker) is alive, which is what a finished battle needs to be processed.
With tasks run inline (no broker) there is no worker to watch: /healthz says "inline".
"""

from __future__ import annotations

import time

import redis
from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from config.redis_pool import SharedConnectionPool

KEY = "muster:worker-heartbeat"
#: The key outlives a dead worker by a day at most, so an old value is never mistaken for news.
TTL_SECONDS = 86400


def _client() -> redis.Redis:
    # The process's pool for this address (config/redis_pool.py): /healthz asked for a new
    # connection, and redis-py's package metadata, on every probe.
    pool = SharedConnectionPool.from_url(
        settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
    )
    return redis.Redis(connection_pool=pool)


def heartbeat_write(*, now: float | None = None) -> float:
    """Store the time a worker was last alive; return it."""
    stamp = time.time() if now is None else now
    _client().set(KEY, repr(stamp), ex=TTL_SECONDS)
    return stamp


def heartbeat_age(*, now: float | None = None) -> float | None:
    """Return seconds since the last heartbeat, or None when no worker ever wrote one."""
    raw = _client().get(KEY)
    if raw is None:
        return None
    return (time.time() if now is None else now) - float(raw)


@shared_task(name="config.heartbeat", ignore_result=True)
def heartbeat(**kwargs: object) -> None:
    """Write the worker heartbeat (scheduled by beat)."""
    heartbeat_write()


@worker_ready.connect
def heartbeat_on_ready(**kwargs: object) -> None:
    """Write a heartbeat as soon as a worker is up, before beat's first tick."""
    if settings.REDIS_URL:
        heartbeat_write()
