"""The battle's event stream (Server-Sent Events) and the spectators' pages.

alice plays Red, bob plays Blue, dave is a club member watching, eve is a stranger.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from battles import live, services
from battles.models import Battle
from pages.live import Watched, stream_messages
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
