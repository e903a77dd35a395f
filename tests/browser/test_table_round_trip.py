"""A table action in the browser is one request: the post answers with the table htmx swaps in.

alice resolves a check, then voids it, on a 390 px phone: each action is one POST answered
200 (no redirect, no second fetch of the page), the address stays the page's, the event
shows once in the log (the live stream does not add it again) and the result is in view.
"""

from __future__ import annotations

import pytest

from battles.models import BattleEvent
from battles.services import SideChoice, battle_start
from tests.browser.conftest import choose
from tests.pages.conftest import make_muster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEW = """() => {
  const box = document.querySelector('#result').getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_resolving_and_voiding_are_one_request_each(page, live_server, sign_in) -> None:
    muster = make_muster(size=2)
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    sign_in("alice")
    url = f"{live_server.url}/battles/{battle.pk}/"
    page.goto(url)
    choose(page, "Check", "Fire: d12 at or under skill + modifiers, then damage")
    choose(page, "Against", "Blue man 1")
    asked: list[tuple[str, str, int]] = []
    page.on("response", lambda r: asked.append((r.request.method, r.url, r.status)))

    page.get_by_test_id("resolve").click()
    page.locator('[data-live-log] .event[data-seq="1"]').wait_for()
    page.wait_for_function(IN_VIEW, timeout=3_000)
    page.get_by_test_id("void").click()
    page.locator('[data-live-log] .event[data-seq="2"]').wait_for()
    page.wait_for_timeout(1_000)  # time for the stream to bring both events again

    here = f"{live_server.url}/battles/{battle.pk}"
    table_requests = [(m, u.removeprefix(here), s) for m, u, s in asked if u.startswith(here)]
    posts = [r for r in table_requests if r[0] == "POST"]
    assert posts == [("POST", "/check/", 200), ("POST", "/void/", 200)]
    assert not [r for r in table_requests if r[0] == "GET" and r[1].startswith("/?")]
    assert page.url == url
    assert page.locator('[data-live-log] .event[data-seq="1"]').count() == 1
    assert page.locator('[data-live-log] .event[data-seq="2"]').count() == 1
    assert page.locator(".event.is-voided[data-seq='1']").count() == 1
    assert BattleEvent.objects.filter(battle=battle).count() == 2
