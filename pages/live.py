"""The live table: each battle's event log as Server-Sent Events, and the spectators' pages.

`GET /battles/<pk>/stream/` (contract) sends every event after the client's last one, each
as `id: <seq>` with the rendered event and the chips it changed, then waits for the doorbell
(`battles.live`) and reads the log again. The log is the source of truth: a reconnecting
client (`Last-Event-ID: N`, or `?after=N` on the first connection) gets exactly the events
after N, however many rings it missed.

The stream is an async view: under ASGI (uvicorn) an open stream is a coroutine waiting on
its bell, not a worker thread. Its reads of the log run on the event loop's small thread
pool, whose database connections are kept and reused, so a hundred open streams hold a few
connections, not a hundred.

Each event is rendered once, by the writer after its commit (`herald`, answering
`battles.live.event_logged`), and the ring carries it to every process: a stream that has
the events before it sends it without a read, a thread or a query. The log is read when a
stream opens, when a ring comes without the event or out of turn, and on the poll.
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import InterfaceError, OperationalError, connection
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse

from battles import live
from battles.models import Battle, BattleEvent, BattleFigure, EventKind
from battles.selectors import battles_visible_to, rules_for_battle
from battles.services.adjust import markers
from battles.services.turns import draw_turn, last_activation
from common.orm import prefetched
from pages.display import figure_chips, is_out
from pages.markup import chips_html
from pages.narration import event_view
from pages.selectors import battle_table, battle_with_sides
from rules.errors import RulesError
from rules.system import RuleSystem

#: Events sent per read of the log; a client further behind gets the rest on the next read.
BATCH = 100
#: Seconds of silence after which the stream sends a comment, so proxies keep it open.
KEEPALIVE = 15.0
#: Events the big screen and the watch page show.
SCREEN_EVENTS = 8


def _after(request: HttpRequest) -> int:
    """Return the last event the client has: Last-Event-ID on a reconnect, else ?after=."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    return int(raw) if raw.strip().isdigit() else 0


@dataclass(frozen=True)
class Watched:
    """What a stream needs to render its battle's events, loaded once when it opens."""

    battle_id: int
    system: RuleSystem


def _visible(request: HttpRequest, pk: int) -> Watched | None:
    battle = battles_visible_to(request.user).filter(pk=pk).select_related("house_rules").first()
    return Watched(battle.pk, rules_for_battle(battle)) if battle is not None else None


def _odds_text(watched: Watched, event: BattleEvent) -> str:
    """Return the chance the event's outcome had, in words ("chance of this outcome: 41.7%")."""
    try:
        odds = watched.system.check(event.check_name).odds(event.params)
        chance = odds.probabilities.get(event.outcome)
    except (RulesError, KeyError, TypeError, ValueError):
        return ""
    return f"chance of this outcome: {float(chance):.1%}" if chance is not None else ""


def _chips(system: RuleSystem, figure: BattleFigure) -> dict[str, Any]:
    """The figure's chips as a spectator sees them, and (`adjust`) with the × a player taps."""
    chips = figure_chips(system, figure.state, markers(system, figure.stats))
    return {
        "html": chips_html(chips, figure),
        "adjust": chips_html(chips, figure, adjustable=True),
        "out": is_out(figure.state),
    }


def _message(
    watched: Watched,
    event: BattleEvent,
    figures: dict[int, BattleFigure],
    draw: dict[str, Any] | None = None,
) -> str:
    system = watched.system
    view = event_view(system, event)
    data: dict[str, Any] = {
        "seq": event.seq,
        "kind": event.kind.lower(),
        "sentence": view.sentence,
        "dice": view.dice,
        "line": render_to_string("pages/battle/_event_line.html", {"view": view}),
        "result": render_to_string(
            "pages/battle/_event_result.html", {"view": view, "can_play": False}
        ),
        "odds": "",
        "chips": {},
    }
    if event.kind == EventKind.CHECK:
        data["odds"] = _odds_text(watched, event)
    touched = _touched(event)
    data["chips"] = {str(pk): _chips(system, figures[pk]) for pk in touched if pk in figures}
    if event.kind == EventKind.VOID:
        data["voids"] = event.details.get("voids")
    if draw is not None and event.kind in TURNING:
        data["draw"] = draw
    body = json.dumps(data, separators=(",", ":"))
    return f"id: {event.seq}\nevent: battle-event\ndata: {body}\n\n"


