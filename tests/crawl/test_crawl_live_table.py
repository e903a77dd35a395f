"""The crawl reaches the live table's pages (watch, big screen) as a player and as a member
watching (issue 28). The stream's 404 to a stranger is tests/pages/test_live_stream.py: the
crawl's world is not committed, and the stream reads on connections of its own."""

import pytest

from tests.crawl.conftest import crawls_of
from tests.crawl.crawler import clean, report
from tests.crawl.world import make_world

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl

LIVE_PAGES = {"battles/<int:pk>/watch/", "battles/<int:pk>/screen/"}


def test_the_crawl_visits_the_watch_and_big_screen_pages_without_a_server_error(
    crawled_worlds,
):
    world = crawled_worlds(make_world("rencounter"))

    crawls = crawls_of(world, ["alice (owner)", "dave (member)"])

    assert clean(report(crawls)), report(crawls)
    for crawl in crawls:
        assert {route for _, route in crawl.timings} >= LIVE_PAGES, crawl.actor
