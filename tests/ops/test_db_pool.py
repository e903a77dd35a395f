"""DATABASE_POOL: a psycopg pool per process on PostgreSQL, refused where it cannot work.

Settings are read once per process, so each case imports them in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = "postgres://postgres@127.0.0.1:5432/muster_pool_check"
READ_OPTIONS = (
    "import json, django; django.setup(); from django.conf import settings; "
    "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
)


def _settings(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", READ_OPTIONS],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_pool_size_gives_postgresql_a_pool_of_that_many_connections():
    run = _settings(DATABASE_URL=POSTGRES, DATABASE_POOL="6", CONN_MAX_AGE="0")

    assert run.returncode == 0, run.stderr[-2000:]
    pool = json.loads(run.stdout.strip().splitlines()[-1])["pool"]
    assert pool == {"min_size": 2, "max_size": 6, "timeout": 10}


def test_no_pool_size_means_no_pool():
    run = _settings(DATABASE_URL=POSTGRES, DATABASE_POOL="0")

    assert run.returncode == 0, run.stderr[-2000:]
    assert "pool" not in json.loads(run.stdout.strip().splitlines()[-1])


def test_a_pool_is_refused_on_sqlite_with_kept_connections_or_below_zero():
    cases = [
        (
            {"DATABASE_URL": "sqlite:////tmp/muster-pool.sqlite3", "DATABASE_POOL": "4"},
            "PostgreSQL",
        ),
        (
            {"DATABASE_URL": POSTGRES, "DATABASE_POOL": "4", "CONN_MAX_AGE": "60"},
            "DATABASE_POOL replaces CONN_MAX_AGE: set CONN_MAX_AGE=0",
        ),
        ({"DATABASE_URL": POSTGRES, "DATABASE_POOL": "-1"}, "DATABASE_POOL must be 0"),
    ]
    for env, says in cases:
        run = _settings(**env)

        assert run.returncode != 0, env
        assert "ImproperlyConfigured" in run.stderr and says in run.stderr, run.stderr[-500:]
