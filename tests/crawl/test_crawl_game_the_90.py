"""The crawl of a Game the 90% campaign: no page, link or form answers a server error."""

import pytest

from tests.crawl.crawler import clean

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl


def test_no_page_link_or_form_of_a_game_the_90_campaign_answers_a_server_error(crawled):
    result = crawled("game_the_90")

    assert clean(result), result
