"""A web worker loads its views and templates and freezes what it loaded before its first
request (config.boot.warm)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What the server process itself runs: importing the module uvicorn or gunicorn serves.
PROBE = """
import gc, sys
import {module}
from django.template import engines
from config.boot import project_templates
cached = engines["django"].engine.template_loaders[0].get_template_cache
compiled = all(name in cached for name in project_templates())
print(gc.get_freeze_count(), "pages.battles" in sys.modules, "pages.campaigns" in sys.modules,
      compiled, len(project_templates()))
"""


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_the_served_application_has_its_views_and_templates_loaded_and_frozen(module):
    probed = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    frozen, battles_loaded, campaigns_loaded, compiled, templates = probed.stdout.split()
    # Django, the apps and every view: well over 50,000 long-lived objects the collector
    # no longer walks (about 180,000 at the time of writing).
    assert int(frozen) > 50_000
    assert battles_loaded == "True"
    assert campaigns_loaded == "True"
    assert compiled == "True"
    assert int(templates) > 50  # the project's own: the table, the campaign pages, the rest
