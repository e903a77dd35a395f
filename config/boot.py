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

`tests/ops/test_boot.py` checks all three in the process each served module starts.
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.template import engines
from django.template.loader import get_template
from django.urls import get_resolver


def warm() -> None:
    """Load every view and template now; keep what was loaded out of the collector's walks."""
    # Reading the patterns imports the URLconf and, through it, every view module.
    get_resolver().url_patterns  # noqa: B018 - the read is the point
    for name in project_templates():
        get_template(name)  # compiled once, kept by the cached loader
    gc.collect()  # what start-up left as garbage goes now, not frozen forever
    gc.freeze()


def project_templates() -> list[str]:
    """The names of the templates in the project's own template directories."""
    dirs = [Path(d) for d in engines["django"].engine.dirs]  # type: ignore[attr-defined]
    return sorted(str(p.relative_to(d)) for d in dirs for p in d.rglob("*.html"))
