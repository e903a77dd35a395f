"""A club admin's evening in the admin, in a real browser at phone and laptop width: pair a
round from the dashboard, enter every result on the round page, settle a dispute from the
dashboard, read the standings. Every page Muster adds to the admin is photographed and its
text checked for WCAG AA contrast from the browser's computed styles."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page
    from pytest_django.live_server_helper import LiveServer

from league import selectors, services
from league.models import Pairing, Round
from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.factories import PASSWORD
from tests.league.league_helpers import make_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Contrast of every visible piece of text against the background it sits on, composed from
#: the computed colours of the element and its ancestors (WCAG 2.1 relative luminance).
CONTRAST_PROBLEMS = """
() => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const channel = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const over = (top, base) => ({
    r: top.r * top.a + base.r * (1 - top.a), g: top.g * top.a + base.g * (1 - top.a),
    b: top.b * top.a + base.b * (1 - top.a), a: 1});
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    return layers.reverse().reduce((base, c) => over(c, base), {r: 255, g: 255, b: 255, a: 1});
  };
  const problems = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'svg', 'OPTION', 'TITLE'].includes(el.tagName)) continue;
    const text = [...el.childNodes].filter(n => n.nodeType === 3)
      .map(n => n.textContent).join('').trim();
    const isButton = el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type);
    if (!text && !isButton) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height) continue;
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    if (el.closest('[hidden], .hidden, [aria-hidden=true]')) continue;
    const fg = parse(style.color);
    const bg = background(el);
    const colour = over(fg, bg);
    const [hi, lo] = [luminance(colour), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (parseInt(style.fontWeight, 10) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      const label = `${el.tagName.toLowerCase()} "${(text || el.value).slice(0, 30)}" ` +
        `${style.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}) ` +
        `${ratio.toFixed(2)}:1`;
      if (!seen.has(label)) { seen.add(label); problems.push(label); }
    }
  }
  return problems;
}
"""


def contrast_problems(page: Page) -> list[str]:
    return page.evaluate(CONTRAST_PROBLEMS)


def photograph(page: Page, name: str) -> None:
    """Save the page at phone and laptop width, checking the contrast at each."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        assert contrast_problems(page) == [], f"{name} at {width_name} width"
        page.screenshot(path=str(SCREENSHOTS / f"admin-{name}-{width_name}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def no_wider_than_the_screen(page: Page) -> None:
    width = page.evaluate("document.querySelector('#content-main').scrollWidth")
    assert width <= page.viewport_size["width"], width


def sign_in_to_the_admin(page: Page, live_server: LiveServer, username: str) -> None:
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/admin/")


def test_an_organiser_runs_a_round_from_the_dashboard_to_the_standings(page, live_server):
    campaign, _, _ = make_league(
        ["alice", "bob", "carol", "dave", "erin", "frank"], name="Winter League"
    )
    sign_in_to_the_admin(page, live_server, "olivia")

    # The admin index leads to the dashboard; the next action is to pair round 1.
    page.get_by_role("link", name="Open your seasons").click()
    photograph(page, "dashboard-empty")
    page.get_by_role("button", name="Pair round 1").click()
    page.get_by_text("round 1 paired").wait_for()
    round_ = Round.objects.get(campaign=campaign)
    games = list(round_.pairings.select_related("home__user", "away__user").order_by("table"))
    assert len(games) == 3

    # Table 1's players report differing results; the other games are still to be entered.
    disputed = games[0]
    services.pairing_report(
        pairing=disputed,
        user=disputed.home.user,
        claim=services.claim_from({"winner": "HOME", "home_vp": 5, "away_vp": 2}),
    )
    services.pairing_report(
        pairing=disputed,
        user=disputed.away.user,
        claim=services.claim_from({"winner": "AWAY", "home_vp": 2, "away_vp": 5}),
    )

    # The round page: one card per game; enter tables 2 and 3 and save them in one submit.
    page.goto(f"{live_server.url}/admin/league/round/{round_.pk}/results/")
    no_wider_than_the_screen(page)
    photograph(page, "round-results")
    for game, vp in zip(games[1:], (3, 4), strict=True):
        row = page.locator(f"#pairing-{game.pk}")
        row.get_by_label(game.home.player_name, exact=True).check()
        row.get_by_label(f"{game.home.player_name}: victory points").fill(str(vp))
        row.get_by_label(f"{game.away.player_name}: figures lost").fill("2")
    page.get_by_role("button", name="Save the round's results").click()
    page.get_by_text("2 result(s) recorded and confirmed").wait_for()
    assert [p.confirmed_by_organiser for p in round_.pairings.order_by("table")] == [
        False,
        True,
        True,
    ]

    # The dashboard: the dispute, with both reports; accept the away player's.
    page.goto(f"{live_server.url}/admin/campaigns/campaign/dashboard/")
    page.get_by_test_id("pending-disputed").wait_for()
    photograph(page, "dashboard-dispute")
    away = disputed.away.player_name
    page.get_by_role("button", name=f"Accept {away}'s report").click()
    page.get_by_text(f"settled with {away}'s report").wait_for()
    settled = Pairing.objects.get(pk=disputed.pk)
    assert (settled.winner, settled.confirmed_by_organiser) == ("AWAY", True)
    page.get_by_role("button", name="Lock round 1").wait_for()
    photograph(page, "dashboard-settled")

    # The standings: the winners on top; the campaign page names them in the round's table.
    page.get_by_role("link", name="Standings").first.click()
    rows = page.get_by_test_id("standings-row")
    assert rows.count() == 6
    assert "3" in rows.first.inner_text()
    winners = page.get_by_test_id("round-winner").all_inner_texts()
    assert sorted(winners) == sorted([away, games[1].home.player_name, games[2].home.player_name])
    photograph(page, "standings")
    page.goto(f"{live_server.url}/admin/campaigns/campaign/{campaign.pk}/change/")
    photograph(page, "campaign")

    # The season settings: the preview follows an unsaved change of the points for a win.
    page.goto(f"{live_server.url}/admin/campaigns/campaign/{campaign.pk}/season/")
    photograph(page, "season-settings")
    with page.expect_response(lambda r: "/season/preview/" in r.url):
        page.get_by_label("Win points").fill("5")
        page.get_by_label("Win points").blur()
    page.get_by_text("Standings with these settings (not saved)").wait_for()
    assert page.get_by_test_id("preview-points").first.inner_text() == "5"
    assert selectors.league_of(campaign).win_points == 3
    photograph(page, "season-preview")

    # The pairing sheet for the club night.
    page.goto(f"{live_server.url}/admin/league/round/{round_.pk}/sheet/")
    photograph(page, "pairing-sheet")


def test_the_contrast_check_catches_the_old_invisible_header_links(page, live_server):
    page.goto(f"{live_server.url}/admin/login/")
    page.evaluate(
        """() => {
          const bar = document.createElement('h2');
          bar.style.background = 'rgb(65, 118, 144)';
          bar.innerHTML = '<a href="#" style="color: rgb(65, 120, 147)">enter results</a>';
          document.body.appendChild(bar);
        }"""
    )

    problems = contrast_problems(page)

    assert any(p.startswith('a "enter results"') and "1.0" in p for p in problems), problems
