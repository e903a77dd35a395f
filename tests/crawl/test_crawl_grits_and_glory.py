"""The crawl of a Grits & Glory campaign: no page, link or form answers a server error."""

import pytest

from tests.crawl.crawler import clean

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl


def test_no_page_link_or_form_of_a_grits_and_glory_campaign_answers_a_server_error(crawled):
    result = crawled("grits_and_glory")

    assert clean(result), result
