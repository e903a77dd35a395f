"""Live-table action costs: what one phone's action costs the server, in-process; prints JSON.

bench/live.py measures the fan-out under uvicorn, where the latencies say how busy the shared
machine was. This measures what saturates it (issue 28): the CPU (`time.process_time`, this
process's own CPU, not the wait for a core) and the queries of one action, on PostgreSQL, on
the same seed as bench/live.py (its `SEED`: battles in "each on their own phone" mode):

- `api_resolve`, `api_void`: a phone's POST /api/battles/<pk>/resolve/ (a "fire" check) and
  /void/, through Django's test client with Token auth and every middleware;
- `service_resolve`, `service_void`, `service_draw`, `service_adjust_*`: the table services
  the pages' POSTs call (check, void, draw, adjust), each with an idempotency key as the
  pages send it.

Each round acts once of each kind on the first seeded battle; every resolve is voided next,
so the figures stand as before. After a warm-up round, one round counts each kind's queries
(`CaptureQueriesContext`: the SQL sent, the transaction's BEGIN and COMMIT too), apart from
the timed rounds, since the capture itself costs CPU. `--tree DIR` runs another checkout's
code on the same bench: the "before" of a change, in the same session.

    python bench/live_costs.py --rounds 60
    python bench/live_costs.py --rounds 60 --tree /work/main      # the code before
    LIVE_DATABASE=muster_t32write_costs LIVE_REDIS_URL=redis://127.0.0.1:6379/11 \
        python bench/live_costs.py                                 # a helper's own names
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from live import DATABASE, PYTHON, ROOT, SEED, _env, _psql

COSTS = """
import json, statistics, time, uuid
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from battles import services
from battles.models import Battle
from battles.services.adjust import markers
from battles.services.turns import drawn_sides
from rules.system import get_system
seeded, ROUNDS = json.loads(%r), int(%d)
# As a server with a kept (or pooled) connection: no reconnect per request.
request_started.disconnect(close_old_connections)
request_finished.disconnect(close_old_connections)
entry = seeded["battles"][0]
battle = Battle.objects.get(pk=entry["id"])
phone = entry["phones"][0]
players = [s.force.owner for s in battle.sides.select_related("force__owner").order_by("index")]
client = Client(HTTP_AUTHORIZATION=f"Token {phone['token']}")
url = f"/api/battles/{battle.pk}/"
fire = {"check": "fire", "actor": phone["actor"], "target": phone["target"], "params": {"skill": 9}}
figure = battle.figures.get(pk=phone["actor"])
marker = next(m for m in markers(get_system(battle.system), figure.stats) if m.count)
services.battle_activation_start(battle=battle, method="cards", user=players[0])
drawer = [players[0]]
def key():
    return uuid.uuid4().hex
def api_resolve():
    assert client.post(url + "resolve/", fire, content_type="application/json").status_code == 201
def api_void():
    assert client.post(url + "void/").status_code == 200
def resolve():
    services.battle_resolve(battle=battle, user=players[0], key=key(), **fire)
def void():
    services.battle_void_last(battle=battle, user=players[0], key=key())
def draw():
    # On their own phones the player whose unit the last card activated draws next.
    event = services.battle_activation_draw(battle=battle, user=drawer[0], key=key())
    drawer[0] = players[1] if drawn_sides(event.details) == {1} else players[0]
def adjust(change):
    services.battle_adjust(battle=battle, figure=figure.pk, state_key=marker.key, change=change,
                           user=players[0], key=key())
kinds = {
    "api_resolve": api_resolve, "api_void": api_void, "service_resolve": resolve,
    "service_void": void, "service_draw": draw,
    "service_adjust_add": lambda: adjust("add"), "service_adjust_remove": lambda: adjust("remove"),
}
cpu, queries = {k: [] for k in kinds}, {}
for act in kinds.values():  # a warm-up round
    act()
for name, act in kinds.items():  # a round counted: the SQL sent, BEGIN and COMMIT too
    with CaptureQueriesContext(connection) as captured:
        act()
    queries[name] = len(captured)
for _ in range(ROUNDS):
    for name, act in kinds.items():
        start = time.process_time()
        act()
        cpu[name].append((time.process_time() - start) * 1000)
print(json.dumps({k: {"cpu_ms_median": round(statistics.median(v), 2),
                      "cpu_ms_mean": round(statistics.fmean(v), 2),
                      "queries": queries[k]} for k, v in cpu.items()}))
"""


def _shell(script: str, tree: Path) -> dict:
    """Run a script in the checkout's `manage.py shell`; return its last line's JSON."""
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=tree, env=_env(), check=True, capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def costs(tree: Path, rounds: int, battles: int) -> dict:
    """Seed bench/live.py's battles with the checkout's code and measure its actions."""
    _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DATABASE}")
    migrate = [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=tree, env=_env(), check=True, timeout=600)
    seeded = _shell(SEED % battles, tree)
    load_before = os.getloadavg()
    per_action = _shell(COSTS % (json.dumps(seeded), rounds), tree)
    load_after = os.getloadavg()
    return {
        "bench": "live_costs",
        "tree": str(tree),
        "database": DATABASE,
        "rounds": rounds,
        "load_average_before_after": [
            [round(x, 2) for x in load_before],
            [round(x, 2) for x in load_after],
        ],
        "per_action": per_action,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--battles", type=int, default=1, help="battles seeded (one is acted on)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose code to run")
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args()
    try:
        report = costs(args.tree.resolve(), args.rounds, args.battles)
    finally:
        if not args.keep_database:
            _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
