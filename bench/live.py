"""Live-table bench: event fan-out under ASGI (uvicorn) on PostgreSQL + Redis; prints JSON.

What it does, all on 127.0.0.1 and all bounded:
1. (re)creates its own database (`muster_t28live` unless LIVE_DATABASE says otherwise) on the
   machine's PostgreSQL, migrates it and seeds BATTLES battles, each between two players'
   forces in "each on their own phone" mode, and two club members who watch every battle;
2. starts uvicorn (`--workers`, default 3 as docker-compose.yml) with REDIS_URL on Redis db 9
   (LIVE_REDIS_URL), so every ring goes through Redis pub/sub;
3. opens, per battle, the event stream (GET /battles/<pk>/stream/) of both phones and both
   spectators, then each phone resolves a check (POST /api/battles/<pk>/resolve/) every
   2 s for SECONDS seconds;
4. waits for the streams to drain, closes them, stops uvicorn, and compares every client's
   received event ids with the battle's log.

Printed, with the load average (`os.getloadavg`, as `uptime`) before and after:
- `fanout_ms`: the fan-out itself, from the moment the action's commit was published on Redis
  (the bench watches the channel like a server process does; each ring names its event) to
  the event's arrival at each client; budget p95 <= 250 ms (issue 28);
- `action_to_others_ms`: what a player sees, from the acting phone's request completing (its
  answer read) to the event's arrival at the other phone and the spectators ("the opponent's
  phone shows each new event within one second"); a negative value: it arrived first;
- `created_at_ms`: the old figure, from the event's `created_at` (set before the commit, so it
  also counts the action's own work), kept for comparison;
- actions intended (every phone every 2 s) and achieved per second, the action's round trip,
  the streams held open, the server's PostgreSQL connections while they were open, memory per
  open stream (RSS growth of the workers when the streams opened, over their number), and
  events lost or duplicated (0 and 0 expected: every client's ids compared with the log);
- `cpu_ms_per_action`: CPU time (/proc/<pid>/stat) over the acting window and the drain, per
  action, of the server (uvicorn's processes), the bench database's PostgreSQL backends, the
  Redis server (shared with whoever else uses it) and this client; with `server_cores_used`
  and `box_busy_share` (the whole machine, every helper's work too). On a shared machine the
  latencies swing with the neighbours' load; CPU per action barely does.

    python bench/live.py                     # 50 battles x (2 phones + 2 spectators), 2 min
    python bench/live.py --seconds 30        # shorter
    LIVE_DATABASE=muster_t28b LIVE_REDIS_URL=redis://127.0.0.1:6379/1 \
        python bench/live.py --battles 10 --port 8100   # a helper's own database, Redis db, port
    python bench/live.py --streams none      # the actions alone: their CPU without the fan-out
    python bench/live.py --tree /work/main   # serve another checkout (a "before"), same bench
    python bench/live.py --profile /tmp/p    # cProfile each worker's window (config/asgi.py)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
#: The tree whose server is measured (--tree): another checkout's "before", same bench.
TREE = ROOT
PYTHON = sys.executable
PG = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")
DATABASE = os.environ.get("LIVE_DATABASE", "muster_t28live")
REDIS = os.environ.get("LIVE_REDIS_URL", "redis://127.0.0.1:6379/9")
BUDGET_P95_MS = 250.0
ACT_EVERY = 2.0
SEED = """
import json
from django.test import Client
from rest_framework.authtoken.models import Token
from battles.services import SideChoice, battle_start
from campaigns.models import Role
from tests.factories import (CampaignFactory, CharacterFactory, ForceFactory,
                             MembershipFactory, UnitFactory, UserFactory)
