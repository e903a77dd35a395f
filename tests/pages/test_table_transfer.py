"""The table page on a phone's connection: bytes on the wire and queries, at 0 and 50 events.

A club's Wi-Fi or a phone's 3G is where the table is used: the first load (the page and every
file it links) stays under 40 KB as transferred, an action (the check posted, the table sent
back) under 15 KB, and neither the bytes nor the queries grow with the length of the log.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import BattleEvent
from tests.pages.conftest import make_muster
from tests.pages.test_battle_pages import (
    ACTION_QUERIES,
    TABLE_QUERIES,
    _battle,
    _figure,
    _fire,
)

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
FRESH_LOAD_BUDGET = 40_000
ACTION_BUDGET = 15_000


def _wire_bytes(response) -> int:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return len(body)


def _linked_files(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def _fresh_load(client, url: str) -> tuple[int, int]:
    page = client.get(url, **GZIP)
    assert page["Content-Encoding"] == "gzip"
    total, files = _wire_bytes(page), 0
    plain = client.get(url).content.decode()
    for path in _linked_files(plain):
        asset = client.get(path, **GZIP)
        assert asset.status_code == 200, path
        total += _wire_bytes(asset)
        files += 1
    return total, files


def _battle_with_events(count: int):
    muster = make_muster(size=6)
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    return muster, battle, actor, target


def _play(client, battle, actor, target, count: int) -> None:
    for _ in range(count):
        client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target))
    assert BattleEvent.objects.filter(battle=battle).count() == count


@pytest.mark.parametrize("events", [0, 50])
def test_a_fresh_load_of_the_table_stays_under_40_kb_on_the_wire(client, events):
    muster, battle, actor, target = _battle_with_events(events)
    client.force_login(muster.alice)
    _play(client, battle, actor, target, events)

    total, files = _fresh_load(client, f"/battles/{battle.pk}/")

    assert files >= 2  # the style sheet and htmx, at least
    assert total <= FRESH_LOAD_BUDGET, f"{total} bytes transferred"


@pytest.mark.parametrize("events", [0, 50])
def test_an_action_at_the_table_stays_under_15_kb_on_the_wire(client, events):
    muster, battle, actor, target = _battle_with_events(events)
    client.force_login(muster.alice)
    _play(client, battle, actor, target, events)

    # One round trip: htmx's post is answered with the table it swaps in, no redirect.
    posted = client.post(
        f"/battles/{battle.pk}/check/", _fire(battle, actor, target), HTTP_HX_REQUEST="true", **GZIP
    )

    assert posted.status_code == 200 and posted["Content-Encoding"] == "gzip"
    assert _wire_bytes(posted) <= ACTION_BUDGET


def test_the_table_costs_the_same_queries_after_50_events(client):
    counts = []
    for events in (0, 50):
        muster, battle, actor, target = _battle_with_events(events)
        client.force_login(muster.alice)
        _play(client, battle, actor, target, events)
        client.get(f"/battles/{battle.pk}/")
        with CaptureQueriesContext(connection) as queries:
            client.get(f"/battles/{battle.pk}/")
        counts.append(len(queries))

    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("events", [0, 50])
def test_the_table_page_costs_its_fixed_queries_at_any_length(
    client, django_assert_num_queries, events
):
    """Not only the same at both lengths: the number itself, so a new query per page shows."""
    muster, battle, actor, target = _battle_with_events(events)
    client.force_login(muster.alice)
    _play(client, battle, actor, target, events)
    client.get(f"/battles/{battle.pk}/")

    with django_assert_num_queries(TABLE_QUERIES):
        page = client.get(f"/battles/{battle.pk}/", HTTP_HX_REQUEST="true", **GZIP)

    assert page.status_code == 200


@pytest.mark.parametrize("events", [0, 50])
def test_an_action_costs_its_fixed_queries_at_any_length(client, django_assert_num_queries, events):
    """The check posted and the table sent back, in one request: a fixed number of queries."""
    muster, battle, actor, target = _battle_with_events(events)
    client.force_login(muster.alice)
    _play(client, battle, actor, target, events)
    # The battle's first check also begins it and keeps the player's calls: writes made once.
    client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target))

    with django_assert_num_queries(ACTION_QUERIES):
        posted = client.post(
            f"/battles/{battle.pk}/check/",
            _fire(battle, actor, target),
            HTTP_HX_REQUEST="true",
            **GZIP,
        )

    assert posted.status_code == 200


def test_a_stream_of_events_is_never_compressed():
    from django.http import HttpResponse
    from django.test import RequestFactory

    from config.compression import PageCompressionMiddleware

    stream = HttpResponse(b"id: 1\ndata: x\n\n" * 50, content_type="text/event-stream")
    middleware = PageCompressionMiddleware(lambda request: stream)

    response = middleware(RequestFactory().get("/", **GZIP))

    assert not response.has_header("Content-Encoding")