def _touched(event: BattleEvent) -> list[int]:
    if event.kind == EventKind.VOID:
        return [int(pk) for pk in event.details.get("figures", ())]
    return [pk for pk in (event.actor_id, event.target_id) if pk is not None]


#: Rendered messages by (battle, seq, time): every stream of a battle in this process sends
#: the one rendering, made by the writer after its commit (`herald`) or when the event was
#: first read here (its chips as they stood just after it).
_rendered: dict[tuple[int, int, Any], str] = {}


def stream_messages(watched: Watched, after: int) -> list[tuple[int, str]]:
    """Return the SSE messages for the battle's events after `after`, oldest first."""
    # Keyed by the event's time too: a battle number is reused after a test's rollback.
    keys = [
        (watched.battle_id, seq, stamp)
        for seq, stamp in BattleEvent.objects.filter(battle_id=watched.battle_id, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "created_at")[:BATCH]
    ]
    # Looked up once: another thread may clear the cache meanwhile.
    texts = {key: _rendered.get(key) for key in keys}
    missing = [seq for (_, seq, _), text in texts.items() if text is None]
    if missing:
        texts.update(_render(watched, missing))
    return [(key[1], text) for key, text in texts.items() if text is not None]


def _render(watched: Watched, seqs: list[int]) -> dict[tuple[int, int, Any], str]:
    events = list(
        BattleEvent.objects.filter(battle_id=watched.battle_id, seq__in=seqs).select_related(
            "actor", "target"
        )
    )
    return _keep(watched, events)


def _keep(
    watched: Watched, events: list[BattleEvent], battle: Battle | None = None
) -> dict[tuple[int, int, Any], str]:
    """Render the events (loaded with their actor and target); keep them in `_rendered`.
    `battle`: the writer's battle as its action left it (`herald`), else read when needed."""
    figures = _figures(events, battle)
    draw = _draw(watched, battle, events) if any(e.kind in TURNING for e in events) else None
    texts = {
        (watched.battle_id, event.seq, event.created_at): _message(watched, event, figures, draw)
        for event in events
    }
    if len(_rendered) > 20_000:
        _rendered.clear()
    _rendered.update(texts)
    return texts


def _figures(events: list[BattleEvent], battle: Battle | None = None) -> dict[int, BattleFigure]:
    """The figures the events touched, as they stand: a check's actor and target came with
    it; a void's figures are the writer's battle's (`herald`), else read."""
    figures = {f.pk: f for e in events for f in (e.actor, e.target) if f is not None}
    if battle is not None and prefetched(battle, "figures"):
        figures = {f.pk: f for f in battle.figures.all()} | figures
    wanted = {pk for event in events for pk in _touched(event)} - figures.keys()
    if wanted:
        figures.update((f.pk, f) for f in BattleFigure.objects.filter(pk__in=wanted))
    return figures


@receiver(live.event_logged)
def herald(
    sender: object, *, battle_id: int, seq: int, event: BattleEvent | None = None, **kwargs: Any
) -> str:
    """Render the battle's event `seq` as every stream sends it, for the ring to carry.

    Called by the writer once its transaction has committed, with its own `event` (its
    battle and figures as the action left them, so nothing is read back) or else one query
    (the event with its battle's rules and the figures it touched); one rendering per
    event, for every process and stream.
    """
    if event is None or event.battle_id != battle_id or event.seq != seq:
        event = BattleEvent.objects.select_related("battle__house_rules", "actor", "target").get(
            battle_id=battle_id, seq=seq
        )
    watched = Watched(battle_id, rules_for_battle(event.battle))
    return _keep(watched, [event], event.battle)[(battle_id, seq, event.created_at)]


#: Events that may change whose turn it is to draw: a start, a draw, and a void (of a draw).
TURNING = (EventKind.ACTIVATION, EventKind.VOID)


def _draw(
    watched: Watched, battle: Battle | None = None, events: Sequence[BattleEvent] = ()
) -> dict[str, Any]:
    """The draw control as it stands: the activation drawn last, and who draws next.

    The same for every viewer: `sides` are the side indexes that draw next (None: either),
    and `waits` what a phone playing none of them shows instead of its Draw button. From
    the writer's `battle` and its new activation (`events`), where `herald` has them.
    """
    if battle is None:
        battle = Battle.objects.get(pk=watched.battle_id)
    last = _drawn_now(battle, events) or last_activation(battle)
    activation = event_view(watched.system, last) if last is not None else None
    drawers, waits = draw_turn(battle, last)
    return {
        "sides": sorted(drawers) if drawers is not None else None,
        "waits": f"{waits[:1].upper()}{waits[1:]}." if waits else "",
        "now": render_to_string("pages/battle/_activation_now.html", {"activation": activation}),
    }