BATTLES = int(%d)
campaign = CampaignFactory(name="Live Wars")
def session(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value
watchers = []
for n in range(2):
    user = UserFactory(username=f"watcher{n}")
    MembershipFactory(user=user, campaign=campaign, role=Role.PLAYER)
    watchers.append(session(user))
battles = []
for b in range(BATTLES):
    phones, forces = [], []
    for side in range(2):
        user = UserFactory(username=f"live{b}-{side}")
        MembershipFactory(user=user, campaign=campaign, role=Role.PLAYER)
        force = ForceFactory(owner=user, campaign=campaign, name=f"Company {b}-{side}")
        unit = UnitFactory(force=force, name="Line")
        for i in range(3):
            CharacterFactory(force=force, unit=unit, name=f"Trooper {b}-{side}-{i}")
        forces.append(force)
        phones.append({"token": Token.objects.create(user=user).key, "session": session(user)})
    battle = battle_start(sides=[SideChoice(force=f) for f in forces], campaign=campaign,
                          user=None, one_phone=False)
    figures = [list(battle.figures.filter(side__index=i).order_by("pk")
                    .values_list("pk", flat=True)) for i in range(2)]
    for side in range(2):
        phones[side]["actor"], phones[side]["target"] = figures[side][0], figures[1 - side][0]
    battles.append({"id": battle.pk, "phones": phones})
print(json.dumps({"battles": battles, "watchers": watchers}))
"""


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "REDIS_URL": REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # As docker-compose.yml's web: under ASGI a kept connection per request thread leaks,
        # so a pool (LIVE_DATABASE_POOL=0: none, every request connects anew).
        "CONN_MAX_AGE": "0",
        "DATABASE_POOL": os.environ.get("LIVE_DATABASE_POOL", "20"),
        "API_THROTTLE_ENABLED": "false",
    }


def _psql(sql: str, database: str = "postgres") -> str:
    parts = urlsplit(PG)
    done = subprocess.run(
        ["psql", "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432), "-U",
         parts.username or "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-qtAc", sql],
        check=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return done.stdout.strip()


def _prepare(battles: int) -> dict:
    _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DATABASE}")
    manage = [PYTHON, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput", "-v", "0"], cwd=TREE, env=_env(), check=True, timeout=600
    )
    seeded = subprocess.run(
        [*manage, "shell", "-v", "0", "-c", SEED % battles],
        cwd=TREE, env=_env(), check=True, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return json.loads(seeded.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [
        PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--no-access-log",
        "--log-level", "warning", "--timeout-graceful-shutdown", "2",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=TREE, env=_env(), start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if b" 200 " in probe.recv(200):
                    time.sleep(1.0 * workers)  # every worker up, not just the first
                    return server
        except OSError:
            time.sleep(0.3)
    _stop(server)
    raise RuntimeError("uvicorn did not answer /healthz within 60 s")


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=20)


def _workers_rss_kb(server: subprocess.Popen[bytes]) -> int:
    """Return the resident memory of uvicorn's worker processes (its children), in kB."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(server.pid) and "VmRSS" in fields:
            total += int(fields["VmRSS"].split()[0])
    return total


#: What the CPU is read for: the server's processes (uvicorn's supervisor and workers), the
#: PostgreSQL backends of the bench's database, the shared Redis server, and this client.
CPU_GROUPS = ("server", "postgres", "redis_shared", "client")
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float | None:
    """Return the process's user + system CPU time so far (`/proc/<pid>/stat`), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # fields[0] is the state, field 3 of proc(5)
    return (int(fields[11]) + int(fields[12])) / TICKS


def _children(parent: int) -> list[int]:
    pids = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if f"\nPPid:\t{parent}\n" in text:
            pids.append(int(status.parent.name))
    return pids


def _named(command: str) -> list[int]:
    pids = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == command:
                pids.append(int(comm.parent.name))
        except OSError:
            continue
    return pids


def _cpu_snapshot(server: subprocess.Popen[bytes]) -> dict[str, dict[int, float]]:
    """Read every measured process's CPU seconds so far, by group and pid."""
    backends = _psql(f"SELECT pid FROM pg_stat_activity WHERE datname = '{DATABASE}'")
    pids = {
        "server": [server.pid, *_children(server.pid)],
        "postgres": [int(pid) for pid in backends.split()],
        "redis_shared": _named("redis-server"),
    }
    snapshot = {
        group: {pid: cpu for pid in members if (cpu := _cpu_seconds(pid)) is not None}
        for group, members in pids.items()
    }
    usage = resource.getrusage(resource.RUSAGE_SELF)
    snapshot["client"] = {os.getpid(): usage.ru_utime + usage.ru_stime}
    # The whole machine (every helper's work too): busy and idle time, from /proc/stat.
    ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    snapshot["box"] = {0: sum(ticks) / TICKS, 1: (ticks[3] + ticks[4]) / TICKS}
    snapshot["clock"] = {0: time.monotonic()}
    return snapshot


def _cpu_used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict:
    """CPU seconds each group used between the snapshots (a backend born between: all of it),
    the seconds between them, and how busy the whole machine was."""
    used: dict[str, float] = {
        group: sum(cpu - before[group].get(pid, 0.0) for pid, cpu in after[group].items())
        for group in CPU_GROUPS
    }
    total = after["box"][0] - before["box"][0]
    idle = after["box"][1] - before["box"][1]
    used["seconds"] = after["clock"][0] - before["clock"][0]
    used["box_busy_share"] = 1 - idle / total if total else 0.0
    return used


@dataclass
class Stream:
    battle: int
    role: str  # "phone0", "phone1" (the phone of side 0 or 1) or "spectator"
    received: list[tuple[int, float]] = field(default_factory=list)
    open: bool = False


@dataclass
class Tally:
    """What the phones did: each action's event and when its answer was read (wall clock)."""

    actions: int = 0
    errors: list[int] = field(default_factory=list)
    answered: dict[tuple[int, int], tuple[str, float]] = field(default_factory=dict)
    round_trips: list[float] = field(default_factory=list)
    rings: dict[tuple[int, int], float] = field(default_factory=dict)


async def _follow(port: int, stream: Stream, cookie: str) -> None:
    """Read one SSE stream, noting each event id and when it arrived (wall clock), until
    cancelled. No timeout per line: 200 idle streams waking twice a second cost this
    client, which shares the server's machine, more than the events did."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /battles/{stream.battle}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept: text/event-stream\r\nCookie: sessionid={cookie}\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream {stream.battle} answered {status!r}")
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    stream.open = True
    seq = None
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            text = line.decode().rstrip("\r\n")
            # Chunked transfer: size lines are hex digits only; SSE lines have a colon.
            if text.startswith("id: "):
                seq = int(text[4:])
            elif text.startswith("data: ") and seq is not None:
                stream.received.append((seq, time.time()))
                seq = None
    finally:
        stream.open = False
        writer.close()


async def _request(port: int, method: str, path: str, token: str, body: dict) -> tuple[int, dict]:
    """Send one API request on a new connection; return its status and its JSON answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    payload = json.dumps(body).encode()
    writer.write(
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        f"Connection: close\r\n\r\n".encode()
        + payload
    )
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    answer = await reader.read()
    writer.close()
    body_text = answer.split(b"\r\n\r\n", 1)[-1]
    try:
        return status, json.loads(body_text)
    except ValueError:
        return status, {}


async def _phone(
    port: int, battle: int, role: str, phone: dict, until: float, tally: Tally
) -> None:
    await asyncio.sleep(random.uniform(0, ACT_EVERY))
    body = {"check": "fire", "actor": phone["actor"], "target": phone["target"]}
    body["params"] = {"skill": 9}
    while time.monotonic() < until:
        started = time.monotonic()
        status, answer = await _request(
            port, "POST", f"/api/battles/{battle}/resolve/", phone["token"], body
        )
        done = time.time()
        tally.actions += 1
        tally.round_trips.append((time.monotonic() - started) * 1000)
        if status != 201:
            tally.errors.append(status)
        elif "seq" in answer:
            tally.answered[(battle, int(answer["seq"]))] = (role, done)
        await asyncio.sleep(max(0.0, ACT_EVERY - (time.monotonic() - started)))


async def _watch_rings(tally: Tally, ready: asyncio.Event) -> None:
    """Note when each ring ("<battle>:<seq>") is published, as a server's listener hears it."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(REDIS)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    # battles.live.channel_prefix: the channel names carry the Redis database number.
    database = urlsplit(REDIS).path.strip("/") or "0"
    await pubsub.psubscribe(f"muster:{database}:battle-log:*")
    ready.set()
    try:
        async for message in pubsub.listen():
            # "<battle>:<seq>", then (battles.live) the rendered event on the lines after.
            head = message["data"].split(b"\n", 1)[0].decode()
            battle, _, seq = head.partition(":")
            if battle.isdigit() and seq.isdigit():
                tally.rings.setdefault((int(battle), int(seq)), time.time())
    finally:
        await client.aclose()


#: The streams opened per battle (--streams): both phones and both spectators, or fewer, so
#: a run without streams measures the actions' own cost.
STREAMS = {"all": 4, "phones": 2, "none": 0}


def _workers(server: subprocess.Popen[bytes]) -> list[int]:
    """Return uvicorn's worker processes (not multiprocessing's resource tracker)."""
    return [
        pid
        for pid in _children(server.pid)
        if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]


def _profiling() -> bool:
    return bool(os.environ.get("MUSTER_PROFILE_DIR"))


def _clear_profiles(server: subprocess.Popen[bytes]) -> None:
    """Have each worker forget its profile so far (SIGUSR2, config/asgi.py): the start-up."""
    for pid in _workers(server):
        os.kill(pid, signal.SIGUSR2)


async def _dump_profiles(server: subprocess.Popen[bytes], directory: Path) -> None:
    """Ask each uvicorn worker for its profile (SIGUSR1, config/asgi.py); wait for the files."""
    workers = _workers(server)
    for pid in workers:
        os.kill(pid, signal.SIGUSR1)
    files = [directory / f"worker-{pid}.pstats" for pid in workers]
    deadline = time.monotonic() + 120
    while not all(f.exists() for f in files) and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    await asyncio.sleep(2.0)  # the last file written to its end


async def _run(
    port: int, seeded: dict, seconds: float, server: subprocess.Popen[bytes], per_battle: int
) -> dict:
    streams, tasks = [], []
    rss_before = _workers_rss_kb(server)
    for battle in seeded["battles"]:
        cookies = [p["session"] for p in battle["phones"]] + seeded["watchers"]
        roles = ("phone0", "phone1", "spectator", "spectator")
        for role, cookie in list(zip(roles, cookies, strict=True))[:per_battle]:
            stream = Stream(battle["id"], role)
            streams.append(stream)
            tasks.append(asyncio.create_task(_follow(port, stream, cookie)))
    while sum(s.open for s in streams) < len(streams):
        await asyncio.sleep(0.2)
        if any(t.done() for t in tasks):
            next(t for t in tasks if t.done()).result()
    await asyncio.sleep(1.0)
    rss_open = _workers_rss_kb(server)
    connections = int(_psql(f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{DATABASE}'"))
    tally = Tally()
    ready = asyncio.Event()
    watcher = asyncio.create_task(_watch_rings(tally, ready))
    await ready.wait()
    load_before = os.getloadavg()
    cpu_before = _cpu_snapshot(server)
    if _profiling():
        _clear_profiles(server)
    until = time.monotonic() + seconds
    started = time.monotonic()
    await asyncio.gather(
        *(
            _phone(port, b["id"], f"phone{i}", p, until, tally)
            for b in seeded["battles"]
            for i, p in enumerate(b["phones"])
        )
    )
    acted_for = time.monotonic() - started
    load_after = os.getloadavg()
    held = sum(s.open for s in streams)
    await asyncio.sleep(3.0)  # let the last events drain
    cpu = _cpu_used(cpu_before, _cpu_snapshot(server))
    if _profiling():  # --profile: each worker writes its profile of the window
        await _dump_profiles(server, Path(os.environ["MUSTER_PROFILE_DIR"]))
    for task in tasks:
        task.cancel()
    watcher.cancel()
    await asyncio.gather(*tasks, watcher, return_exceptions=True)
    return {
        "streams": streams,
        "tally": tally,
        "held": held,
        "rss": (rss_before, rss_open),
        "connections": connections,
        "acted_for": acted_for,
        "load": (load_before, load_after),
        "cpu": cpu,
    }


def _logged(seeded: dict) -> dict[int, dict[int, float]]:
    """Return every battle's log: event number -> created_at (epoch seconds)."""
    ids = ",".join(str(b["id"]) for b in seeded["battles"])
    rows = _psql(
        "SELECT battle_id, seq, extract(epoch from created_at) FROM battles_battleevent "
        f"WHERE battle_id IN ({ids})",
        DATABASE,
    )
    logged: dict[int, dict[int, float]] = {}
    for row in rows.splitlines():
        battle, seq, at = row.split("|")
        logged.setdefault(int(battle), {})[int(seq)] = float(at)
    return logged


