"""Benchmark: GET /api/characters/ pages at 1,000 and 20,000 characters (PostgreSQL).

Pages timed: the first, numbered page 50 (`?page=50`, an offset), the last page by its number
(an offset through the whole list) and the last page by the `last` link's cursor (keyset: the
index read backwards). Budget (issue 29): the keyset last page at 20,000 within 1.3x of 1,000.

A campaign member who can see every character lists them (the default ordering, 20 a page
so that page 50 exists at 1,000, in-process through the real endpoint). Prints JSON: the
median of 15 requests per page and size, the ratio 20,000 / 1,000 for each page, and the
query count of a page. Budget (issue 16): ratio <= 1.3 for both pages.

Each size has its own database, and the requests alternate between the two (one at 1,000,
one at 20,000, and so on): on a shared machine the load swings by half within a minute, so
timing one size after the other compared two different machines rather than two sizes.

Needs PostgreSQL: it drops and re-creates the databases `BENCH_DATABASE` (default
`muster_bench_characters`) and `<BENCH_DATABASE>_large` on the server of `PG_URL` (default
postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.backends.base.base import BaseDatabaseWrapper

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")
DATABASE = os.environ.get("BENCH_DATABASE", "muster_bench_characters")
SIZES = (1_000, 20_000)
PAGES = (1, 50)
RUNS = 15


def _psql(sql: str) -> None:
    parts = urlsplit(SERVER)
    subprocess.run(
        ["psql", "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432), "-U",
         parts.username or "postgres", "-d", "postgres", "-q", "-c", sql],
        check=True, capture_output=True,
    )  # fmt: skip


DATABASES = {size: DATABASE if size == SIZES[0] else f"{DATABASE}_large" for size in SIZES}
for name in DATABASES.values():
    _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _psql(f"CREATE DATABASE {name}")
os.environ["DATABASE_URL"] = f"{SERVER}/{DATABASE}"
os.environ["API_THROTTLE_ENABLED"] = "false"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import warnings  # noqa: E402

import django  # noqa: E402

warnings.filterwarnings("ignore", message="No directory at")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from campaigns.models import Campaign, Club, Membership, Role  # noqa: E402
from rosters.models import Character, Force, ServiceRecordEntry  # noqa: E402
from rules.system import get_system  # noqa: E402


def _grow_to(total: int, campaign: Campaign, reader: User) -> None:
    """Add forces of 50 characters (each with two service-record entries) up to `total`."""
    stats = get_system("rencounter").stats.validate({})
    have = Character.objects.count()
    owner = get_user_model().objects.get(username="owner")
    while have < total:
        force = Force.objects.create(
            owner=owner, campaign=campaign, name=f"Force {have}", system="rencounter"
        )
        made = Character.objects.bulk_create(
            Character(force=force, name=f"Man {have + i:05d}", stats=stats) for i in range(50)
        )
        ServiceRecordEntry.objects.bulk_create(
            ServiceRecordEntry(character=c, cause="CREATED", note=f"entry {k}")
            for c in made
            for k in range(2)
        )
        have += 50
    connection.cursor().execute("VACUUM ANALYZE")  # as autovacuum would, in time


def _connect(size: int) -> BaseDatabaseWrapper:
    """Make the default connection the one to this size's database (each kept open)."""
    wrapper = _WRAPPERS.get(size)
    if wrapper is None:
        settings = {**connections["default"].settings_dict, "NAME": DATABASES[size]}
        wrapper = _WRAPPERS[size] = type(connections["default"])(settings, "default")
    connections["default"] = wrapper
    return wrapper


_WRAPPERS: dict[int, BaseDatabaseWrapper] = {}


def _populate(size: int) -> None:
    _connect(size)
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    reader, owner = users.create(username="reader"), users.create(username="owner")
    club = Club.objects.create(name="Bench club", slug="bench")
    campaign = Campaign.objects.create(club=club, name="Bench", slug="bench", system="rencounter")
    for user in (reader, owner):
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    _grow_to(size, campaign, reader)


def _timed(url: str | dict[int, str]) -> dict[int, tuple[float, int]]:
    """Median time and query count of `url` at each size, the sizes taking turns."""
    times: dict[int, list[float]] = {size: [] for size in SIZES}
    clients = {}
    for size in SIZES:
        _connect(size)
        clients[size] = APIClient()
        clients[size].force_authenticate(get_user_model().objects.get(username="reader"))
    for _ in range(RUNS):
        for size in SIZES:
            _connect(size)
            started = time.perf_counter()
            response = clients[size].get(url if isinstance(url, str) else url[size])
            times[size].append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:200]
    figures = {}
    for size in SIZES:
        with CaptureQueriesContext(_connect(size)) as queries:
            clients[size].get(url if isinstance(url, str) else url[size])
        figures[size] = (statistics.median(times[size]) * 1000, len(queries))
    return figures


def main() -> None:
    for size in SIZES:
        _populate(size)
    from config.pagination import Cursor

    last = Cursor(None, True).encode()
    pages: dict[str, str | dict[int, str]] = {
        f"page {p}": f"/api/characters/?page={p}&page_size=20" for p in PAGES
    }
    pages["last page (numbered)"] = {
        size: f"/api/characters/?page={size // 20}&page_size=20" for size in SIZES
    }
    pages["last page (keyset)"] = f"/api/characters/?cursor={last}&page_size=20"
    figures: dict[str, dict] = {}
    for page, url in pages.items():
        for size, (ms, queries) in _timed(url).items():
            figures[f"{size}/{page}"] = {"median_ms": round(ms, 2), "queries": queries}
    small, large = SIZES[0], SIZES[-1]
    ratios = {
        page: round(
            figures[f"{large}/{page}"]["median_ms"] / figures[f"{small}/{page}"]["median_ms"], 2
        )
        for page in pages
    }
    print(json.dumps({"bench": "characters_list", "figures": figures, "ratio": ratios}, indent=2))
    for wrapper in _WRAPPERS.values():
        wrapper.close()
    if not os.environ.get("BENCH_KEEP"):
        for name in DATABASES.values():
            _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
