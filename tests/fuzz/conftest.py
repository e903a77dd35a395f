"""The fuzz run calls every operation many times as one user: API throttling would answer 429."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_api_throttling(settings):
    settings.API_THROTTLE_ENABLED = False
