"""The live table's doorbell on a real Redis and a real PostgreSQL.

Events are written by another thread, on its own database connection, so each is committed
before its ring is published on Redis, as from a player's request; the open streams wake
through this process's one pattern subscription (`battles.live`), read the log and send what
is new. The log is the truth: a ring lost to a Redis failure costs a poll, never an event.

alice plays Red, bob plays Blue, dave is a club member watching (tests/battles/conftest.py).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, transaction
from django.test import AsyncClient

from battles import live, services
from battles.models import Battle
from pages import live as pages_live
from pages.live import Watched, event_stream
from rules.system import get_system
from tests.battles.conftest import make_cast, start_battle

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
#: A ring through Redis arrives well inside this; the poll without one takes 15 s.
RUNG_WITHIN = 3.0
#: How long a test keeps listening after the last expected event, to catch a duplicate.
SETTLE = 0.5
SEQ = re.compile(r"^id: (\d+)$", re.M)
#: Threads of the loop's pool, where the streams read the log on connections they keep.
POOL = 4
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _real_services() -> None:
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("needs DATABASE_URL=postgres://... and REDIS_URL")


def _run(scenario: Callable[[], Awaitable[T]]) -> T:
    """Run the scenario on a fresh loop; then close the connections its pool threads kept."""

    async def main() -> T:
        pool = ThreadPoolExecutor(max_workers=POOL)
        asyncio.get_running_loop().set_default_executor(pool)
        try:
            return await scenario()
        finally:
            await _close_kept_connections(pool)

    return asyncio.run(main())


async def _close_kept_connections(pool: ThreadPoolExecutor) -> None:
    # One task per thread (the barrier holds each until all POOL threads have one), so every
    # thread closes its own connection and the test database can be dropped.
    barrier = threading.Barrier(POOL)

    def close() -> None:
        barrier.wait(5)
        connections.close_all()

    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(pool, close) for _ in range(POOL)))
    await sync_to_async(connections.close_all)()


def _fire(battle_id: int) -> tuple[int, float]:
    """Resolve one check for Red (on the calling thread's connection); return its number and
    when its commit was done."""
    battle = Battle.objects.get(pk=battle_id)
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    committed: list[float] = []
    with transaction.atomic():
        # First of the commit's callbacks, so before the ring: a ring that carries the event
        # reaches a stream before this thread is back.
        transaction.on_commit(lambda: committed.append(time.monotonic()))
        event = services.battle_resolve(
            battle=battle, check="fire", actor=red.pk, target=blue.pk, params={"skill": 9}
        )
    connection.close()  # a worker thread's connection: closed, not leaked past the test
    return event.seq, committed[0]


async def _write(battle_id: int) -> tuple[int, float]:
    """Write an event from another thread; return its number and when its commit was done."""
    return await asyncio.to_thread(_fire, battle_id)


async def _follow(watched: Watched, after: int, got: list[tuple[int, float]]) -> None:
    """Read one stream, noting each event number and when it arrived."""
    stream = event_stream(watched, after)
    try:
        async for text in stream:
            got.extend((int(seq), time.monotonic()) for seq in SEQ.findall(text))
    finally:
        await stream.aclose()


async def _until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds}s waiting for {what}")
        await asyncio.sleep(0.02)


async def _subscribed() -> None:
    """Wait until this process's listener holds its pattern subscription on Redis."""
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        deadline = time.monotonic() + RUNG_WITHIN
        while await client.pubsub_numpat() < 1:
            if time.monotonic() > deadline:
                raise AssertionError("the listener never subscribed on Redis")
            await asyncio.sleep(0.02)
    finally:
        await client.aclose()


def _battle() -> tuple[Watched, Any]:
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    return Watched(battle.pk, get_system(battle.system)), cast


def test_two_streams_get_each_event_published_after_its_commit_once_and_in_order() -> None:
    watched, _ = _battle()

    async def scenario() -> tuple[list[list[tuple[int, float]]], list[tuple[int, float]]]:
        phones: list[list[tuple[int, float]]] = [[], []]
        tasks = [asyncio.create_task(_follow(watched, 0, got)) for got in phones]
        try:
            await _subscribed()
            written = [await _write(watched.battle_id) for _ in range(3)]
            await _until(lambda: all(len(got) >= 3 for got in phones), RUNG_WITHIN, "3 events")
            await asyncio.sleep(SETTLE)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return phones, written

    phones, written = _run(scenario)

    assert [seq for seq, _ in written] == [1, 2, 3]
    for got in phones:
        assert [seq for seq, _ in got] == [1, 2, 3]
        # Each arrived after its commit, and through Redis: far sooner than the 15 s poll.
        for (seq, arrived), (_, committed) in zip(got, written, strict=True):
            assert 0 <= arrived - committed < RUNG_WITHIN, seq


def test_the_ring_carries_the_event_through_redis_and_no_stream_reads_the_log_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watched, _ = _battle()
    reads: list[int] = []
    real_read = pages_live.read_log

    async def counted_read(watched: Watched, after: int) -> list[tuple[int, str]]:
        reads.append(after)
        return await real_read(watched, after)

    monkeypatch.setattr(pages_live, "read_log", counted_read)

    async def scenario() -> list[list[tuple[int, float]]]:
        phones: list[list[tuple[int, float]]] = [[], []]
        tasks = [asyncio.create_task(_follow(watched, 0, got)) for got in phones]
        try:
            await _subscribed()
            await _until(lambda: len(reads) >= 1, RUNG_WITHIN, "the opening read")
            for _ in range(5):
                await _write(watched.battle_id)
            await _until(lambda: all(len(got) >= 5 for got in phones), RUNG_WITHIN, "5 events")
            await asyncio.sleep(SETTLE)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return phones

    phones = _run(scenario)

    for got in phones:
        assert [seq for seq, _ in got] == [1, 2, 3, 4, 5]
    # The streams' opening reads (one shared, or one each), then the rings alone.
    assert reads in ([0], [0, 0]), reads


async def _open(client: AsyncClient, battle_id: int, headers: dict[str, str]) -> Any:
    """Open the battle's stream over HTTP (the ASGI view); return its iterator."""
    response = await client.get(f"/battles/{battle_id}/stream/", headers=headers)
    assert response.status_code == 200
    return aiter(response.streaming_content)


async def _take(iterator: Any, got: list[int], last: int) -> None:
    """Read messages until event `last` has come (failing if the stream goes quiet)."""
    while not got or got[-1] < last:
        text = (await asyncio.wait_for(anext(iterator), RUNG_WITHIN)).decode()
        got.extend(int(seq) for seq in SEQ.findall(text))


async def _no_more(iterator: Any, got: list[int]) -> None:
    """Note anything the stream still sends within SETTLE (nothing, if none came twice)."""
    try:
        text = (await asyncio.wait_for(anext(iterator), SETTLE)).decode()
        got.extend(int(seq) for seq in SEQ.findall(text))
    except TimeoutError:
        return


def test_a_phone_reconnecting_with_last_event_id_gets_exactly_the_missing_events() -> None:
    watched, cast = _battle()
    battle_id = watched.battle_id

    async def scenario() -> tuple[list[int], list[int]]:
        client = AsyncClient()
        await client.aforce_login(cast.bob)
        first: list[int] = []
        await _write(battle_id)
        await _write(battle_id)
        stream = await _open(client, battle_id, {})
        await _take(stream, first, 2)
        await stream.aclose()  # bob's Wi-Fi drops after event 2
        await _write(battle_id)
        await _write(battle_id)
        again: list[int] = []
        stream = await _open(client, battle_id, {"Last-Event-ID": str(first[-1])})
        try:
            await _take(stream, again, 4)  # the missed ones, from the log
            await _subscribed()
            await _write(battle_id)  # and a new one, rung through Redis
            await _take(stream, again, 5)
            await _no_more(stream, again)
        finally:
            await stream.aclose()
        return first, again

    first, again = _run(scenario)

    assert first == [1, 2]
    assert again == [3, 4, 5]


class _DeadRedis:
    """A publisher whose Redis is down: every publish fails as redis-py fails it."""

    def publish(self, channel: str, message: str) -> int:
        raise redis.ConnectionError(f"Error 111 connecting to Redis; {channel} not published")


def test_a_failed_publish_loses_no_event_the_streams_poll_finds_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    watched, _ = _battle()
    # The writer is another server process: its Redis publish fails, and its fallback, the
    # ring in its own process, reaches no stream here. Only the periodic read is left.
    monkeypatch.setattr(live, "_publisher", _DeadRedis())
    local_rings: list[int] = []
    monkeypatch.setattr(live, "ring_here", lambda battle_id, *_: local_rings.append(battle_id))
    monkeypatch.setattr(live, "POLL_WITH_REDIS", 1.0)

    async def scenario() -> tuple[list[tuple[int, float]], float]:
        got: list[tuple[int, float]] = []
        task = asyncio.create_task(_follow(watched, 0, got))
        try:
            await _subscribed()
            _, committed = await _write(watched.battle_id)
            await _until(lambda: len(got) >= 1, 3 * live.POLL_WITH_REDIS, "the polled event")
            await asyncio.sleep(live.POLL_WITH_REDIS + SETTLE)  # another poll: no duplicate
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        return got, committed

    got, committed = _run(scenario)

    assert [seq for seq, _ in got] == [1]
    assert got[0][1] - committed <= live.POLL_WITH_REDIS + 0.5
    # Only this battle's rings count: other battles of the same Redis database may ring too.
    assert [b for b in local_rings if b == watched.battle_id] == [watched.battle_id]
    assert "could not publish battle" in caplog.text
