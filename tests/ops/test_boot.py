"""A web worker loads its views and templates and freezes what it loaded before its first
request (config.boot.warm); a Celery worker's pool process compiles its templates, fills its
print caches and freezes before its first task (config.boot.warm_worker)."""

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


# What a Celery pool process runs before its first task: the worker_process_init signal.
WORKER_PROBE = """
import gc
from celery.signals import worker_process_init
from config.celery_app import app
app.loader.import_default_modules()
worker_process_init.send(sender=None)
from django.template import engines
from config.boot import project_templates
from printing.render import _parsed_stylesheet, font_config, user_agent_stylesheet
cached = engines["django"].engine.template_loaders[0].get_template_cache
compiled = all(name in cached for name in project_templates())
sheets = _parsed_stylesheet.cache_info().currsize
warm = font_config.cache_info().currsize == 1 and user_agent_stylesheet.cache_info().currsize == 1
print(gc.get_freeze_count(), compiled, sheets, warm)
"""


def test_a_worker_process_compiles_fills_the_print_caches_and_freezes_before_its_first_task():
    probed = subprocess.run(
        [sys.executable, "-c", WORKER_PROBE],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    frozen, compiled, sheets, warm = probed.stdout.split()
    assert int(frozen) > 50_000
    assert compiled == "True"
    # print.css and every family's own sheet (cards, labels, reference, roster, ...).
    sheet_files = list((ROOT / "static" / "printing").glob("*.css"))
    assert int(sheets) == len(sheet_files) >= 5
    assert warm == "True"
