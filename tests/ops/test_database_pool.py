"""DATABASE_POOL: the web's PostgreSQL connections come from a pool, never kept per thread."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS'))"


def _settings(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {SHOW}"],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/muster",
            "CONN_MAX_AGE": "0",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_database_pool_sizes_a_psycopg_pool_per_process():
    shown = _settings(DATABASE_POOL="7")

    assert shown.returncode == 0, shown.stderr
    assert "'pool': {'min_size': 2, 'max_size': 7, 'timeout': 10}" in shown.stdout


def test_without_database_pool_there_is_none():
    shown = _settings(DATABASE_POOL="0")

    assert shown.returncode == 0, shown.stderr
    assert "pool" not in shown.stdout


def test_a_pool_with_kept_connections_is_refused_clearly():
    shown = _settings(DATABASE_POOL="7", CONN_MAX_AGE="60")

    assert shown.returncode != 0
    assert "DATABASE_POOL replaces CONN_MAX_AGE: set CONN_MAX_AGE=0" in shown.stderr
