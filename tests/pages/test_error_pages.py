"""Errors are site pages: the header, a sentence saying what happened, and a way home."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.pages.error_urls")]


def assert_site_page_with_a_way_home(response, title: str) -> str:
    html = response.content.decode()
    assert 'class="site-header"' in html
    assert f"<h1>{title}</h1>" in html
    assert 'href="/">Back to home</a>' in html
    return html


def test_an_unknown_address_answers_the_styled_not_found_page(client):
    alice = UserFactory(username="alice")
    client.force_login(alice)

    response = client.get("/no-such-muster/")

    assert response.status_code == 404
    html = assert_site_page_with_a_way_home(response, "Page not found")
    assert "Signed in as <strong>alice</strong>" in html


def test_an_unknown_api_address_still_answers_json(client):
    response = client.get("/api/no-such-thing/")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_refused_page_answers_the_styled_forbidden_page_with_the_reason(client):
    client.force_login(UserFactory(username="dave"))

    response = client.get("/test-errors/forbidden/")

    assert response.status_code == 403
    html = assert_site_page_with_a_way_home(response, "Not allowed")
    assert "Only the players whose forces fight play this battle." in html


def test_a_request_refused_as_suspicious_answers_the_styled_bad_request_page(client):
    response = client.get("/test-errors/suspicious/")

    assert response.status_code == 400
    html = assert_site_page_with_a_way_home(response, "That request could not be read")
    assert "a forged field" not in html


def test_a_crash_answers_the_styled_server_error_page_with_debug_off(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory(username="alice"))

    response = client.get("/test-errors/broken/")

    assert response.status_code == 500
    html = assert_site_page_with_a_way_home(response, "Something went wrong on our side")
    assert "the table fell over" not in html
