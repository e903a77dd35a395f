"""A real worker process writes its heartbeat when ready, and /healthz sees it (integration)."""

from __future__ import annotations

import pytest

from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_started_worker_makes_healthz_report_a_fresh_heartbeat(start_worker, client):
    start_worker("heartbeat")

    wait_for(lambda: client.get("/healthz").json()["worker"]["ok"], 10, "a worker heartbeat")

    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["worker"]["heartbeat_age_seconds"] < 30
