"""Club-night bench: the production stack under a club night's mix, on one box; prints JSON.

What it does, all on 127.0.0.1 and all bounded:
1. (re)creates its own database (`muster_club_night`, CLUB_DATABASE) on the machine's
   PostgreSQL, migrates it and seeds one campaign with BATTLES battles, each between two
   players in "each on their own phone" mode, with the cards activation method started;
2. starts the stack as docker-compose.yml serves it: uvicorn on config.asgi (`--workers`,
   default 3 as in docker-compose.yml, CONN_MAX_AGE=0, DATABASE_POOL 20 as there), a Celery
   worker on the default queue,
   both on Redis (CLUB_REDIS_URL, default db 8), tasks NOT eager;
3. every phone loads its table (as a browser does, which also gives it its CSRF token) and
   opens the battle's event stream (GET /battles/<pk>/stream/, held open for the whole run);
4. for SECONDS seconds, in each battle the two phones take turns, each acting every 3 s
   (ACT_EVERY) as the table assistant's forms do: a check (POST /battles/<pk>/check/), an
   activation draw (POST .../draw/) and a void of the latest event (POST .../void/), posted
   as htmx posts them (HX-Request), which the server answers with the table to swap in; an
   action is timed from the POST to the end of that answer (and of the table page, should a
   server answer with a redirect instead, as one without the one-round-trip answer does),
   which is what the player waits for. Both sides check, then side 1 draws an activation and voids
   its own draw (a player may void only their own figure's events and their own draws, so
   the void is side 1's), so the mix is half checks, a quarter draws, a quarter voids;
   every client runs a closed loop (its next request waits for the answer to the last), so a
   saturated server is offered less than the mix: compare requests/s with about 27 offered
   (20 actions, about 3 pages and 4 probes a second);
   READERS club members each load a page, home, the campaign page or the standings
   (GET /api/campaigns/<pk>/standings/), and read it for 3 s on average (--read-every; 0.5 to
   1.5 times that) before the next: people with think time, not a closed loop; the organiser
   asks for the campaign report of every battle once a minute, a print job (202) rendered by
   the worker, and polls it until done; a probe times GET /healthz every 0.25 s on the same
   server meanwhile;
5. closes the streams, stops the worker and uvicorn, drops the database.

Printed: sustained requests/s, p50/p95/p99 per endpoint kind, errors (with samples), each
kind's p95 over /healthz's p95 measured in the same run, the streams held open, the print
jobs' times, the load average at the start and the end, and the budget (issue 29): table
actions p95 <= 150 ms, reads p95 <= 150 ms, 0 errors.

    .venv/bin/python bench/club_night.py                          # 30 battles, 60 s
    .venv/bin/python bench/club_night.py --seconds 20 --battles 5  # a short run
    .venv/bin/python bench/club_night.py --workers 3               # compare worker counts
    .venv/bin/python bench/club_night.py --costs 3                 # CPU ms, queries per kind

PG_URL overrides the PostgreSQL server (default postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import h11

# Sibling benches: live.py's stack helpers (PostgreSQL, uvicorn's life cycle, the SSE reader)
# and load.py's percentiles, so the three benches measure the same way.
from live import Stream, _follow, _free_port, _psql, _stop
from load import _percentiles

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PG = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")
DATABASE = os.environ.get("CLUB_DATABASE", "muster_club_night")
REDIS = os.environ.get("CLUB_REDIS_URL", "redis://127.0.0.1:6379/8")
ACT_EVERY = 3.0  # s between one phone's actions
READ_EVERY = 3.0  # s a reader spends on a page before the next (the mean; --read-every)
PRINT_EVERY = 60.0  # s between print jobs
HEALTH_EVERY = 0.25  # s between /healthz probes
WINDOW = 10.0  # s: the report's p95 per stretch of the night
WORKER_NICE = 6  # the Celery worker's share of a busy CPU: a quarter of the web's, as in compose
BUDGET_MS = {"action": 150.0, "read": 150.0}
SEED = """
import json
from django.test import Client
from rest_framework.authtoken.models import Token
from battles.services import SideChoice, battle_activation_start, battle_start
from campaigns.models import Role
from tests.factories import (CampaignFactory, CharacterFactory, ForceFactory,
                             MembershipFactory, UnitFactory, UserFactory)
