"""A campaign backup costs a constant number of queries per table, not per battle."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign_backup.campaign import campaign_export, campaign_import
from tests.battles.conftest import fought_battle, make_cast

pytestmark = pytest.mark.django_db


def _campaign_with(battles: int):
    cast = make_cast()
    for _ in range(battles):
        fought_battle(cast)
    return cast.campaign


def _queries(work: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as captured:
        work()
    return len(captured)


def test_export_costs_the_same_queries_at_two_battles_as_at_six():
    small, large = _campaign_with(2), _campaign_with(6)

    assert _queries(lambda: campaign_export(campaign=small)) == _queries(
        lambda: campaign_export(campaign=large)
    )


def test_import_costs_the_same_queries_at_two_battles_as_at_six():
    small = campaign_export(campaign=_campaign_with(2))
    large = campaign_export(campaign=_campaign_with(6))

    two = _queries(lambda: campaign_import(document=small, club_slug="two"))
    six = _queries(lambda: campaign_import(document=large, club_slug="six"))

    assert two == six
