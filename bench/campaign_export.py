"""Benchmark: queries and time of a campaign export and import at 10 and 50 battles.

Builds a campaign (three forces, battles entered after the fact) on a throw-away SQLite
database, then exports it and imports the document into another club. Prints JSON: queries
and milliseconds of each at each size. Budget (issue 16): the same number of queries at 10
battles as at 50 (one bulk query per table, not ~24 per battle as before).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="muster-bench-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORK / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaign_backup.campaign import campaign_export, campaign_import  # noqa: E402
from tests.battles.conftest import fought_battle, make_cast  # noqa: E402

SIZES = (10, 50)


T = TypeVar("T")


def _measured(work: Callable[[], T]) -> tuple[T, int, float]:
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        value = work()
        ms = (time.perf_counter() - started) * 1000
    return value, len(captured), round(ms, 1)


def main() -> None:
    call_command("migrate", verbosity=0)
    rows = []
    for size in SIZES:
        cast = make_cast()
        for _ in range(size):
            fought_battle(cast)
        document, export_q, export_ms = _measured(partial(campaign_export, campaign=cast.campaign))
        _, import_q, import_ms = _measured(
            partial(campaign_import, document=document, club_slug=f"copy-{size}")
        )
        rows.append(
            {
                "battles": size,
                "export_queries": export_q,
                "export_ms": export_ms,
                "import_queries": import_q,
                "import_ms": import_ms,
            }
        )
    print(json.dumps({"bench": "campaign_export", "sizes": rows}, indent=2))


if __name__ == "__main__":
    main()
