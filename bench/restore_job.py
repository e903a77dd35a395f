"""Benchmark: a restore as a job (check, store, claim, restore with progress) against the plain
import it wraps, side by side, at 10 and 50 battles.

Builds a campaign (three forces, battles entered after the fact), exports it, then alternates
`campaign_import` (what the request used to run) and `restore_job_request` (the tasks run
inline, so this is upload to done: the check, the stored job, the claim, the restore under the
job's lock, the progress steps). Prints JSON: median milliseconds of each, their ratio, the
rows and the progress steps. The database is a throw-away SQLite one unless
BENCH_DATABASE_URL names another (PostgreSQL: progress is then written on a second
connection, as on a real worker); the bench fills that database, so give it its own.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="muster-bench-"))
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{WORK / 'bench.sqlite3'}"
)
os.environ.pop("REDIS_URL", None)  # tasks inline: the job runs when its request commits
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from campaign_backup import services  # noqa: E402
from campaign_backup.campaign import (  # noqa: E402
    FORMAT,
    READABLE_VERSIONS,
    campaign_export,
    campaign_import,
    row_count,
)
from campaign_backup.models import RestoreJob  # noqa: E402
from campaign_backup.schema import document_checked  # noqa: E402
from tests.battles.conftest import fought_battle, make_cast  # noqa: E402

SIZES = (10, 50)
ROUNDS = 3


def _ms(work) -> float:  # type: ignore[no-untyped-def]  # a benchmark helper timing any callable
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def _steps_counted() -> list[int]:
    """Count the progress steps the worker's writer is told (wrapping, not changing, it)."""
    told = [0]
    tell = services.ProgressWriter.__call__

    def counted(self, step: str, done: int, total: int) -> None:  # type: ignore[no-untyped-def]  # stands in for the method it replaces
        told[0] += 1
        tell(self, step, done, total)

    services.ProgressWriter.__call__ = counted  # type: ignore[method-assign]  # the bench counts progress calls by swapping the method
    return told


def _size(size: int, run: str, told: list[int]) -> dict[str, object]:
    cast = make_cast()
    for _ in range(size):
        fought_battle(cast)
    document = campaign_export(campaign=cast.campaign)
    club, user = cast.campaign.club, cast.olivia
    plain, job = [], []
    for n in range(ROUNDS):
        slug = f"{run}-{size}-{n}"
        plain.append(_ms(lambda s=slug: campaign_import(document=document, club_slug=s)))
        told[0] = 0
        job.append(
            _ms(
                lambda s=slug: services.restore_job_request(
                    document=document, club=club, name=s, slug=f"{s}-job", user=user
                )
            )
        )
    done = RestoreJob.objects.filter(slug__startswith=f"{run}-{size}-", status="DONE").count()
    assert done == ROUNDS, f"{done} of {ROUNDS} jobs done"
    plain_ms, job_ms = statistics.median(plain), statistics.median(job)
    # The rows a restore writes are counted on the checked document, as the restore counts them.
    checked = document_checked(document, fmt=FORMAT, versions=READABLE_VERSIONS, club_slug=None)
    assert not isinstance(checked, str), checked
    return {
        "battles": size,
        "rows": row_count(checked),
        "import_ms": round(plain_ms, 1),
        "restore_job_ms": round(job_ms, 1),
        "ratio": round(job_ms / plain_ms, 2),
        "progress_steps": told[0],
    }


def main() -> None:
    call_command("migrate", verbosity=0)
    told = _steps_counted()
    run = f"bench{int(time.time())}"
    rows = [_size(size, run, told) for size in SIZES]
    load = os.getloadavg()
    print(
        json.dumps(
            {
                "bench": "restore_job",
                "database": connection.vendor,
                "progress_mid_way": connection.vendor == "postgresql",
                "load_average": [round(x, 2) for x in load],
                "sizes": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
