"""Who may open the pages that build a force, as the API decides: alice owns Red, olivia
organises the campaign, bob (another player) and mia (a member without a force) only read,
charlie is a stranger, and an anonymous visitor is sent to sign in."""

from __future__ import annotations

import pytest

from campaigns.models import Role
from rosters.models import Character, Force, Unit
from tests.factories import MembershipFactory, UserFactory
from tests.pages.conftest import make_muster

pytestmark = pytest.mark.django_db

READ_ONLY, STRANGER = 403, 404
EXPECTED = {"alice": 200, "olivia": 200, "bob": READ_ONLY, "mia": READ_ONLY, "charlie": STRANGER}
EDIT_PAGES = {
    "force edit": lambda m: f"/forces/{m.red.pk}/edit/",
    "force delete": lambda m: f"/forces/{m.red.pk}/delete/",
    "new character": lambda m: f"/forces/{m.red.pk}/characters/new/",
    "several characters": lambda m: f"/forces/{m.red.pk}/characters/many/",
    "character edit": lambda m: f"/characters/{m.red.characters.first().pk}/edit/",
    "unit edit": lambda m: f"/units/{m.red.units.first().pk}/edit/",
}
POSTS = {
    "add a unit": (lambda m: f"/forces/{m.red.pk}/units/new/", {"unit-name": "Intruders"}),
    "shift a unit": (lambda m: f"/units/{m.red.units.last().pk}/shift/", {"direction": "up"}),
    "delete a unit": (lambda m: f"/units/{m.red.units.first().pk}/delete/", {}),
    "archive": (lambda m: f"/forces/{m.red.pk}/archive/", {}),
    "delete the force": (lambda m: f"/forces/{m.red.pk}/delete/", {}),
    "move a character": (lambda m: f"/characters/{m.red.characters.first().pk}/move/", {}),
    "mark dead": (
        lambda m: f"/characters/{m.red.characters.first().pk}/status/",
        {"mark-status": "DEAD", "mark-reason": "Shot"},
    ),
    "edit a character": (
        lambda m: f"/characters/{m.red.characters.first().pk}/edit/",
        {"name": "Renamed", "stat_fire": "9"},
    ),
}


@pytest.fixture
def muster(db):
    muster = make_muster()
    MembershipFactory(user=UserFactory(username="mia"), campaign=muster.campaign, role=Role.PLAYER)
    return muster


def _as(client, name):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=name))
    return client


def _red_state(muster):
    return (
        list(Force.objects.filter(pk=muster.red.pk).values_list("name", "archived_at")),
        list(Unit.objects.filter(force=muster.red).order_by("pk").values_list("name", "order")),
        list(
            Character.objects.filter(force=muster.red)
            .order_by("pk")
            .values_list("name", "unit_id", "status", "stats")
        ),
    )


@pytest.mark.parametrize("page", EDIT_PAGES)
@pytest.mark.parametrize("actor", EXPECTED)
def test_each_actor_gets_the_edit_pages_the_api_would_allow(client, muster, page, actor):
    response = _as(client, actor).get(EDIT_PAGES[page](muster))

    assert response.status_code == EXPECTED[actor]


@pytest.mark.parametrize("page", EDIT_PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, muster, page):
    response = client.get(EDIT_PAGES[page](muster))

    assert response.status_code == 302
    assert "login" in response["Location"]


@pytest.mark.parametrize("action", POSTS)
@pytest.mark.parametrize("actor", ["bob", "mia", "charlie"])
def test_a_reader_or_stranger_changes_nothing(client, muster, action, actor):
    url, data = POSTS[action]
    before = _red_state(muster)

    response = _as(client, actor).post(url(muster), data)

    assert response.status_code == EXPECTED[actor]
    assert _red_state(muster) == before


@pytest.mark.parametrize("action", POSTS)
def test_an_anonymous_post_changes_nothing(client, muster, action):
    url, data = POSTS[action]
    before = _red_state(muster)

    response = client.post(url(muster), data)

    assert response.status_code == 302
    assert _red_state(muster) == before


@pytest.mark.parametrize("actor", ["alice", "olivia", "bob", "mia", "charlie"])
def test_everyone_signed_in_may_open_the_new_force_page(client, muster, actor):
    assert _as(client, actor).get("/forces/new/").status_code == 200


def test_the_organiser_may_edit_a_players_character(client, muster):
    character = muster.red.characters.first()

    response = _as(client, "olivia").post(
        f"/characters/{character.pk}/status/", {"mark-status": "CAPTURED", "mark-reason": "Taken"}
    )

    assert response.status_code == 302
    assert Character.objects.get(pk=character.pk).status == "CAPTURED"
    assert character.service_record.get().user == muster.olivia