def _drawn_now(battle: Battle, events: Sequence[BattleEvent]) -> BattleEvent | None:
    """The activation the writer just logged (a start or a draw: the latest one standing,
    as no event follows it yet), when the one event rendered is that; None: read it."""
    if len(events) != 1 or events[0].kind != EventKind.ACTIVATION or events[0].voided:
        return None
    return events[0] if events[0].battle_id == battle.pk else None


def _read_log(watched: Watched, after: int) -> list[tuple[int, str]]:
    # Each of the loop's few pool threads keeps its connection, also under DATABASE_POOL: a
    # read handed back to the pool waited there behind the actions at 50 battles (fan-out
    # p50 11.6 s, bench/live.py), while a kept one never waits.
    # A pooled thread's connection may have died (database restart): reconnect once.
    try:
        return stream_messages(watched, after)
    except (InterfaceError, OperationalError):
        connection.close()
        return stream_messages(watched, after)


read_log = sync_to_async(_read_log, thread_sensitive=False)


def _release_request_connection() -> None:
    """Close the request thread's connection (the session and permission reads): an open
    stream must not hold a database connection while it waits. Inside a transaction (a
    test's) the connection is left alone."""
    if not connection.in_atomic_block:
        connection.close()


class Feed:
    """One battle's events in this process: what the rings carried and what was read from
    the log, handed to every stream of the battle open here.

    The feed keeps the messages, without gaps, for the seqs after `base`; each stream takes
    the ones after its own last event, so it never gets one twice or misses one. A ring that
    carries the event after the feed's last (`offer`) extends it; a ring without the event,
    or one out of turn, asks for a read of the log. A stream behind the feed's window (a
    phone back from a minute offline) reads the log itself, as on a reconnect.

    Reads are single-flight: a stream woken by a ring needs a read begun after the ring
    reached the loop (writers ring after their commit, so that read sees the event); the
    first stream takes the lock and reads, the others find that read covers them.
    """

    def __init__(self, watched: Watched) -> None:
        self.watched = watched
        self.base: int | None = None  # the seq just before the first message kept
        self.messages: list[tuple[int, str]] = []
        self.lock = asyncio.Lock()
        self.read_at = -1.0  # when the last complete read began (`time.monotonic`)

    def offer(self, ring: live.Ring) -> bool:
        """Take the event the ring carried if it is the next one; return True when the feed
        holds the ring's event (no read needed for it)."""
        if self.base is None or ring.seq is None:
            return False
        last = self.messages[-1][0] if self.messages else self.base
        if ring.seq <= last:
            return True
        if ring.seq != last + 1 or ring.message is None:
            return False
        self.messages.append((ring.seq, ring.message))
        self._trim()
        return True

    async def after(
        self, after: int, rings: list[live.Ring], asked: float | None
    ) -> list[tuple[int, str]]:
        """Return the messages after `after`: from the rings, and from the log when a ring
        did not carry its event, or when the stream asked at `asked` (its first call, a poll)."""
        needs = asked
        for ring in rings:
            if not self.offer(ring):
                needs = ring.at if needs is None else max(needs, ring.at)
        if needs is not None:
            async with self.lock:
                if self.read_at <= needs:
                    await self._read(after)
        if self.base is None or after < self.base:
            return await read_log(self.watched, after)
        return [(seq, text) for seq, text in self.messages if seq > after]

    async def _read(self, after: int) -> None:
        began = time.monotonic()
        if self.base is None:  # the battle's first stream here: the feed starts where it is
            self.base = after
        last = self.messages[-1][0] if self.messages else self.base
        read = await read_log(self.watched, last)
        # What the rings brought while the log was read is after it, or in it.
        last = self.messages[-1][0] if self.messages else self.base
        self.messages.extend((seq, text) for seq, text in read if seq > last)
        self._trim()
        # A full batch leaves more in the log: the next wake reads again.
        self.read_at = began if len(read) < BATCH else -1.0

    def _trim(self) -> None:
        if len(self.messages) > FEED_WINDOW:
            dropped = self.messages[: len(self.messages) - FEED_WINDOW]
            del self.messages[: len(dropped)]
            self.base = dropped[-1][0]


