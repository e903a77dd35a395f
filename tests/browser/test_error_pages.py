"""The error pages in a browser: the site header, one h1, a way home, at phone and desktop."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_not_found_page_has_the_site_header_and_leads_home(page, live_server, screens, sign_in):
    UserFactory(username="alice")
    sign_in("alice")

    response = page.goto(f"{live_server.url}/forces/999999/")

    assert response.status == 404
    assert page.locator(".site-header").is_visible()
    screens("error-404")
    page.get_by_role("link", name="Back to home").click()
    page.wait_for_url(f"{live_server.url}/")