BATTLES = int(%d)
campaign = CampaignFactory(name="Club Night")
def session(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value
organiser = UserFactory(username="organiser")
MembershipFactory(user=organiser, campaign=campaign, role=Role.ORGANISER)
battles = []
for b in range(BATTLES):
    phones, forces = [], []
    for side in range(2):
        user = UserFactory(username=f"club{b}-{side}")
        MembershipFactory(user=user, campaign=campaign, role=Role.PLAYER)
        force = ForceFactory(owner=user, campaign=campaign, name=f"Company {b}-{side}")
        unit = UnitFactory(force=force, name="Line")
        for i in range(6):
            CharacterFactory(force=force, unit=unit, name=f"Trooper {b}-{side}-{i}")
        forces.append(force)
        phones.append({"session": session(user)})
    battle = battle_start(sides=[SideChoice(force=f) for f in forces], campaign=campaign,
                          user=None, one_phone=False)
    battle_activation_start(battle=battle, method="cards")
    figures = [list(battle.figures.filter(side__index=i).order_by("pk")
                    .values_list("pk", flat=True)) for i in range(2)]
    for side in range(2):
        phones[side]["actor"], phones[side]["target"] = figures[side][0], figures[1 - side][0]
    battles.append({"id": battle.pk, "phones": phones})
print(json.dumps({"campaign": campaign.pk, "battles": battles,
                  "organiser": Token.objects.create(user=organiser).key}))
"""
# --costs: each request kind's server-side cost, in this process (Django's test client through
# every middleware, no ASGI server): CPU seconds (time.process_time, robust to a loaded
# machine, unlike latency) and queries per request. Queries are counted in a first pass (the
# capture itself costs CPU), CPU timed in the rounds after it.
COSTS = """
import json, time, uuid
from urllib.parse import urlencode
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
seeded, rounds, fire = json.loads(%r), int(%d), json.loads(%r)
campaign = seeded["campaign"]
GZ = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
FORM = "application/x-www-form-urlencoded"
def browser(session):
    client = Client()
    client.cookies["sessionid"] = session
    return client
def act(client, battle, phone, action):
    # As htmx posts the table's forms: the answer is the table to swap in, or a redirect to
    # the table page (a server without the one-round-trip answer), which htmx then fetches.
    fields = {"key": uuid.uuid4().hex, "actor": str(phone["actor"])}
    if action == "check":
        fields |= {**fire, "against": str(phone["target"])}
    # Urlencoded, as htmx sends a form (the test client's default is multipart).
    body = urlencode(fields)
    table = client.post(f"/battles/{battle}/{action}/", body, content_type=FORM,
                        HTTP_HX_REQUEST="true", **GZ)
    if table.status_code == 302:
        table = client.get(table["Location"].partition("#")[0], HTTP_HX_REQUEST="true", **GZ)
    assert table.status_code == 200, table
    return len(table.content)
def read(client, path, accept):
    page = client.get(path, HTTP_ACCEPT=accept, **GZ)
    assert page.status_code == 200, (path, page.status_code)
    return len(page.content)
battles = seeded["battles"][:5]  # the first five: a sample of each kind, not the whole night
phones = [(b["id"], p, browser(p["session"])) for b in battles for p in b["phones"]]
reader = phones[0][2]
turns = [(0, "check"), (1, "check"), (0, "draw"), (0, "void")]
def one_round():
    for side, action in turns:
        for b in range(len(battles)):
            battle, phone, client = phones[2 * b + side]
            yield f"action:{action}", lambda: act(client, battle, phone, action)
    for kind, path, accept in (
        ("read:home", "/", "text/html"),
        ("read:campaign", f"/campaigns/{campaign}/", "text/html"),
        ("read:standings", f"/api/campaigns/{campaign}/standings/", "application/json"),
        ("healthz", "/healthz", "*/*"),
    ):
        for _ in range(len(battles)):
            yield kind, lambda: read(reader, path, accept)
cpu, queries, sizes = {}, {}, {}
for kind, call in one_round():
    with CaptureQueriesContext(connection) as captured:
        sizes[kind] = call()
    queries.setdefault(kind, []).append(len(captured))
for _ in range(rounds):
    for kind, call in one_round():
        started = time.process_time()
        call()
        cpu.setdefault(kind, []).append(time.process_time() - started)
print(json.dumps({kind: {
    "requests": len(spent),
    "cpu_ms_per_request": round(1000 * sum(spent) / len(spent), 2),
    "queries_per_request": round(sum(queries[kind]) / len(queries[kind]), 1),
    "bytes_sent": sizes[kind],
} for kind, spent in sorted(cpu.items())}))
"""
# What a phone's check form posts for Rencounter's fire (the table's defaults, skill 7).
FIRE = {
    "check": "fire",
    "skill": "7",
    "modifier": "0",
    "damage_modifier": "0",
    "weapon": "none",
    "range": "short",
    "shots": "1",
    "target_armour": "0",
    "target_shield": "none",
    "cover": "none",
}
BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html"}


def _env(pool: int = 0) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "REDIS_URL": REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "false",  # the print jobs go to the worker, as in production
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CONN_MAX_AGE": "0",  # as docker-compose.yml's web
        # One player's phone past the API's rate would get 429s; the mix measures capacity.
        "API_THROTTLE_ENABLED": "false",
        "DATABASE_POOL": str(pool),  # 0: a connect per request, as docker-compose.yml today
    }


def _prepare(battles: int, cache: Path | None = None) -> dict:
    """Create, migrate and seed the database; with `cache` (--seed-cache), copy it from the
    template database the first such run left, which takes seconds, not minutes, so A/B runs
    can alternate quickly. A copy starts from the same seeded state as a fresh seed."""
    template = f"{DATABASE}_seeded_{battles}"
    _forget_last_night()
    _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    if cache is not None and cache.exists():
        _psql(f"CREATE DATABASE {DATABASE} TEMPLATE {template}")
        return json.loads(cache.read_text())
    seeded = _seed(battles)
    if cache is not None:
        _psql(f"DROP DATABASE IF EXISTS {template}")
        _psql(f"CREATE DATABASE {template} TEMPLATE {DATABASE}")
        cache.write_text(json.dumps(seeded))
    return seeded


def _forget_last_night() -> None:
    """Empty the bench's own Redis database: a session cached by an earlier run (one its
    server could not read, cached as empty) or its throttle counts must not carry over."""
    import redis

    redis.Redis.from_url(REDIS).flushdb()


def _seed(battles: int) -> dict:
    _psql(f"CREATE DATABASE {DATABASE}")
    manage = [PYTHON, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=_env(), check=True, timeout=600
    )
    seeded = subprocess.run(
        [*manage, "shell", "-v", "0", "-c", SEED % battles],
        cwd=ROOT, env=_env(), check=True, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return json.loads(seeded.stdout.strip().splitlines()[-1])


def _costs(seeded: dict, rounds: int) -> dict:
    """Each request kind's CPU ms and queries, measured in a Django process of its own."""
    script = COSTS % (json.dumps(seeded), rounds, json.dumps(FIRE))
    measured = subprocess.run(
        [PYTHON, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    if measured.returncode:
        raise RuntimeError(f"the costs run failed:\n{measured.stderr[-3000:]}")
    return json.loads(measured.stdout.strip().splitlines()[-1])


def _cost_report(costs: dict, args: argparse.Namespace, load_start: float) -> dict:
    return {
        "benchmark": "club_night --costs",
        "measure": "CPU ms (process_time) and queries per request, Django test client in-process",
        "load_average_1m": {"start": load_start, "end": round(os.getloadavg()[0], 2)},
        "battles": args.battles,
        "rounds": args.costs,
        "by_kind": costs,
    }


def _start(command: list[str], pool: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, cwd=ROOT, env=_env(pool), start_new_session=True, stdout=subprocess.DEVNULL
    )


def _start_stack(
    port: int, workers: int, pool: int, worker_nice: int = WORKER_NICE
) -> tuple[subprocess.Popen[bytes], ...]:
    """Start uvicorn and a Celery worker as docker-compose.yml does; wait for /healthz.

    The worker runs at `nice` `worker_nice`: compose gives the background services a quarter
    of the web's CPU weight (`cpu_shares` 256 against 1,024), and on one box without
    containers nice 6 is that same weight (272 against 1,024)."""
    server = _start(
        [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers), "--no-access-log",
         "--log-level", "warning", "--timeout-graceful-shutdown", "2"], pool
    )  # fmt: skip
    worker = _start(
        ["nice", "-n", str(worker_nice), PYTHON, "-m", "celery", "-A", "config", "worker",
         "--loglevel", "WARNING", "--concurrency", "1", "--prefetch-multiplier", "1",
         "-Q", "celery"], pool
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if asyncio.run(_probe(port)) == 200:
                time.sleep(1.0 * workers)  # every worker up, not just the first
                return server, worker
        except (OSError, h11.RemoteProtocolError):
            time.sleep(0.3)
    for process in (server, worker):
        _stop(process)
    raise RuntimeError("uvicorn did not answer /healthz within 60 s")


async def _probe(port: int) -> int:
    client = Client(port)
    try:
        return (await client.get("/healthz")).status
    finally:
        client.close()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Client:
    """One browser's keep-alive HTTP/1.1 connection (h11), with its cookies."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.cookies = dict(cookies or {})
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.h11 = h11.Connection(h11.CLIENT)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("GET", path, headers or {})

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Answer:
        """Send a request; on a kept connection the server closed meanwhile (its keep-alive
        timeout), reconnect and send it again, as a browser does."""
        reused = self.streams is not None
        try:
            return await self._send(method, path, headers, body)
        except (ConnectionError, h11.RemoteProtocolError):
            if not reused:
                raise
            self.close()
            return await self._send(method, path, headers, body)

    async def _send(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        if self.streams is None or self.h11.our_state is not h11.IDLE:
            self.close()
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            self.h11 = h11.Connection(h11.CLIENT)
        reader, writer = self.streams
        sent = {"Host": "127.0.0.1", "Content-Length": str(len(body)), **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        writer.write(
            self.h11.send(h11.Request(method=method, target=path, headers=list(sent.items())))
        )
        writer.write(self.h11.send(h11.Data(data=body)) if body else b"")
        writer.write(self.h11.send(h11.EndOfMessage()))
        await writer.drain()
        return await self._answer(reader)

    async def _answer(self, reader: asyncio.StreamReader) -> Answer:
        status, headers, chunks = 0, {}, []
        while True:
            event = self.h11.next_event()
            if event is h11.NEED_DATA:
                self.h11.receive_data(await reader.read(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
                headers = {k.decode().lower(): v.decode() for k, v in event.headers}
                self._keep_cookies(event.headers)
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                break
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
        return Answer(status, headers, b"".join(chunks))

    def _keep_cookies(self, headers: Iterable[tuple[bytes, bytes]]) -> None:
        for name, value in headers:
            if name.lower() == b"set-cookie":
                key, _, rest = value.decode().partition("=")
                self.cookies[key] = rest.split(";", 1)[0]

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


@dataclass
class Tally:
    """Latencies (ms) by endpoint kind, requests completed, errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    jobs: list[float] = field(default_factory=list)  # s from the request to the PDF ready
    # (s since the tally began, kind, ms) of every answer, and each print job's (from, to):
    # which part of the night was slow, and whether a print job was rendering then.
    timeline: list[tuple[float, str, float]] = field(default_factory=list)
    printing: list[tuple[float, float]] = field(default_factory=list)
    began: float = field(default_factory=time.perf_counter)

    def add(self, kind: str, started: float, requests: int, error: str | None = None) -> None:
        now = time.perf_counter()
        self.latencies.setdefault(kind, []).append((now - started) * 1000)
        self.timeline.append((now - self.began, kind, (now - started) * 1000))
        self.requests += requests
        if error:
            self.errors.append(f"{kind}: {error}")


async def _pause(seconds: float, until: float) -> None:
    """Wait `seconds`, but not past the end of the run."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.monotonic())))


def _spread(values: list[float]) -> dict[str, float]:
    """Return p50/p95/p99 (load.py's), or the one value when there is only one."""
    if len(values) == 1:
        return dict.fromkeys(("p50", "p95", "p99"), round(values[0], 1))
    return _percentiles(values)


async def _table(client: Client, path: str) -> Answer:
    """Fetch the table page a redirect names, as htmx follows it (the header kept)."""
    return await client.get(path, {**BROWSER, "HX-Request": "true"})


async def _open_table(port: int, battle: int, phone: dict) -> Client:
    """Load the table as a phone's browser does; keep its CSRF token for the forms."""
    client = Client(port, {"sessionid": phone["session"]})
    page = await client.get(f"/battles/{battle}/", {"Accept": "text/html"})  # plain, to read
    found = re.search(rb'"X-CSRFToken": "([^"]+)"', page.body)
    if page.status != 200 or found is None:
        raise RuntimeError(f"the table of battle {battle} answered {page.status}")
    phone["csrf"] = found.group(1).decode()
    return client


async def _act(client: Client, battle: int, phone: dict, action: str, tally: Tally) -> None:
    """Post one of the table's forms as htmx does; the answer is the table to swap in (a
    redirect's table page is fetched as htmx would, from a server that answers so)."""
    fields = {"key": uuid.uuid4().hex, "actor": str(phone["actor"])}
    if action == "check":
        fields |= {**FIRE, "against": str(phone["target"])}
    body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": phone["csrf"],
        "Accept-Encoding": BROWSER["Accept-Encoding"],
        "HX-Request": "true",
    }
    started = time.perf_counter()
    try:
        posted = await client.request("POST", f"/battles/{battle}/{action}/", headers, body)
    except (OSError, h11.ProtocolError) as exc:
        tally.add(f"action:{action}", started, 0, f"{type(exc).__name__}: {exc}")
        return
    if posted.status == 200:
        tally.add(f"action:{action}", started, 1)
        return
    if posted.status != 302:
        tally.add(f"action:{action}", started, 1, f"answered {posted.status}")
        return
    # The browser sends no #fragment; htmx keeps its header on the redirect it follows.
    location = posted.headers.get("location", f"/battles/{battle}/").partition("#")[0]
    table = await _table(client, location)
    error = None if table.status == 200 else f"table answered {table.status}"
    tally.add(f"action:{action}", started, 2, error)


async def _battle(port: int, battle: dict, until: float, tally: Tally) -> None:
    """The two phones act in turn, one every ACT_EVERY/2 s: both check, then side 1 draws and
    voids its own draw (the other player's draw is theirs to void)."""
    phones = battle["phones"]
    # The players sit down over the first ACT_EVERY s, not all in the same instant (60 table
    # loads at once exhausted a loaded server's database pool before the night began).
    await asyncio.sleep(random.uniform(0, ACT_EVERY))
    clients = [await _open_table(port, battle["id"], phone) for phone in phones]
    turns = [(0, "check"), (1, "check"), (0, "draw"), (0, "void")]
    step = 0
    while time.monotonic() < until:
        started = time.monotonic()
        side, action = turns[step % len(turns)]
        await _act(clients[side], battle["id"], phones[side], action, tally)
        step += 1
        await _pause(ACT_EVERY / 2 - (time.monotonic() - started), until)
    for client in clients:
        client.close()


async def _reader(
    port: int, session: str, campaign: int, until: float, tally: Tally, every: float
) -> None:
    """A club member between games: home, the campaign page or the standings, then a pause
    to read it (`every` s on average, from 0.5 to 1.5 times that), then the next page.

    A person, not a closed loop: the think time follows each answer, so a slow server is
    offered fewer pages, as it would be by people, and no two readers stay in step."""
    client = Client(port, {"sessionid": session})
    json_api = {**BROWSER, "Accept": "application/json"}  # the standings as an app reads them
    pages = {
        "read:home": ("/", BROWSER),
        "read:campaign": (f"/campaigns/{campaign}/", BROWSER),
        "read:standings": (f"/api/campaigns/{campaign}/standings/", json_api),
    }
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        kind, (path, headers) = random.choice(list(pages.items()))
        started = time.perf_counter()
        try:
            page = await client.get(path, headers)
        except (OSError, h11.ProtocolError) as exc:  # an error of the night, not the bench's end
            tally.add(kind, started, 0, f"{type(exc).__name__}: {exc}")
            client.close()
        else:
            error = None if page.status == 200 else f"answered {page.status}"
            tally.add(kind, started, 1, error)
        await _pause(every * random.uniform(0.5, 1.5), until)
    client.close()


async def _print_jobs(port: int, token: str, campaign: int, until: float, tally: Tally) -> None:
    """The organiser prints every battle's report once a minute: a job for the worker."""
    client = Client(port)
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    while time.monotonic() < until:
        started = time.perf_counter()
        asked = await client.get(f"/api/campaigns/{campaign}/report.pdf?all=1", headers)
        # 202: a job for the worker; 200: a campaign of 10 battles or fewer, printed at once.
        error = None if asked.status in (200, 202) else f"answered {asked.status}"
        tally.add("print:request", started, 1, error)
        if asked.status == 202:
            await _await_job(client, json.loads(asked.body)["url"], headers, started, tally)
        await _pause(PRINT_EVERY - (time.perf_counter() - started), until)
    client.close()


async def _await_job(
    client: Client, url: str, headers: dict[str, str], started: float, tally: Tally
) -> None:
    path = "/" + url.split("://", 1)[-1].split("/", 1)[1]
    deadline = time.perf_counter() + PRINT_EVERY
    while time.perf_counter() < deadline:
        await asyncio.sleep(1.0)
        polled = time.perf_counter()
        answer = await client.get(path, headers)
        tally.add("print:poll", polled, 1, None if answer.status == 200 else str(answer.status))
        state = json.loads(answer.body).get("status") if answer.status == 200 else None
        if state in ("DONE", "FAILED"):
            tally.jobs.append(round(time.perf_counter() - started, 2))
            tally.printing.append((started - tally.began, time.perf_counter() - tally.began))
            if state == "FAILED":
                tally.errors.append("print job failed")
            return
    tally.errors.append("print job not done within a minute")


async def _health(port: int, until: float, tally: Tally) -> None:
    client = Client(port)
    while time.monotonic() < until:
        started = time.perf_counter()
        try:
            answer = await client.get("/healthz")
        except (OSError, h11.ProtocolError) as exc:
            tally.add("healthz", started, 0, f"{type(exc).__name__}: {exc}")
            client.close()
        else:
            tally.add("healthz", started, 1, None if answer.status == 200 else str(answer.status))
        await _pause(HEALTH_EVERY, until)
    client.close()


async def _night(port: int, seeded: dict, seconds: float, readers: int, read_every: float) -> dict:
    streams: list[Stream] = []
    followers: list[asyncio.Task[None]] = []
    for battle in seeded["battles"]:
        for phone in battle["phones"]:
            stream = Stream(battle["id"], "phone")
            streams.append(stream)
            followers.append(asyncio.create_task(_follow(port, stream, phone["session"])))
    while sum(s.open for s in streams) < len(streams):
        await asyncio.sleep(0.2)
        if any(t.done() for t in followers):
            next(t for t in followers if t.done()).result()
    tally, campaign = Tally(), seeded["campaign"]
    sessions = [p["session"] for b in seeded["battles"] for p in b["phones"]]
    started, until = time.monotonic(), time.monotonic() + seconds
    await asyncio.gather(
        *(_battle(port, battle, until, tally) for battle in seeded["battles"]),
        *(
            _reader(port, sessions[n % len(sessions)], campaign, until, tally, read_every)
            for n in range(readers)
        ),
        _print_jobs(port, seeded["organiser"], campaign, until, tally),
        _health(port, until, tally),
    )
    elapsed = time.monotonic() - started
    held = sum(s.open for s in streams)
    for follower in followers:
        follower.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    return {"tally": tally, "elapsed": elapsed, "streams": len(streams), "held": held}


def _windows(tally: Tally, width: float = WINDOW) -> list[dict]:
    """Actions' and reads' p95 in each `width` s of the night, and whether a print job was
    rendering then: a slow stretch, or slow throughout."""
    rows: dict[int, dict[str, list[float]]] = {}
    for at, kind, ms in tally.timeline:
        group = kind.partition(":")[0]
        if group in ("action", "read"):
            rows.setdefault(int(at // width), {"action": [], "read": []})[group].append(ms)
    return [
        {
            "from_s": n * width,
            "actions": len(row["action"]),
            "action_p95": _spread(row["action"])["p95"] if row["action"] else None,
            "read_p95": _spread(row["read"])["p95"] if row["read"] else None,
            "printing": any(a < (n + 1) * width and b > n * width for a, b in tally.printing),
        }
        for n, row in sorted(rows.items())
    ]


def _report(run: dict, args: argparse.Namespace, load_start: float) -> dict:
    tally: Tally = run["tally"]
    spreads = {k: _spread(v) for k, v in sorted(tally.latencies.items())}
    health = spreads.get("healthz", {}).get("p95") or None
    kinds = {
        k: {
            "count": len(tally.latencies[k]),
            **spread,
            "p95_over_healthz_p95": round(spread["p95"] / health, 1) if health else None,
        }
        for k, spread in spreads.items()
    }
    actions = [ms for k, v in tally.latencies.items() if k.startswith("action:") for ms in v]
    reads = [ms for k, v in tally.latencies.items() if k.startswith("read:") for ms in v]
    grouped = {"action": _spread(actions), "read": _spread(reads)}
    windows = _windows(tally, args.window)
    return {
        "benchmark": "club_night",
        "server": f"uvicorn --workers {args.workers} (ASGI), PostgreSQL, Redis, 1 Celery worker",
        "worker_nice": args.worker_nice,
        "db_pool_size": args.pool,
        "cpus": os.cpu_count(),
        "load_average_1m": {"start": load_start, "end": round(os.getloadavg()[0], 2)},
        "battles": args.battles,
        "phones": 2 * args.battles,
        "readers": args.readers,
        "reader_think_seconds": args.read_every,
        "seconds": round(run["elapsed"], 1),
        "requests": tally.requests,
        "requests_per_second": round(tally.requests / run["elapsed"], 1),
        "streams_open": run["streams"],
        "streams_held_to_the_end": run["held"],
        "ms_by_kind": kinds,
        "ms_table_actions": grouped["action"],
        "ms_reads": grouped["read"],
        "print_job_seconds": tally.jobs,
        "print_jobs_from_to_s": [(round(a, 1), round(b, 1)) for a, b in tally.printing],
        "by_window": windows,
        "errors": len(tally.errors),
        "error_samples": sorted(set(tally.errors))[:5],
        "budget": {
            "p95_ms": BUDGET_MS,
            "actions_ok": grouped["action"]["p95"] <= BUDGET_MS["action"],
            "reads_ok": grouped["read"]["p95"] <= BUDGET_MS["read"],
            "zero_errors": not tally.errors,
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--readers", type=int, default=10, help="club members browsing")
    parser.add_argument(
        "--read-every",
        type=float,
        default=READ_EVERY,
        help="a reader's mean think time between pages, s",
    )
    parser.add_argument("--workers", type=int, default=3, help="uvicorn worker processes")
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=WORKER_NICE,
        help="the Celery worker's nice (compose: a quarter of the web's CPU weight; 0: equal)",
    )
    parser.add_argument(
        "--window", type=float, default=WINDOW, help="s: the stretch `by_window` reports"
    )
    parser.add_argument(
        "--pool", type=int, default=20, help="DATABASE_POOL per process (0: a connect a request)"
    )
    parser.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument(
        "--seed-cache",
        type=Path,
        help="JSON file: the first run seeds and keeps a template database, later runs copy it",
    )
    parser.add_argument(
        "--costs",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="instead of the night: CPU ms and queries per request kind, in-process, ROUNDS rounds",
    )
    args = parser.parse_args()
    load_start = round(os.getloadavg()[0], 2)
    try:
        seeded = _prepare(args.battles, args.seed_cache)
    except (OSError, subprocess.SubprocessError) as exc:
        print(json.dumps({"benchmark": "club_night", "skipped": f"no PostgreSQL: {exc}"}))
        return 0
    if args.costs:
        try:
            costs = _costs(seeded, args.costs)
        finally:
            if not args.keep_database:
                _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        print(json.dumps(_cost_report(costs, args, load_start), indent=2))
        return 0
    port = args.port or _free_port()
    stack = _start_stack(port, args.workers, args.pool, args.worker_nice)
    try:
        run = asyncio.run(_night(port, seeded, args.seconds, args.readers, args.read_every))
    finally:
        for process in stack:
            _stop(process)
        if not args.keep_database:
            _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    print(json.dumps(_report(run, args, load_start), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
