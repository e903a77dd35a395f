"""The crawl of a campaign with house rules: its battles play under version 1 while the campaign
has moved on to version 2 (tests/house_rules_system.py: v1 adds a longbow, v2 drops it). No
page, link, form or house-rules API answer is a server error."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle
from tests.crawl.conftest import crawls_of
from tests.crawl.crawler import clean, report
from tests.crawl.world import make_world
from tests.house_rules_system import pack

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl

LONGBOWS = pack(longbow={"range": 24, "volley": 3})
SHORT_BOWS = pack(bows={"range": 12})
HOUSE_RULES_API = "api/campaigns/(?P<pk>[^/.]+)/house-rules/$"
VERSION_API = "api/campaigns/(?P<pk>[^/.]+)/house-rules/versions/(?P<number>[0-9]{1,9})/$"


def test_no_page_or_api_answer_of_a_campaign_with_house_rules_is_a_server_error(
    crawled_worlds: Any, house_rules_system: Any
) -> None:
    [world] = crawled_worlds([make_world("game_the_90", house_rules=(LONGBOWS, SHORT_BOWS))])

    crawls = crawls_of(world)

    assert clean(report(crawls)), report(crawls)
    battles = Battle.objects.filter(campaign=world.campaign)
    assert set(battles.values_list("house_rules__number", flat=True)) == {1}
    assert world.campaign.house_rules_versions.count() == 2
    fetched = {route for crawl in crawls for _, route in crawl.timings}
    assert {HOUSE_RULES_API, VERSION_API, "odds/"} <= fetched
