"""`python -m config.healthcheck` (the web container's healthcheck) against a live server."""

from __future__ import annotations

import pytest

from config import healthcheck

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_healthcheck_exits_0_when_healthz_answers_200(live_server, monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", "localhost,muster.example.org")

    assert healthcheck.main([f"{live_server.url}/healthz"]) == 0


def test_the_healthcheck_exits_1_when_nothing_answers(monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", "muster.example.org")

    assert healthcheck.main(["http://127.0.0.1:9/healthz"]) == 1


def test_the_healthcheck_sends_the_first_allowed_host_without_its_wildcard_dot(monkeypatch):
    sent = {}
    monkeypatch.setenv("ALLOWED_HOSTS", ".example.org,other.org")
    monkeypatch.setattr(healthcheck, "probe", lambda url, host: sent.update(host=host) or 200)

    assert healthcheck.main([]) == 0
    assert sent["host"] == "example.org"
