"""The live table's doorbell: "battle N's log has grown to event S", and the event as sent.

The event log is the source of truth; a ring tells the open streams of a battle that the log
has grown. Where the writer could render the new event (`event_logged`: pages.live answers
it), the ring carries it, and a stream that has every event before it sends it as it came,
without reading the log; any other stream reads the log after the last event it sent. A lost
ring costs at most one poll interval, never an event, and a ring too many costs one empty
read.

- With `REDIS_URL` set, a ring is published on Redis (`muster:<db>:battle-log:<id>`), and each
  server process keeps ONE pattern subscription that rings its own open streams: any number
  of processes and machines, one Redis connection each.
- Without Redis (`make demo`, SQLite), a ring goes straight to the streams open in the same
  process; the streams also poll the log every `poll_seconds()`, so a write made by another
  process still shows, a little later.

Writers ring after their transaction commits (`ring_on_commit`), so a stream that wakes
always finds the event in the log, and the event they render is the one committed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal

from battles.models import BattleEvent

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


#: A question to the apps above, sent by `ring` after the commit with `battle_id` and `seq`
#: (and `event`, the writer's own copy, when it handed it over): the event as every stream
#: sends it (pages.live renders it), carried by the ring so that no stream reads the log for
#: it. No answer (or a failed one): the streams read the log.
event_logged = Signal()


@dataclass(frozen=True)
class Ring:
    """One ring as it reached a stream's loop: the event's number and the event as sent,
    where the writer gave them, and when it came (`time.monotonic`): a read of the log begun
    after `at` has seen the event it rang for."""

    seq: int | None
    message: str | None
    at: float


#: Rings a bell keeps for its stream; past that it keeps one ring that asks for a read.
KEPT_RINGS = 100


class Bell:
    """One open stream's bell: rung from any thread, awaited on the stream's event loop. It
    keeps the rings that came since its stream last took them."""

    def __init__(self, battle_id: int) -> None:
        self.battle_id = battle_id
        self.loop = asyncio.get_running_loop()
        self.rung = asyncio.Event()
        self.rings: list[Ring] = []

    def ring(self, seq: int | None = None, message: str | None = None) -> None:
        self.loop.call_soon_threadsafe(self.rung_here, seq, message)

    def rung_here(self, seq: int | None = None, message: str | None = None) -> None:
        """Ring on the bell's own loop (the Redis listener's; any other thread: `ring`)."""
        ring = Ring(seq, message, time.monotonic())
        if len(self.rings) >= KEPT_RINGS:  # a stream that stopped taking them: read instead
            self.rings = [Ring(None, None, ring.at)]
        else:
            self.rings.append(ring)
        self.rung.set()

    def take(self) -> list[Ring]:
        """Return the rings that came since the last take, and clear the bell."""
        rings, self.rings = self.rings, []
        self.rung.clear()
        return rings

    async def wait(self, timeout: float) -> bool:
        """Wait for a ring (at once if one came since the last take); return False when
        `timeout` passed without one."""
        if self.rung.is_set():
            return True
        try:
            await asyncio.wait_for(self.rung.wait(), timeout)
        except TimeoutError:
            return False
        return True


_lock = threading.Lock()
_bells: dict[int, set[Bell]] = {}
_listeners: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def ring_here(battle_id: int, seq: int | None = None, message: str | None = None) -> None:
    """Ring every stream of the battle open in this process."""
    with _lock:
        bells = list(_bells.get(battle_id, ()))
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    for bell in bells:
        if bell.loop is loop:  # the listener, on the streams' loop: no wake-up through a pipe
            bell.rung_here(seq, message)
        else:
            bell.ring(seq, message)


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


def ring(battle_id: int, seq: int | None = None, event: BattleEvent | None = None) -> None:
    """Tell every open stream of the battle, in any process, that the log has grown.

    The Redis message names the battle and, where the writer knows it, the new event's
    number ("12:7"), so a watcher of the channel (bench/live.py) can tell which commit it
    rings for; the event as sent follows on the next line, where an app above rendered it.
    """
    message = _as_sent(battle_id, seq, event) if seq is not None else None
    if not settings.REDIS_URL:
        ring_here(battle_id, seq, message)
        return
    head = str(battle_id) if seq is None else f"{battle_id}:{seq}"
    payload = head if message is None else f"{head}\n{message}"
    try:
        _redis().publish(f"{channel_prefix(settings.REDIS_URL)}{battle_id}", payload)
    except Exception:  # a dead Redis must not fail a player's action: the streams poll
        log.warning("live: could not publish battle %s on Redis; ringing locally", battle_id)
        ring_here(battle_id, seq, message)


def _as_sent(battle_id: int, seq: int, event: BattleEvent | None = None) -> str | None:
    """Ask the apps above for the event as the streams send it (None: they read the log)."""
    answers = event_logged.send_robust(
        sender=BattleEvent, battle_id=battle_id, seq=seq, event=event
    )
    for _, answer in answers:
        if isinstance(answer, Exception):  # a failed rendering must not fail the action
            log.warning("live: battle %s event %s not rendered: %r", battle_id, seq, answer)
        elif isinstance(answer, str):
            return answer
    return None


def parse(payload: bytes | str) -> tuple[int | None, str | None]:
    """Read a ring's message from Redis: (the event's number, the event as sent), or None
    for what the writer did not give ("12", a ring of an older server: read the log)."""
    text = payload.decode() if isinstance(payload, bytes) else payload
    head, _, message = text.partition("\n")
    _, _, seq = head.partition(":")
    return (int(seq) if seq.isdigit() else None), message or None


def ring_on_commit(
    battle_id: int, seq: int | None = None, event: BattleEvent | None = None
) -> None:
    """Ring once the current transaction commits (at once outside a transaction). `event`:
    the writer's event, with its battle and figures as the action left them, so the event
    is rendered for the streams without reading it back."""
    transaction.on_commit(lambda: ring(battle_id, seq, event))


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
                    ring_here(int(tail), *parse(message.get("data") or b""))
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
