"""The minimal home page and the login page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_home_page_asks_strangers_to_sign_in(client):
    response = client.get("/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_login_page_signs_a_player_in(client, story):
    from tests.factories import PASSWORD

    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302


def test_the_home_page_lists_the_players_campaigns_and_forces(client, story):
    client.force_login(story.alice)

    html = client.get("/").content.decode()

    assert story.campaign.name.replace("'", "&#x27;") in html
    assert story.force.name.replace("'", "&#x27;") in html


def test_signing_out_ends_the_session(client, story):
    client.force_login(story.alice)

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert client.get("/").status_code == 302


def test_the_home_page_names_each_system(client, story):
    client.force_login(story.alice)

    html = client.get("/").content.decode()

    assert "Rencounter" in html


@pytest.mark.parametrize("forces", [1, 12])
def test_the_home_page_costs_the_same_queries_however_many_forces(
    client, story, django_assert_num_queries, forces
):
    from tests.factories import ForceFactory

    for _ in range(forces):
        ForceFactory(owner=story.alice)
    client.force_login(story.alice)
    client.get("/")

    with django_assert_num_queries(HOME_QUERIES):
        client.get("/")


#: session, user, campaigns, forces, battles under way, open games, recovering figures,
#: unread notifications.
HOME_QUERIES = 8


def test_an_archived_force_is_listed_last_and_marked_archived(client, story):
    from rosters.services import force_archive
    from tests.factories import ForceFactory

    retired = ForceFactory(owner=story.alice, name="Aardvark Company", system=story.force.system)
    force_archive(force=retired)
    client.force_login(story.alice)

    forces = client.get("/").context["home"].forces

    assert forces[-1] == retired
    assert "archived" in client.get("/").content.decode()
