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
