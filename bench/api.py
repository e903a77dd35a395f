"""Benchmark: GET /api/characters/?campaign=… at 1,000 characters, a page of 100, in-process.

Prints JSON: p50/p95 of the real endpoint (auth, filters, pagination, serializer, renderer)
beside a bare DRF `Serializer(many=True)` over the same 100 rows (fetch + serialize + render),
the ratio, and the endpoint's query count. Budget: ratio <= 1.5 and <= 6 queries.

Runs on a throw-away SQLite database in a temporary folder (never your own data).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="muster-bench-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORK / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import warnings  # noqa: E402

import django  # noqa: E402

warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise: no collectstatic

django.setup()

from django.core.management import call_command  # noqa: E402
from django.core.signals import request_finished, request_started  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from rest_framework import serializers  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

CHARACTERS = 1000
PAGE = 100
RUNS = 300
BUDGET_RATIO = 1.5
BUDGET_QUERIES = 6


class Brief(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class BareCharacter(serializers.Serializer):
    """The same output fields, as a plain Serializer: the baseline."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.CharField()
    status = serializers.CharField()
    system = serializers.CharField(source="force.system")
    force = Brief()
    unit = Brief(allow_null=True)
    campaign = Brief(source="force.campaign", allow_null=True)
    stats = serializers.JSONField()
    permanent_wounds = serializers.JSONField()
    notes = serializers.CharField()
    photo = serializers.ImageField()
    service_record_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def build() -> tuple[Campaign, User]:
    from rosters.models import Character, ServiceRecordEntry
    from tests.factories import (
        CampaignFactory,
        CharacterFactory,
        ForceFactory,
        MembershipFactory,
        UnitFactory,
        UserFactory,
    )

    # `.create()` is what calling a Django factory does; called, factory_boy's type is the factory.
    campaign = CampaignFactory.create()
    reader = UserFactory.create(username="reader")
    MembershipFactory(user=reader, campaign=campaign)
    for f in range(10):
        force = ForceFactory(campaign=campaign, name=f"Force {f}")
        units = UnitFactory.create_batch(4, force=force)
        built = CharacterFactory.build_batch(CHARACTERS // 10, force=force)
        for i, character in enumerate(built):
            character.unit = units[i % 4]
        Character.objects.bulk_create(built)
    entries = [ServiceRecordEntry(character=c, cause="CREATED") for c in Character.objects.all()]
    ServiceRecordEntry.objects.bulk_create(entries * 1)
    return campaign, reader


def timed(*fns) -> list[list[float]]:
    """Time each function RUNS times, interleaved so both see the same machine load."""
    samples: list[list[float]] = [[] for _ in fns]
    for fn in fns:
        fn()  # warm-up
    for _ in range(RUNS):
        for fn, times in zip(fns, samples, strict=True):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    return samples


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1], 3),
    }


def keep_connection() -> None:
    # As the test client does: one connection for the whole run, no reconnect per request
    # (a server keeps its connection with CONN_MAX_AGE; reconnecting would dwarf the rest).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)


def count_queries(fn: Callable[[], object]) -> int:
    queries: list[str] = []

    def count(
        execute: Callable[..., object], sql: str, params: object, many: bool, context: object
    ) -> object:
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        fn()
    return len(queries)


def contenders(
    campaign: Campaign, reader: User
) -> tuple[Callable[[], None], Callable[[], None], Callable[[], None]]:
    """Return (endpoint, bare) callables over the same page of 100 characters."""
    from rosters.models import Character
    from rosters.selectors import character_roster

    client = APIClient()
    client.force_authenticate(reader)
    url = f"/api/characters/?campaign={campaign.pk}&page_size={PAGE}"

    def endpoint() -> None:
        assert client.get(url).status_code == 200

    def bare() -> None:
        rows = character_roster(Character.objects.filter(force__campaign=campaign))
        rows = rows.order_by("name", "id")[:PAGE]
        JSONRenderer().render(BareCharacter(rows, many=True).data)

    def check() -> None:
        assert len(client.get(url).json()["results"]) == PAGE

    return endpoint, bare, check


def main() -> None:
    keep_connection()
    call_command("migrate", verbosity=0)
    endpoint, bare, check = contenders(*build())
    queries = count_queries(check)
    api, baseline = (summary(times) for times in timed(endpoint, bare))
    ratio = round(api["p50_ms"] / baseline["p50_ms"], 3)
    met = ratio <= BUDGET_RATIO and queries <= BUDGET_QUERIES
    print(
        json.dumps(
            {
                "benchmark": "GET /api/characters/?campaign=... (page of 100 from 1,000)",
                "database": connection.vendor,
                "runs": RUNS,
                "endpoint": api,
                "bare_serializer": baseline,
                "ratio_p50": ratio,
                "queries": queries,
                "budget": {"ratio": BUDGET_RATIO, "queries": BUDGET_QUERIES, "met": met},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
