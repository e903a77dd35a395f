"""The crawl of a d12 skirmish campaign: no page, link or form answers a server error."""

import pytest

from tests.crawl.crawler import clean

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl


def test_no_page_link_or_form_of_a_d12_skirmish_campaign_answers_a_server_error(crawled):
    result = crawled("d12_skirmish")

    assert clean(result), result
