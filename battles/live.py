"""The live table's doorbell: "battle N's log has grown", and nothing more.

The event log is the source of truth; a ring only tells the open streams of a battle to read
the log after the last event they sent. A lost ring costs at most one poll interval, never an
event, and a ring too many costs one empty read.

- With `REDIS_URL` set, a ring is published on Redis (`muster:<db>:battle-log:<id>`), and each
  server process keeps ONE pattern subscription that rings its own open streams: any number
  of processes and machines, one Redis connection each.
- Without Redis (`make demo`, SQLite), a ring goes straight to the streams open in the same
  process; the streams also poll the log every `poll_seconds()`, so a write made by another
  process still shows, a little later.

Writers ring after their transaction commits (`ring_on_commit`), so a stream that wakes
always finds the event in the log.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

CHANNEL_PREFIX = "muster:{db}:battle-log:"
#: Seconds between reads of the log when no ring came: the safety net under the doorbell.
POLL_WITH_REDIS = 15.0
POLL_IN_PROCESS = 2.0


def channel_prefix(redis_url: str) -> str:
    """The channels' prefix for the Redis database `redis_url` names ("muster:3:battle-log:").

    Redis pub/sub ignores database numbers: without the number in the name, two installations
    (or a bench and a test run) sharing one Redis server would ring each other's streams.
    """
    database = urlsplit(redis_url).path.strip("/") or "0"
    return CHANNEL_PREFIX.format(db=database)


def poll_seconds() -> float:
    return POLL_WITH_REDIS if settings.REDIS_URL else POLL_IN_PROCESS


class Bell:
    """One open stream's bell: set from any thread, awaited on the stream's event loop."""

    def __init__(self, battle_id: int) -> None:
        self.battle_id = battle_id
        self.loop = asyncio.get_running_loop()
        self.rung = asyncio.Event()
        #: When the last ring reached the loop (`time.monotonic`): a read of the log begun
        #: after it has seen the event it rang for (pages.live's shared read per battle).
        self.rung_at = 0.0

    def ring(self) -> None:
        self.loop.call_soon_threadsafe(self._rung)

    def _rung(self) -> None:
        self.rung_at = time.monotonic()
        self.rung.set()

    def clear(self) -> None:
        """Clear before reading the log, so a ring during the read is not lost."""
        self.rung.clear()

    async def wait(self, timeout: float) -> bool:
        """Wait for a ring; return False when `timeout` passed without one."""
        try:
            await asyncio.wait_for(self.rung.wait(), timeout)
        except TimeoutError:
            return False
        return True


_lock = threading.Lock()
_bells: dict[int, set[Bell]] = {}
_listeners: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def ring_here(battle_id: int) -> None:
    """Ring every stream of the battle open in this process."""
    with _lock:
        bells = list(_bells.get(battle_id, ()))
    for bell in bells:
        bell.ring()


def open_streams() -> int:
    """Count the streams open in this process (for the bench and the health of a worker)."""
    with _lock:
        return sum(len(bells) for bells in _bells.values())


_publisher: Any = None


def _redis() -> Any:
    global _publisher
    if _publisher is None:
        import redis

        _publisher = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
        )
    return _publisher


def ring(battle_id: int, seq: int | None = None) -> None:
    """Tell every open stream of the battle, in any process, that the log has grown.

    The message names the battle and, where the writer knows it, the new event's number
    ("12:7"), so a watcher of the channel (bench/live.py) can tell which commit it rings for.
    """
    if not settings.REDIS_URL:
        ring_here(battle_id)
        return
    message = str(battle_id) if seq is None else f"{battle_id}:{seq}"
    try:
        _redis().publish(f"{channel_prefix(settings.REDIS_URL)}{battle_id}", message)
    except Exception:  # a dead Redis must not fail a player's action: the streams poll
        log.warning("live: could not publish battle %s on Redis; ringing locally", battle_id)
        ring_here(battle_id)


def ring_on_commit(battle_id: int, seq: int | None = None) -> None:
    """Ring once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: ring(battle_id, seq))


async def _listen() -> None:
    """Ring this process's streams for every battle published on Redis; reconnect on failure."""
    import redis.asyncio as aioredis

    prefix = channel_prefix(settings.REDIS_URL)
    while True:
        client = aioredis.Redis.from_url(settings.REDIS_URL)
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.psubscribe(f"{prefix}*")
            async for message in pubsub.listen():
                channel = message.get("channel", b"")
                if isinstance(channel, bytes):
                    channel = channel.decode()
                tail = str(channel).removeprefix(prefix)
                if tail.isdigit():
                    ring_here(int(tail))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("live: Redis subscription lost; retrying in 1 s", exc_info=True)
            await asyncio.sleep(1.0)
        finally:
            await client.aclose()


def _ensure_listener() -> None:
    loop = asyncio.get_running_loop()
    task = _listeners.get(loop)
    if task is None or task.done():
        _listeners[loop] = loop.create_task(_listen())


def subscribe(battle_id: int) -> Bell:
    """Open a bell for a stream of the battle (call on the stream's event loop)."""
    if settings.REDIS_URL:
        _ensure_listener()
    bell = Bell(battle_id)
    with _lock:
        _bells.setdefault(battle_id, set()).add(bell)
    return bell


def unsubscribe(bell: Bell) -> None:
    with _lock:
        bells = _bells.get(bell.battle_id)
        if bells is not None:
            bells.discard(bell)
            if not bells:
                del _bells[bell.battle_id]
