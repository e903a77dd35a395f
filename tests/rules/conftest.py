"""The rules engine's tests never open a database.

`make test-postgres` leaves tests/rules out because the engine is pure Python (test_purity.py):
the PostgreSQL run would only repeat them. This guard keeps that true: a test here that asks
for the database (the `django_db` mark or a database fixture) fails at collection, so it gets
moved next to the app it really tests instead of silently escaping the PostgreSQL run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "client", "admin_client"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE not in Path(str(item.path)).resolve().parents:
            continue
        asks = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or asks:
            raise pytest.UsageError(
                f"{item.nodeid} uses the database ({', '.join(sorted(asks)) or 'django_db'}): "
                "tests/rules is pure Python and skipped by `make test-postgres`; "
                "move the test to the app it tests"
            )