#: Messages a feed keeps; a stream further behind reads the log itself.
FEED_WINDOW = 2 * BATCH
#: The feeds of the battles with a stream open, per event loop (a uvicorn worker has one).
_feeds: weakref.WeakValueDictionary[tuple[int, int], Feed] = weakref.WeakValueDictionary()


def feed_for(watched: Watched) -> Feed:
    """Return this loop's feed of the battle, making it for the battle's first stream here."""
    key = (id(asyncio.get_running_loop()), watched.battle_id)
    feed = _feeds.get(key)
    if feed is None:
        feed = _feeds[key] = Feed(watched)
    return feed


async def event_stream(watched: Watched, after: int) -> AsyncIterator[str]:
    """Yield the events after `after`, then each new one as the doorbell rings."""
    bell = live.subscribe(watched.battle_id)
    feed = feed_for(watched)
    try:
        await sync_to_async(_release_request_connection)()
        yield "retry: 1000\n\n"
        quiet_since = time.monotonic()
        asked: float | None = quiet_since  # the first call reads the log after `after`
        rings: list[live.Ring] = []
        while True:
            messages = await feed.after(after, rings, asked)
            for seq, text in messages:
                yield text
                after = seq
            if messages:
                quiet_since = time.monotonic()
            if len(messages) == BATCH:  # more in the log
                rings, asked = [], time.monotonic()
                continue
            # Rings that came while the messages were sent are kept: no wait for them.
            rung = await bell.wait(live.poll_seconds())
            rings = bell.take()
            # No ring within the poll: read anew (a ring lost to a Redis failure).
            asked = None if rung else time.monotonic()
            if time.monotonic() - quiet_since >= KEEPALIVE:
                yield ": keepalive\n\n"
                quiet_since = time.monotonic()
    finally:
        live.unsubscribe(bell)


async def battle_stream(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    """Stream the battle's event log as Server-Sent Events (404 to whoever may not see it)."""
    # On the pool, like the log reads: two hundred phones opening their streams at once
    # share its few connections instead of opening one each.
    watched = await sync_to_async(_visible, thread_sensitive=False)(request, pk)
    if watched is None:
        raise Http404("No such battle.")
    if not isinstance(request, ASGIRequest):
        return await _one_poll(watched, _after(request))
    response = StreamingHttpResponse(
        event_stream(watched, _after(request)), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _one_poll(watched: Watched, after: int) -> HttpResponse:
    """Under WSGI (runserver, Django's test server) answer what is new and end the stream.

    A WSGI thread cannot wait on the doorbell, and an endless stream would hold it forever;
    the browser asks again after `retry` ms, from its last event. The closing `poll` event
    tells the page the end was meant, so it does not say it is reconnecting.
    """
    messages = await read_log(watched, after)
    body = "retry: 2000\n\n" + "".join(text for _, text in messages)
    response = HttpResponse(body + "event: poll\ndata: {}\n\n", content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    return response


# --- spectators ---------------------------------------------------------------------------


def _watch_context(request: HttpRequest, pk: int, screen: bool) -> dict[str, Any]:
    battle = get_object_or_404(battle_with_sides(battles_visible_to(request.user)), pk=pk)
    system = rules_for_battle(battle)
    table = battle_table(battle, system)
    sides = [
        (block.side, [(f, figure_chips(system, f.state, ())) for f in block.figures])
        for block in table.sides
    ]
    return {
        "battle": battle,
        "system": system,
        "sides": sides,
        "views": [event_view(system, e) for e in table.events[:SCREEN_EVENTS]],
        "last_seq": table.events[0].seq if table.events else 0,
        "screen": screen,
    }


@login_required
def battle_watch(request: HttpRequest, pk: int) -> HttpResponse:
    """Watch the battle read-only: the last events and both sides' chips, kept live."""
    return render(request, "pages/battle/watch.html", _watch_context(request, pk, False))


@login_required
def battle_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The big screen for a club's projector: large type, the last events, both sides."""
    return render(request, "pages/battle/watch.html", _watch_context(request, pk, True))


def watch_qr(request: HttpRequest, battle: Battle) -> str:
    """Return the watch link's QR code as inline SVG (for a phone at the next table)."""
    import segno

    url = request.build_absolute_uri(reverse("battle-watch", args=[battle.pk]))
    return segno.make(url, error="m").svg_inline(scale=3, dark="#222", light=None)
