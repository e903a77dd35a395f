"""The force page and the pages that edit a force ask the database the same number of times
for a roster of 5 characters as for one of 40."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.pages.conftest import add_figures, make_muster

pytestmark = pytest.mark.django_db

PAGES = {
    "force page": lambda m: f"/forces/{m.red.pk}/",
    "force edit": lambda m: f"/forces/{m.red.pk}/edit/",
    "new character": lambda m: f"/forces/{m.red.pk}/characters/new/",
    "several characters": lambda m: f"/forces/{m.red.pk}/characters/many/",
    "character edit": lambda m: f"/characters/{m.red.characters.order_by('pk').first().pk}/edit/",
    "unit edit": lambda m: f"/units/{m.red.units.order_by('pk').first().pk}/edit/",
}


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("page", PAGES)
def test_the_page_costs_the_same_queries_for_5_and_40_characters(client, page):
    muster = make_muster(size=5)
    client.force_login(muster.alice)
    url = PAGES[page](muster)
    queries(client, url)  # warm: the session and content types
    small = queries(client, url)

    add_figures(muster.red, 35, units=4)
    large = queries(client, url)

    assert large == small, f"{page}: {small} queries at 5 characters, {large} at 40"
