"""GET /healthz reports the database and broker (200 when both answer, 503 otherwise)."""

from __future__ import annotations

import pytest

from config import health

pytestmark = pytest.mark.django_db


def test_a_healthy_site_answers_200_with_each_check(client):
    body = client.get("/healthz")

    assert body.status_code == 200
    assert body.json()["database"]["ok"] is True
    assert body.json()["broker"]["ok"] is True


def test_a_broken_database_answers_503(client, monkeypatch):
    monkeypatch.setattr(health, "_database", lambda: {"ok": False, "error": "gone"})

    body = client.get("/healthz")

    assert body.status_code == 503
    assert body.json()["status"] == "unavailable"
