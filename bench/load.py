"""Load bench: gunicorn (2 workers) on PostgreSQL under bounded loopback load; prints JSON.

What it does, all on 127.0.0.1 and all bounded:
1. (re)creates its own database `muster_load` on the machine's PostgreSQL (never yours),
   migrates it and seeds a campaign: 10 players, 10 forces of 10 characters, 5 battles;
2. starts gunicorn with 2 workers on a free loopback port (tasks inline; no broker needed);
3. runs CLIENTS concurrent keep-alive clients for SECONDS seconds over the main read endpoints
   and one write path (a table-assistant roll: POST /api/battles/{id}/resolve/), signed in
   with API tokens;
4. stops gunicorn, drops the database, prints requests/s, p50/p95/p99 per kind and errors.

Budget (issue 9): zero errors, p95 <= 150 ms for reads. `--seconds`/`--clients` shorten a run;
`--threads N` runs gthread workers with N threads each, to compare with the synchronous default.
PG_URL overrides the server (default postgres://postgres@127.0.0.1:5432/).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
DATABASE = os.environ.get("LOAD_DATABASE", "muster_load")  # one per checkout sharing a server
READ_BUDGET_MS = 150.0
WRITE_SHARE = 0.1  # one request in ten is a roll at the table
SEED = """
import json
from rest_framework.authtoken.models import Token
from battles.services import SideChoice, battle_start
from campaigns.models import Role
from tests.factories import (CampaignFactory, CharacterFactory, ForceFactory,
                             MembershipFactory, UnitFactory, UserFactory)
campaign = CampaignFactory(name="Load Wars")
players, forces = [], []
for n in range(10):
    user = UserFactory(username=f"load{n}")
    MembershipFactory(user=user, campaign=campaign, role=Role.ORGANISER if n == 0 else Role.PLAYER)
    force = ForceFactory(owner=user, campaign=campaign, name=f"Company {n}")
    unit = UnitFactory(force=force, name="Line")
    characters = [CharacterFactory(force=force, unit=unit, name=f"Trooper {n}-{i}")
                  for i in range(10)]
    players.append(user)
    forces.append(force)
battles = []
for n in range(0, 10, 2):
    battle = battle_start(sides=[SideChoice(force=forces[n]), SideChoice(force=forces[n + 1])],
                          campaign=campaign, scenario=f"Field {n}", user=players[n])
    figures = list(battle.figures.order_by("side__index", "pk").values_list("pk", flat=True))
    battles.append({"id": battle.pk, "owner": n, "actor": figures[0], "target": figures[-1]})
