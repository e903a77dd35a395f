"""The interactive API docs are served from the project's own static files, never a CDN."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def _outside_links(html: bytes) -> list[bytes]:
    return re.findall(rb'(?:src|href)="(https?:[^"]*)"', html)


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_page_loads_nothing_from_another_site(client, url):
    response = client.get(url)

    assert response.status_code == 200
    assert _outside_links(response.content) == []
    assert b"/static/drf_spectacular_sidecar/" in response.content


def test_swagger_ui_and_redoc_bundles_are_among_the_static_files():
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
