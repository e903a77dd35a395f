"""The crawl's fixtures: a world per rule system and a crawl of it as every actor."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from tests.crawl.crawler import Caps, Crawl, report
from tests.crawl.world import ACTORS, World, make_world


def crawl_world(world: World, actors: Iterable[str] = ACTORS) -> str:
    """Crawl the world as each actor; return the report (failures first, then the size).

    The first actor (the owner) submits every form in every state, plainly and by htmx, and
    reads each battle's API answer; the others submit each kind of form once and start from
    the pages, which is what their permissions need (tests/api covers the API's).
    """
    return report(crawls_of(world, actors))


def crawls_of(world: World, actors: Iterable[str] = ACTORS) -> list[Crawl]:
    """Crawl the world as each actor (see `crawl_world`); return the crawls."""
    crawls = []
    for n, actor in enumerate(actors):
        caps = Caps(forms_per_object=n == 0)
        crawl = Crawl(world.client(actor), actor, world.state_of, caps)
        crawls.append(crawl.run(world.seeds(api=n == 0)))
    crawls[0].failures[:0] = world.failures
    return crawls


#: Families of print documents laid out for real once in this process; later ones are stubbed.
_LAID_OUT: set[str] = set()
STUB_PDF = b"%PDF-1.4\n% laid out once per family per test process\n%%EOF\n"


@pytest.fixture
def pdf_renders_capped(monkeypatch):
    """Lay out each family of print document once; later PDFs run every step but WeasyPrint.

    A battle packet takes ~2 s to lay out. The crawl fetches it as every actor in every state:
    permissions, options and the document's data are what differ, and those still run.
    """
    from printing import apis

    real = apis.render

    def render(document):
        if document.family in _LAID_OUT:
            return STUB_PDF
        _LAID_OUT.add(document.family)
        return real(document)

    monkeypatch.setattr(apis, "render", render)
    yield
    # Forget what was laid out: a later test in this process must get real PDFs (a test that
    # reads PDF text after a crawl on the same worker read the stub on PostgreSQL).
    _LAID_OUT.clear()


@pytest.fixture
def crawled(db, settings, tmp_path, pdf_renders_capped) -> Callable[[str], str]:
    """Build the world of a system and crawl it as every actor; return the report."""
    settings.MEDIA_ROOT = tmp_path

    def crawl(system: str) -> str:
        return crawl_world(make_world(system))

    return crawl


@pytest.fixture
def crawled_worlds(db, settings, tmp_path, pdf_renders_capped):
    """Return the worlds given, with media kept in a temporary folder."""
    settings.MEDIA_ROOT = tmp_path
    return lambda worlds: worlds