print(json.dumps({
    "campaign": campaign.pk,
    "tokens": [Token.objects.create(user=u).key for u in players],
    "forces": [f.pk for f in forces],
    "characters": list(campaign.forces.values_list("characters__pk", flat=True)),
    "battles": battles,
}))
"""


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"read": [], "write": []})
    by_endpoint: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, endpoint: str, ms: float, error: str | None) -> None:
        with self.lock:
            self.latencies[kind].append(ms)
            self.by_endpoint.setdefault(endpoint, []).append(ms)
            if error:
                self.errors.append(error)


def _server_url() -> str:
    return os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/").rstrip("/")


def _psql(sql: str) -> None:
    parts = urlsplit(_server_url())
    subprocess.run(
        [
            "psql",
            "-h",
            parts.hostname or "127.0.0.1",
            "-p",
            str(parts.port or 5432),
            "-U",
            parts.username or "postgres",
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-qc",
            sql,
        ],
        check=True,
        capture_output=True,
        timeout=60,
        env={**os.environ, **({"PGPASSWORD": parts.password} if parts.password else {})},
    )


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{_server_url()}/{DATABASE}",
        "REDIS_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CONN_MAX_AGE": "60",
        # The load measures throughput; one simulated user past its API rate would get 429s.
        "API_THROTTLE_ENABLED": "false",
    }


def _prepare() -> dict:
    _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DATABASE}")
    manage = [str(PYTHON), "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=_env(), check=True, timeout=300
    )
    seeded = subprocess.run(
        [*manage, "shell", "-v", "0", "-c", SEED],
        cwd=ROOT,
        env=_env(),
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return json.loads(seeded.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_gunicorn(port: int, threads: int) -> subprocess.Popen[bytes]:
    command = [
        str(GUNICORN),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        *(["--worker-class", "gthread", "--threads", str(threads)] if threads > 1 else []),
        "--access-logfile",
        "/dev/null",
        "--timeout",
        "60",
    ]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=_env(),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    _stop(server)
    raise RuntimeError("gunicorn did not answer /healthz within 30 s")


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=15)


def _reads(world: dict) -> list[str]:
    forces, characters = world["forces"], world["characters"]
    campaign, battle = world["campaign"], world["battles"][0]["id"]
    return [
        "/api/forces/",
        f"/api/forces/{random.choice(forces)}/",
        f"/api/characters/?force={random.choice(forces)}",
        f"/api/characters/{random.choice(characters)}/",
        f"/api/characters/{random.choice(characters)}/service-record/",
        f"/api/campaigns/{campaign}/",
        f"/api/battles/{battle}/",
        "/api/battles/",
    ]


def _one(connection: http.client.HTTPConnection, world: dict, token: str, index: int) -> tuple:
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    if random.random() < WRITE_SHARE:
        battle = world["battles"][index % len(world["battles"])]
        headers["Authorization"] = f"Token {world['tokens'][battle['owner']]}"
        body = json.dumps(
            {
                "check": "fire",
                "actor": battle["actor"],
                "target": battle["target"],
                "params": {"skill": 8},
            }
        )
        connection.request("POST", f"/api/battles/{battle['id']}/resolve/", body, headers)
        return "write", "POST /api/battles/{id}/resolve/", 201, connection.getresponse()
    path = random.choice(_reads(world))
    connection.request("GET", path, headers=headers)
    return "read", f"GET {_template(path)}", 200, connection.getresponse()


def _template(path: str) -> str:
    """Name an endpoint without its ids: /api/forces/12/ -> /api/forces/{id}/."""
    parts = ["{id}" if part.isdigit() else part for part in path.split("?")[0].split("/")]
    return "/".join(parts) + ("?force={id}" if "?force=" in path else "")


def _client(port: int, world: dict, index: int, until: float, tally: Tally) -> None:
    token = world["tokens"][index % len(world["tokens"])]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.monotonic() < until:
        started = time.perf_counter()
        kind, endpoint, error = "read", "?", None
        try:
            kind, endpoint, expected, response = _one(connection, world, token, index)
            response.read()
            if response.status != expected:
                error = f"{kind} answered {response.status}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__}: {exc}"
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        tally.add(kind, endpoint, (time.perf_counter() - started) * 1000, error)
    connection.close()


def _percentiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0}
    cuts = statistics.quantiles(values, n=100)
    return {"p50": round(cuts[49], 1), "p95": round(cuts[94], 1), "p99": round(cuts[98], 1)}


def _load(port: int, world: dict, clients: int, seconds: float) -> dict:
    tally, until = Tally(), time.monotonic() + seconds
    started = time.monotonic()
    threads = [
        threading.Thread(target=_client, args=(port, world, i, until, tally))
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.monotonic() - started
    total = sum(len(v) for v in tally.latencies.values())
    reads = _percentiles(tally.latencies["read"])
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": total,
        "requests_per_second": round(total / elapsed, 1),
        "reads": {"count": len(tally.latencies["read"]), **reads},
        "writes": {
            "count": len(tally.latencies["write"]),
            **_percentiles(tally.latencies["write"]),
        },
        "p50_by_endpoint_ms": {
            k: _percentiles(v)["p50"] for k, v in sorted(tally.by_endpoint.items())
        },
        "errors": len(tally.errors),
        "error_samples": sorted(set(tally.errors))[:5],
        "budget": {
            "zero_errors": not tally.errors,
            "read_p95_ms": READ_BUDGET_MS,
            "read_p95_ok": reads["p95"] <= READ_BUDGET_MS,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per worker (gthread when > 1)"
    )
    args = parser.parse_args(argv)
    try:
        world = _prepare()
    except (OSError, subprocess.SubprocessError) as exc:
        print(json.dumps({"benchmark": "load", "skipped": f"no PostgreSQL to load: {exc}"}))
        return 0
    port = _free_port()
    server = _start_gunicorn(port, args.threads)
    try:
        result = _load(port, world, args.clients, args.seconds)
    finally:
        _stop(server)
        _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    print(
        json.dumps(
            {"benchmark": "load", "server": "gunicorn, 2 workers, PostgreSQL", **result}, indent=1
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
