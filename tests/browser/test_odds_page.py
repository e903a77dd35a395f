"""The odds page in a real browser: htmx updates and the same numbers as the rules CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _cli_odds(*words: str) -> dict:
    output = subprocess.run(
        [sys.executable, "-m", "rules", "odds", *words],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def _shown_rows(page) -> dict[str, tuple[str, float]]:
    rows = page.locator("tr[data-outcome]").evaluate_all(
        "rows => rows.map(r => [r.dataset.outcome, r.dataset.exact, Number(r.dataset.probability)])"
    )
    return {key: (exact, probability) for key, exact, probability in rows}


def _settle(page) -> None:
    # A response arriving is not the swap done: wait until htmx has put the new panel in place,
    # or a locator may grab the old element it is about to replace (seen on a loaded machine).
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def test_the_odds_page_shows_the_same_numbers_as_the_cli(page, live_server, screens):
    page.goto(f"{live_server.url}/odds/")
    with page.expect_response(lambda r: "system=game_the_90" in r.url):
        page.get_by_label("Game", exact=True).select_option("game_the_90")
    _settle(page)
    with page.expect_response(lambda r: "system=rencounter" in r.url):
        page.get_by_label("Game", exact=True).select_option("rencounter")
    _settle(page)
    page.locator("select[name=check] option[value=fire]").wait_for(state="attached")
    with page.expect_response(lambda r: "check=fire" in r.url):
        page.get_by_label("Check", exact=True).select_option("fire")
    _settle(page)

    page.get_by_label("Fire skill", exact=True).fill("9")
    with page.expect_response(lambda r: "skill=9" in r.url):
        page.get_by_label("Target armour", exact=True).fill("1")
    with page.expect_response(lambda r: "target_armour=1" in r.url):
        page.get_by_label("Target armour", exact=True).press("Tab")
    with page.expect_response(lambda r: "target_shield=large" in r.url):
        page.get_by_label("Large shield").check()
    page.wait_for_url(re.compile("target_shield=large"))
    screens("odds")

    cli = _cli_odds("rencounter", "fire", "skill=9", "target_armour=1", "target_shield=large")
    shown = _shown_rows(page)
    assert {key: exact for key, (exact, _) in shown.items()} == cli["exact"]
    assert {key: p for key, (_, p) in shown.items()} == cli["outcomes"]
    assert page.get_by_test_id("cli-command").inner_text() == (
        "python -m rules odds rencounter fire skill=9 target_armour=1 target_shield=large"
    )


def test_a_value_out_of_range_is_marked_in_place(page, live_server):
    page.goto(f"{live_server.url}/odds/?system=rencounter&check=fire")

    page.get_by_label("Fire skill", exact=True).fill("40")
    page.get_by_label("Fire skill", exact=True).press("Enter")

    error = page.locator("#param-skill-error")
    error.wait_for()
    assert "at most 12" in error.inner_text()
    assert page.get_by_label("Fire skill", exact=True).input_value() == "40"
    assert page.locator("tr[data-outcome]").count() == 0
    assert "No odds yet" in page.locator("#odds-result").inner_text()
