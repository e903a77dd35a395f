"""Keyset pages: following next (or previous, or last) visits every row once, at any depth."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from rosters.models import Character
from tests.factories import CharacterFactory, ForceFactory, UserFactory

pytestmark = pytest.mark.django_db


def _walk(client, url: str, link: str = "next") -> list[list[int]]:
    pages = []
    while url:
        body = client.get(url).json()
        pages.append([c["id"] for c in body["results"]])
        url = body[link]
    return pages


def _expected(owner, ordering: str) -> list[int]:
    terms = [ordering, "-id" if ordering.startswith("-") else "id"]
    mine = Character.objects.filter(force__owner=owner)
    return list(mine.order_by(*terms).values_list("id", flat=True))


def _recruit(names: list[str]):
    """Names repeat across an owner's forces (a name is unique within one force only)."""
    owner = UserFactory()
    forces: list = []
    for name in names:
        force = next((f for f in forces if not f.characters.filter(name=name).exists()), None)
        if force is None:
            force = ForceFactory(owner=owner)
            forces.append(force)
        CharacterFactory(force=force, name=name)
    return owner


@pytest.mark.parametrize("ordering", ["name", "-name", "status", "-created_at"])
def test_next_links_visit_every_row_once_even_where_names_repeat(as_user, ordering):
    owner = _recruit([f"Musketeer {index % 3}" for index in range(23)])

    pages = _walk(as_user(owner), f"/api/characters/?page_size=5&ordering={ordering}")

    assert [row for page in pages for row in page] == _expected(owner, ordering)
    assert [len(p) for p in pages] == [5, 5, 5, 5, 3]


def test_the_last_link_then_previous_links_walk_back_to_the_first_page(as_user):
    owner = _recruit(["Pikeman"] * 12)
    client = as_user(owner)

    last = client.get("/api/characters/?page_size=5").json()["last"]
    pages = _walk(client, last, link="previous")

    assert [row for page in reversed(pages) for row in page] == _expected(owner, "name")
    assert [len(p) for p in pages] == [5, 5, 2]  # the last page is full; the first holds the rest
    assert client.get(last).json()["next"] is None


def test_numbered_pages_still_answer(as_user):
    force = ForceFactory()
    CharacterFactory.create_batch(7, force=force)

    body = as_user(force.owner).get("/api/characters/?page_size=5&page=2").json()

    assert [c["id"] for c in body["results"]] == _expected(force.owner, "name")[5:]


@pytest.mark.parametrize("cursor", ["nonsense", "eyJ2IjogWyJhIl0sICJiIjogZmFsc2V9", "e30"])
def test_a_forged_cursor_is_a_404_not_a_500(as_user, cursor):
    force = ForceFactory()
    CharacterFactory.create_batch(2, force=force)

    response = as_user(force.owner).get(f"/api/characters/?cursor={cursor}")

    assert response.status_code == 404
    assert response.json() == {"detail": "Invalid cursor."}


def test_a_deep_page_costs_the_queries_of_the_first(as_user):
    force = ForceFactory()
    CharacterFactory.create_batch(30, force=force)
    client = as_user(force.owner)
    client.get("/api/characters/?page_size=5")
    last = client.get("/api/characters/?page_size=5").json()["last"]

    counts = []
    for url in ("/api/characters/?page_size=5", last):
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        counts.append(len(queries))

    assert counts[0] == counts[1]


class KeysetProperty(TestCase):
    """Any names, any page size: next links give the ordered list, each row exactly once."""

    @settings(max_examples=25, deadline=None)
    @given(
        names=st.lists(st.sampled_from(["Ann", "Bo", "Cy", "Ann "]), min_size=0, max_size=14),
        size=st.integers(min_value=1, max_value=6),
    )
    def test_pages_partition_the_list(self, names, size):
        from rest_framework.test import APIClient

        owner = _recruit(names)
        client = APIClient()
        client.force_authenticate(user=owner)

        pages = _walk(client, f"/api/characters/?page_size={size}")

        assert [row for page in pages for row in page] == _expected(owner, "name")
        assert all(0 < len(page) <= size for page in pages) or not names
