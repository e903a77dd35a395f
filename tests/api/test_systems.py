"""`/api/systems/`: every registered system, straight from the rules registry."""

from __future__ import annotations

import json

import pytest

from rules.system import all_systems

pytestmark = pytest.mark.django_db


def test_the_list_names_every_registered_system(api_client):
    body = api_client.get("/api/systems/").json()

    assert [s["key"] for s in body] == [s.key for s in all_systems()]


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_a_systems_detail_has_its_schemas_checks_and_tables(api_client, system):
    body = api_client.get(f"/api/systems/{system.key}/").json()

    assert [f["name"] for f in body["stats"]] == list(system.stats.names)
    assert [f["name"] for f in body["options"]] == list(system.options.names)
    assert set(body["checks"]) == set(system.checks)
    assert body["tables"] == json.loads(json.dumps(system.tables(system.options.defaults())))


def test_an_unknown_system_is_a_404(api_client):
    response = api_client.get("/api/systems/chess/")

    assert response.status_code == 404
    assert "chess" in response.json()["detail"]
