"""What a web worker does once, after Django is set up and before its first request.

1. It loads the URLconf, which imports every view module. Otherwise the first request each
   worker serves pays for that (about 0.55 s of CPU, measured in-process): with three workers
   that is three slow answers right after every deploy or restart, and a broken import shows
   up only when someone asks for a page instead of when the server starts.
2. It compiles the project's templates (about 0.2 s): Django keeps each compiled template
   for the life of the process, so no player's first look at a page pays for its compiling.
3. It freezes the garbage collector's view of everything loaded so far (`gc.freeze`). The
   modules, classes and settings of a Django process are some 180,000 objects that live as
   long as the process; without the freeze, every full collection walks all of them again
   (68 ms of CPU, in the middle of somebody's request, measured on the club night's pages;
   8 ms with the freeze). They are never garbage, so the collector loses nothing by
   skipping them. This is what CPython's documentation suggests for a server that loads
   its code once (`gc.freeze`), and what Instagram's Django servers do.

A Celery worker process does the same before its first task (`warm_worker`, on
`worker_process_init`, so in every pool child, including those `--max-tasks-per-child`
replaces): it has no URLconf to load, but it prints. An app whose processes keep per-process
caches says how to fill them with a `warm()` method on its AppConfig (printing's: fonts, the
print style sheets, one small render), and both warm-ups call it before the freeze, so those
caches are frozen too instead of being walked by every collection during a print job. A
90-card deck renders about 10% faster in a warmed, frozen worker than in a cold one
(`bench/printing.py`, whose Muster cases start the way a worker does; docs/printing.md).

`tests/ops/test_boot.py` checks all of it in the processes a server module and a worker start.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from django.apps import apps
from django.template import engines
from django.template.loader import get_template
from django.urls import get_resolver

logger = logging.getLogger(__name__)


def warm() -> None:
    """Load every view and template now; keep what was loaded out of the collector's walks."""
    # Reading the patterns imports the URLconf and, through it, every view module.
    get_resolver().url_patterns  # noqa: B018 - the read is the point
    warm_worker()


def warm_worker() -> None:
    """Load every template and fill the apps' caches now, then freeze: all a Celery worker's
    process does (config/celery_app.py), and what a web process does after its URLconf."""
    for name in project_templates():
        get_template(name)  # compiled once, kept by the cached loader
    for config in apps.get_app_configs():
        warm_app = getattr(config, "warm", None)
        if warm_app is None:
            continue
        try:
            warm_app()
        except Exception:  # a cache left cold is filled by the first use; the server still starts
            logger.exception("warming %s failed; its first use will be slower", config.label)
    gc.collect()  # what start-up left as garbage goes now, not frozen forever
    gc.freeze()


def project_templates() -> list[str]:
    """The names of the templates in the project's own template directories."""
    dirs = [Path(d) for d in engines["django"].engine.dirs]  # type: ignore[attr-defined]
    return sorted(str(p.relative_to(d)) for d in dirs for p in d.rglob("*.html"))
