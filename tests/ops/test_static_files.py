"""Outside production the pages are styled without a collectstatic step (`make demo`)."""

from __future__ import annotations

import pytest
from django.conf import settings


@pytest.mark.parametrize("path", ["/static/pages/muster.css", "/static/vendor/htmx.min.js"])
def test_the_demo_serves_the_stylesheet_and_htmx_with_debug_off(client, path):
    assert not settings.DEBUG

    response = client.get(path)

    assert response.status_code == 200
    assert b"".join(response.streaming_content)
