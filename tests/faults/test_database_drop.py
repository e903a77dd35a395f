"""PostgreSQL drops the request's connection half way through a service: the client gets a
clean 503 (no traceback, no 500) and nothing of the half-done write is left behind.

The connection is killed from a second connection with `pg_terminate_backend`, from inside the
force import, after its first character is written: the moment a crash would hurt most.
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection

from rosters import interchange
from rosters.models import Character, Force
from tests.factories import ForceFactory, UserFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _kill_my_connection() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", [pid])


def _document() -> dict[str, Any]:
    characters = [{"name": f"Trooper {n}", "stats": {}} for n in range(3)]
    return {
        "format": "muster.force",
        "version": 1,
        "force": {
            "name": "Doomed Company",
            "system": "rencounter",
            "units": [],
            "characters": characters,
        },
    }


def test_a_connection_killed_mid_import_answers_503_and_leaves_nothing_half_written(
    api_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    alice = UserFactory(username="alice")
    ForceFactory(owner=alice, name="Kept Company")
    real_create = interchange.character_create
    calls = []

    def create_then_lose_the_database(**kwargs: Any) -> Any:
        character = real_create(**kwargs)
        calls.append(character.name)
        if len(calls) == 1:
            _kill_my_connection()
        return character

    monkeypatch.setattr(interchange, "character_create", create_then_lose_the_database)
    api_client.force_authenticate(alice)

    response = api_client.post("/api/forces/import/", {"document": _document()}, format="json")

    assert response.status_code == 503, response.content[:300]
    assert "nothing was saved" in response.json()["detail"]
    connection.close()  # the dead connection; the next query opens a fresh one
    assert list(Force.objects.values_list("name", flat=True)) == ["Kept Company"]
    assert not Character.objects.exists()
    assert api_client.get("/api/forces/").status_code == 200  # the site recovers at once