def _percentiles(values: list[float]) -> dict[str, float | int | None]:
    values = sorted(values)
    if not values:
        return {"n": 0, "p50": None, "p95": None, "max": None}

    def pct(p: float) -> float:
        return round(values[min(len(values) - 1, int(p * len(values)))], 1)

    return {"n": len(values), "p50": pct(0.50), "p95": pct(0.95), "max": round(values[-1], 1)}


def _latencies(run: dict, logged: dict[int, dict[int, float]]) -> dict[str, list[float]]:
    tally: Tally = run["tally"]
    fanout: list[float] = []
    to_others: list[float] = []
    created: list[float] = []
    for stream in run["streams"]:
        log = logged.get(stream.battle, {})
        for seq, at in stream.received:
            key = (stream.battle, seq)
            if seq in log:
                created.append((at - log[seq]) * 1000)
            if key in tally.rings:
                fanout.append((at - tally.rings[key]) * 1000)
            actor, done = tally.answered.get(key, (stream.role, 0.0))
            if actor != stream.role:  # the acting phone has its answer already
                to_others.append((at - done) * 1000)
    return {"fanout": fanout, "to_others": to_others, "created": created}


def _report(seeded: dict, run: dict, seconds: float, workers: int) -> dict:
    logged = _logged(seeded)
    lost, duplicated = 0, 0
    for stream in run["streams"]:
        got = [seq for seq, _ in stream.received]
        lost += len(set(logged.get(stream.battle, {})) - set(got))
        duplicated += len(got) - len(set(got))
    latencies = _latencies(run, logged)
    fanout = _percentiles(latencies["fanout"])
    tally: Tally = run["tally"]
    streams = len(run["streams"])
    phones = 2 * len(seeded["battles"])
    before, opened = run["rss"]
    return {
        "bench": "live",
        "battles": len(seeded["battles"]),
        "clients_per_battle": {"phones": 2, "spectators": 2},
        "seconds": seconds,
        "server": f"uvicorn --workers {workers}, PostgreSQL, Redis pub/sub",
        "database_pool_per_worker": int(_env()["DATABASE_POOL"]),
        "load_average_before_after": [
            list(map(lambda x: round(x, 2), run["load"][0])),
            list(map(lambda x: round(x, 2), run["load"][1])),
        ],
        "actions": tally.actions,
        "actions_per_s": {
            "intended": round(phones / ACT_EVERY, 1),
            "achieved": round(tally.actions / run["acted_for"], 1),
        },
        "action_errors": len(tally.errors),
        "action_round_trip_ms": _percentiles(tally.round_trips),
        "events_logged": sum(len(v) for v in logged.values()),
        "fanout_ms": fanout,
        "action_to_others_ms": _percentiles(latencies["to_others"]),
        "created_at_ms": _percentiles(latencies["created"]),
        "budget_p95_ms": BUDGET_P95_MS,
        "within_budget": fanout["p95"] is not None and fanout["p95"] <= BUDGET_P95_MS,
        "streams_open": streams,
        "streams_held_to_the_end": run["held"],
        "server_db_connections_with_streams_open": run["connections"],
        "memory_per_stream_kb": round((opened - before) / streams, 1) if streams else None,
        "workers_rss_mb": {
            "before": round(before / 1024, 1),
            "streams_open": round(opened / 1024, 1),
        },
        # CPU per action over the acting window and the drain: robust on a shared machine,
        # where the latencies are not. `server` is uvicorn's processes, `postgres` the
        # bench database's backends, `client` this bench; Redis is shared with others.
        "cpu_ms_per_action": {
            group: round(1000 * run["cpu"][group] / tally.actions, 1) if tally.actions else None
            for group in CPU_GROUPS
        },
        "cpu_s": {group: round(run["cpu"][group], 2) for group in CPU_GROUPS},
        # Cores the server's processes kept busy, and the machine's busy share (all helpers):
        # a server below its workers' count on a busy machine was starved, not saturated.
        "server_cores_used": round(run["cpu"]["server"] / run["cpu"]["seconds"], 2),
        "box_busy_share": round(run["cpu"]["box_busy_share"], 2),
        "events_lost": lost,
        "events_duplicated": duplicated,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--port", type=int, default=0, help="the server's port (0: any free one)")
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument(
        "--streams", choices=STREAMS, default="all", help="streams per battle (none: actions only)"
    )
    parser.add_argument(
        "--tree", type=Path, default=ROOT, help="serve another checkout (a 'before'), same bench"
    )
    parser.add_argument(
        "--profile", type=Path, help="cProfile each worker (config/asgi.py) into this folder"
    )
    args = parser.parse_args()
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        os.environ["MUSTER_PROFILE_DIR"] = str(args.profile.resolve())
    global TREE
    TREE = args.tree.resolve()
    seeded = _prepare(args.battles)
    port = args.port or _free_port()
    server = _start_server(port, args.workers)
    try:
        run = asyncio.run(_run(port, seeded, args.seconds, server, STREAMS[args.streams]))
    finally:
        _stop(server)
    report = _report(seeded, run, args.seconds, args.workers)
    report["tree"] = str(TREE)
    report["streams_per_battle"] = STREAMS[args.streams]
    if not args.keep_database:
        _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
