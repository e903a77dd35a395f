"""The battle's event stream (Server-Sent Events) and the spectators' pages.

alice plays Red, bob plays Blue, dave is a club member watching, eve is a stranger.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import AsyncClient

from battles import live, services
from battles.models import Battle
from battles.services.turns import drawn_sides
from pages import live as pages_live
from pages.live import Watched, event_stream, stream_messages
from pages.narration import event_view
from rules.system import get_system
from tests.battles.conftest import Cast, make_cast, start_battle


@pytest.fixture
def cast(db: Any) -> Cast:
    return make_cast()


def _fire(battle: Battle, times: int) -> None:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    for _ in range(times):
        services.battle_resolve(
            battle=battle, check="fire", actor=red.pk, target=blue.pk, params={"skill": 9}
        )


def _watched(battle: Battle) -> Watched:
    return Watched(battle.pk, get_system(battle.system))


def _parse(text: str) -> list[dict[str, Any]]:
    """Return each SSE message as {"id": int, "event": str, "data": dict}."""
    messages = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields and "id" in fields:
            messages.append(
                {
                    "id": int(fields["id"]),
                    "event": fields["event"],
                    "data": json.loads(fields["data"]),
                }
            )
    return messages


@pytest.mark.django_db
def test_resuming_after_event_n_returns_exactly_the_events_after_it(cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 5)

    messages = _parse("".join(text for _, text in stream_messages(_watched(battle), 2)))

    assert [m["id"] for m in messages] == [3, 4, 5]
    assert all(m["event"] == "battle-event" for m in messages)
    assert messages[0]["data"]["sentence"] and messages[0]["data"]["line"]


@pytest.mark.django_db
def test_an_event_message_carries_the_dice_the_odds_and_the_changed_chips(cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 1)
    event = battle.events.get()

    (message,) = _parse(stream_messages(_watched(battle), 0)[0][1])

    data = message["data"]
    assert data["dice"] and data["odds"].startswith("chance of this outcome: ")
    assert set(data["chips"]) == {str(event.actor_id), str(event.target_id)}


@pytest.mark.django_db
def test_a_void_streams_as_an_event_naming_the_one_it_voids(cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 2)
    services.battle_void_last(battle=battle)

    (message,) = _parse(stream_messages(_watched(battle), 2)[0][1])

    assert message["id"] == 3
    assert message["data"]["kind"] == "void" and message["data"]["voids"] == 2
    assert "Event #2 voided" in message["data"]["sentence"]


def test_a_draw_streams_the_draw_control_naming_the_player_who_draws_next(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)
    drawn = services.battle_activation_draw(battle=battle, user=cast.olivia)
    (side,) = drawn_sides(drawn.details)
    drawer = (cast.alice, cast.bob)[side].username

    (message,) = _parse(stream_messages(_watched(battle), 1)[0][1])

    draw = message["data"]["draw"]
    assert draw["sides"] == [side]
    assert draw["waits"] == (
        f"{drawer.capitalize()}'s unit activated last, so {drawer} draws the next activation."
    )
    assert "data-activation-now" in draw["now"]
    assert event_view(get_system(battle.system), drawn).sentence in draw["now"]


def test_a_void_of_the_draw_streams_it_back_to_either_player(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)
    services.battle_activation_draw(battle=battle, user=cast.olivia)
    stream_messages(_watched(battle), 1)  # the draw, rendered as it happened
    services.battle_void_last(battle=battle, user=cast.olivia)

    (message,) = _parse(stream_messages(_watched(battle), 2)[0][1])

    assert message["data"]["kind"] == "void"
    assert message["data"]["draw"]["sides"] is None and message["data"]["draw"]["waits"] == ""


def test_a_check_message_carries_no_draw_control(cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 1)

    (message,) = _parse(stream_messages(_watched(battle), 0)[0][1])

    assert "draw" not in message["data"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["eve", None])
def test_the_stream_answers_404_to_a_stranger(client, who: str | None) -> None:
    # Committed rows (transaction=True): the stream reads on its own threads' connections.
    cast = make_cast()
    battle = start_battle(cast)
    if who:
        client.force_login(getattr(cast, who))

    response = client.get(f"/battles/{battle.pk}/stream/")

    assert response.status_code == 404


async def _read_stream(user: Any, battle_id: int, headers: dict[str, str], count: int) -> str:
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(f"/battles/{battle_id}/stream/", headers=headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    text, iterator = "", aiter(response.streaming_content)
    while text.count("event: battle-event") < count:
        text += (await asyncio.wait_for(anext(iterator), 5)).decode()
    await iterator.aclose()
    return text


@pytest.mark.django_db(transaction=True)
def test_a_member_reconnecting_with_last_event_id_gets_the_rest_of_the_log() -> None:
    cast = make_cast()
    battle = start_battle(cast)
    _fire(battle, 4)

    text = async_to_sync(_read_stream)(cast.dave, battle.pk, {"Last-Event-ID": "1"}, 3)

    assert [m["id"] for m in _parse(text)] == [2, 3, 4]
    assert text.startswith("retry: ")


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_sends_a_new_event_when_the_doorbell_rings() -> None:
    cast = make_cast()
    battle = start_battle(cast)
    _fire(battle, 1)
    # The new event is written from another thread while the stream waits on its bell.
    writer = threading.Timer(0.5, _fire, args=(battle, 1))
    writer.start()

    text = async_to_sync(_read_stream)(cast.bob, battle.pk, {}, 2)
    writer.join()

    assert [m["id"] for m in _parse(text)] == [1, 2]


def _fire_spaced(battle: Battle, times: int, gap: float) -> None:
    for _ in range(times):
        _fire(battle, 1)
        time.sleep(gap)
    connection.close()  # the writer thread's own connection


@pytest.mark.django_db(transaction=True)
def test_the_streams_of_a_battle_share_one_read_per_ring_and_each_gets_every_event_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    # Without the rings the streams would wait a minute: a missed ring fails the test.
    monkeypatch.setattr(live, "POLL_IN_PROCESS", 60.0)
    reads: list[int] = []
    real_read = pages_live.read_log

    async def counted_read(watched: Watched, after: int) -> list[tuple[int, str]]:
        reads.append(after)
        return await real_read(watched, after)

    monkeypatch.setattr(pages_live, "read_log", counted_read)
    events, streams = 10, 4

    async def follow(got: list[int]) -> None:
        stream = event_stream(_watched(battle), 0)
        try:
            async for text in stream:
                got.extend(int(seq) for seq in re.findall(r"^id: (\d+)$", text, re.M))
        finally:
            await stream.aclose()

    async def scenario() -> list[list[int]]:
        phones: list[list[int]] = [[] for _ in range(streams)]
        tasks = [asyncio.create_task(follow(got)) for got in phones]
        try:
            await asyncio.sleep(0.3)  # every stream open and waiting
            await asyncio.to_thread(_fire_spaced, battle, events, 0.05)
            deadline = time.monotonic() + 10
            while any(len(got) < events for got in phones) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # time for a duplicate to show
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return phones

    phones = asyncio.run(scenario())

    for got in phones:
        assert got == list(range(1, events + 1))
    # Each stream's first read, then one shared read per ring, or two where a read began
    # between the commit and its ring (it found the event; the ring still asks again).
    # Each stream reading for itself made one per stream per ring: 4 x 10.
    assert len(reads) <= 2 * events + streams < streams * events, str(reads)


@pytest.mark.django_db(transaction=True)
def test_the_writer_renders_each_event_once_and_its_ring_carries_it_to_every_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    monkeypatch.setattr(live, "POLL_IN_PROCESS", 60.0)  # no poll: only rings and opening reads
    reads: list[int] = []
    renderings: list[int] = []
    real_read, real_message = pages_live.read_log, pages_live._message

    async def counted_read(watched: Watched, after: int) -> list[tuple[int, str]]:
        reads.append(after)
        return await real_read(watched, after)

    def counted_message(watched: Watched, event: Any, *args: Any) -> str:
        renderings.append(event.seq)
        return real_message(watched, event, *args)

    monkeypatch.setattr(pages_live, "read_log", counted_read)
    monkeypatch.setattr(pages_live, "_message", counted_message)
    events, streams = 10, 4

    async def follow(got: list[str]) -> None:
        stream = event_stream(_watched(battle), 0)
        try:
            async for text in stream:
                got.append(text)
        finally:
            await stream.aclose()

    async def scenario() -> list[list[str]]:
        phones: list[list[str]] = [[] for _ in range(streams)]
        tasks = [asyncio.create_task(follow(got)) for got in phones]
        try:
            await asyncio.sleep(0.3)  # every stream open, its opening read done, waiting
            await asyncio.to_thread(_fire_spaced, battle, events, 0.05)
            deadline = time.monotonic() + 10
            while any(len(_parse("".join(got))) < events for got in phones):
                assert time.monotonic() < deadline, "the rings did not bring every event"
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # time for a duplicate to show
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return phones

    phones = asyncio.run(scenario())

    sent = [_parse("".join(got)) for got in phones]
    for messages in sent:
        assert [m["id"] for m in messages] == list(range(1, events + 1))
        assert messages == sent[0]  # the one rendering, byte for byte alike
    assert renderings == list(range(1, events + 1))  # by the writer, once per event
    assert reads == [0] * len(reads) and len(reads) <= streams  # only the opening reads


def test_a_feed_takes_a_carried_event_only_when_it_is_the_next_one() -> None:
    feed = pages_live.Feed(Watched(1, get_system("rencounter")))
    feed.base = 3  # it holds every event up to 3

    def ring(seq: int | None, message: str | None) -> live.Ring:
        return live.Ring(seq, message, time.monotonic())

    assert not feed.offer(ring(5, "five"))  # out of turn: 4 is missing, read the log
    assert not feed.offer(ring(4, None))  # the writer did not render it: read the log
    assert not feed.offer(ring(None, None))  # a ring that names no event: read the log
    assert feed.offer(ring(4, "four")) and feed.offer(ring(5, "five"))
    assert feed.offer(ring(4, "four again")) and feed.offer(ring(2, None))  # held already
    assert feed.messages == [(4, "four"), (5, "five")]


@pytest.mark.django_db
def test_the_writer_renders_an_event_as_a_read_of_the_log_does(cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 2)  # inside the test's transaction: no commit, so no ring yet

    heralded = pages_live.herald(None, battle_id=battle.pk, seq=2)
    pages_live._rendered.clear()
    ((seq, read),) = stream_messages(_watched(battle), 1)

    assert seq == 2 and heralded == read


@pytest.mark.django_db(transaction=True)
def test_a_failed_rendering_costs_a_read_never_the_action_or_the_event(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    monkeypatch.setattr(live, "POLL_IN_PROCESS", 60.0)  # the ring, not the poll, must wake it

    def broken(**kwargs: Any) -> str:
        raise RuntimeError("the chips template is missing")

    live.event_logged.disconnect(pages_live.herald)
    live.event_logged.connect(broken)
    try:

        async def scenario() -> list[int]:
            got: list[int] = []

            async def follow() -> None:
                async for text in event_stream(_watched(battle), 0):
                    got.extend(int(seq) for seq in re.findall(r"^id: (\d+)$", text, re.M))

            task = asyncio.create_task(follow())
            try:
                await asyncio.sleep(0.3)
                await asyncio.to_thread(_fire_spaced, battle, 2, 0.05)
                deadline = time.monotonic() + 5
                while len(got) < 2 and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            return got

        got = asyncio.run(scenario())
    finally:
        live.event_logged.disconnect(broken)
        live.event_logged.connect(pages_live.herald)

    assert battle.events.count() == 2 and got == [1, 2]
    assert "not rendered" in caplog.text


def test_a_bell_keeps_its_rings_in_order_until_its_stream_takes_them() -> None:
    async def scenario() -> tuple[list[int | None], list[live.Ring], bool]:
        bell = live.subscribe(9)
        try:
            for seq in range(1, 4):
                bell.rung_here(seq, f"event {seq}")
            first = [ring.seq for ring in bell.take()]
            for seq in range(live.KEPT_RINGS + 1):  # a stream that stopped taking them
                bell.rung_here(seq, "x")
            return first, bell.take(), await bell.wait(0.05)
        finally:
            live.unsubscribe(bell)

    first, flooded, rung_after_take = asyncio.run(scenario())

    assert first == [1, 2, 3]
    assert [(ring.seq, ring.message) for ring in flooded] == [(None, None)]  # read the log
    assert not rung_after_take


@pytest.mark.django_db(transaction=True)
def test_a_stream_behind_the_feeds_window_reads_the_log_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    battle = start_battle(make_cast())
    _fire(battle, 5)
    monkeypatch.setattr(pages_live, "FEED_WINDOW", 2)

    async def scenario() -> tuple[list[int], list[int], int | None]:
        feed = pages_live.Feed(_watched(battle))
        ahead = await feed.after(3, [], time.monotonic())  # the feed starts at 3: keeps 4, 5
        behind = await feed.after(0, [], time.monotonic())  # before its window: its own read
        return [s for s, _ in ahead], [s for s, _ in behind], feed.base

    ahead, behind, base = async_to_sync(scenario)()

    assert ahead == [4, 5] and behind == [1, 2, 3, 4, 5] and base == 3


def test_a_ring_from_another_thread_wakes_the_bell_of_that_battle_only() -> None:
    async def scenario() -> tuple[bool, bool]:
        mine, other = live.subscribe(7), live.subscribe(8)
        try:
            threading.Thread(target=live.ring_here, args=(7,)).start()
            return await mine.wait(2), await other.wait(0.2)
        finally:
            live.unsubscribe(mine)
            live.unsubscribe(other)

    assert asyncio.run(scenario()) == (True, False)


@pytest.mark.django_db
def test_a_club_member_watches_read_only_and_on_the_big_screen(client, cast: Cast) -> None:
    battle = start_battle(cast)
    _fire(battle, 1)
    client.force_login(cast.dave)

    watch = client.get(f"/battles/{battle.pk}/watch/").content.decode()
    screen = client.get(f"/battles/{battle.pk}/screen/").content.decode()

    for html in (watch, screen):
        assert 'data-live="/battles/' in html and 'data-seq="1"' in html
        assert "Red 1" in html and "Blue 1" in html
        assert 'data-testid="resolve"' not in html
    assert "watch--screen" in screen


@pytest.mark.django_db
def test_a_stranger_cannot_watch(client, cast: Cast) -> None:
    battle = start_battle(cast)
    client.force_login(cast.eve)

    assert client.get(f"/battles/{battle.pk}/watch/").status_code == 404
    assert client.get(f"/battles/{battle.pk}/screen/").status_code == 404


@pytest.mark.django_db
def test_the_battle_page_offers_the_watch_link_and_its_qr_code(client, cast: Cast) -> None:
    battle = start_battle(cast)
    client.force_login(cast.alice)

    html = client.get(f"/battles/{battle.pk}/").content.decode()

    assert f'href="/battles/{battle.pk}/watch/"' in html
    assert f'href="/battles/{battle.pk}/screen/"' in html
    assert "<svg" in html and 'data-live-after="0"' in html


@pytest.mark.django_db(transaction=True)
def test_under_wsgi_the_stream_answers_what_is_new_and_ends(client) -> None:
    # runserver and Django's test server cannot hold a stream open: one poll, then the
    # browser asks again from its last event.
    cast = make_cast()
    battle = start_battle(cast)
    _fire(battle, 3)
    client.force_login(cast.dave)

    response = client.get(f"/battles/{battle.pk}/stream/", headers={"Last-Event-ID": "1"})

    text = response.content.decode()
    assert [m["id"] for m in _parse(text)] == [2, 3]
    assert text.startswith("retry: 2000") and text.endswith("event: poll\ndata: {}\n\n")


def test_a_ring_on_redis_names_its_event_and_carries_it_as_sent():
    assert live.parse(b"12:7\nid: 7\nevent: battle-event\ndata: {}\n\n") == (
        7,
        "id: 7\nevent: battle-event\ndata: {}\n\n",
    )
    assert live.parse(b"12:7") == (7, None)  # not rendered: the streams read the log
    assert live.parse(b"12") == (None, None)  # an older server's ring


def test_each_redis_database_rings_on_its_own_channels():
    # Redis pub/sub ignores database numbers; two installations on one server must not ring
    # each other's streams.
    assert live.channel_prefix("redis://127.0.0.1:6379/3") == "muster:3:battle-log:"
    assert live.channel_prefix("redis://127.0.0.1:6379") == "muster:0:battle-log:"
    assert live.channel_prefix("redis://h:6379/3") != live.channel_prefix("redis://h:6379/4")
