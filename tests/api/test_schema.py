"""The OpenAPI schema generates cleanly and the docs page serves."""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_openapi_schema_validates_without_warnings(tmp_path):
    # --fail-on-warn turns every drf-spectacular warning (and error) into a failure.
    target = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    text = target.read_text()
    assert "/api/characters/{id}/service-record/" in text
    assert "/api/systems/{key}/" in text


def test_the_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
