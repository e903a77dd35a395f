"""A web worker loads its views and freezes what it loaded before its first request."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What the server process itself runs: importing the module uvicorn or gunicorn serves.
PROBE = """
import gc, sys
import {module}
print(gc.get_freeze_count(), "pages.battles" in sys.modules, "pages.campaigns" in sys.modules)
"""


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_the_served_application_has_its_views_loaded_and_frozen(module):
    probed = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    frozen, battles_loaded, campaigns_loaded = probed.stdout.split()
    # Django, the apps and every view: well over 50,000 long-lived objects the collector
    # no longer walks (about 180,000 at the time of writing).
    assert int(frozen) > 50_000
    assert battles_loaded == "True"
    assert campaigns_loaded == "True"
