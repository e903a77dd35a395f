"""The organiser's season and round forms keep what they hold, and every admin page fits a
1,280 px laptop screen.

An organiser sets the season's dates, each round's deadline and the rating settings, then
saves the season page and the round's results page twice without changing anything: all of it
is still there. Then every admin page an organiser and the staff admin reach from the admin's
changelists is opened at 1,280 px and none is wider than the screen.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from league import services
from league.models import League, Round
from tests.browser.conftest import DESKTOP
from tests.browser.test_season_admin import sign_in_to_the_admin
from tests.league.league_helpers import make_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WIDTH = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"


def test_saving_the_season_and_results_unchanged_keeps_dates_deadlines_and_rating(
    page, live_server
):
    campaign, _, _ = make_league(["alice", "bob", "carol", "dave"], name="Autumn League")
    round_ = services.swiss_round_generate(campaign=campaign)
    page.set_viewport_size(DESKTOP)
    sign_in_to_the_admin(page, live_server, "olivia")
    season = f"{live_server.url}/admin/campaigns/campaign/{campaign.pk}/season/"

    page.goto(season)
    page.fill("#id_league-season_start", "2026-11-02")
    page.fill("#id_league-season_end", "2026-12-21")
    page.fill(f"#id_schedule-deadline_{round_.pk}", "2026-11-26")
    page.check("#id_league-show_rating")
    page.check("#id_league-seed_by_rating")
    page.get_by_role("button", name="Save the season settings").click()
    page.get_by_text("season settings saved").wait_for()
    for _ in range(2):
        page.goto(season)
        assert page.input_value("#id_league-season_start") == "2026-11-02"
        page.get_by_role("button", name="Save the season settings").click()
        page.get_by_text("season settings saved").wait_for()
        page.goto(f"{live_server.url}/admin/league/round/{round_.pk}/results/")
        assert page.input_value("#id_round-deadline") == "2026-11-26"
        page.get_by_role("button", name="Save the round's results").click()
        page.get_by_text("nothing changed").wait_for()

    league = League.objects.get(campaign=campaign)
    assert (league.season_start, league.season_end) == (
        datetime.date(2026, 11, 2),
        datetime.date(2026, 12, 21),
    )
    assert league.show_rating and league.seed_by_rating
    assert Round.objects.get(pk=round_.pk).deadline == datetime.date(2026, 11, 26)


def _admin_url(model, view: str) -> str | None:
    try:
        return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}")
    except NoReverseMatch:
        return None


def _admin_pages(campaign, round_) -> list[str]:
    pages = ["/admin/", "/admin/campaigns/campaign/dashboard/"]
    for model in admin.site._registry:
        pages += [u for u in (_admin_url(model, v) for v in ("changelist", "add")) if u]
    pages += [
        f"/admin/campaigns/campaign/{campaign.pk}/change/",
        f"/admin/campaigns/campaign/{campaign.pk}/season/",
        f"/admin/campaigns/campaign/{campaign.pk}/standings/",
        f"/admin/league/round/{round_.pk}/change/",
        f"/admin/league/round/{round_.pk}/results/",
    ]
    return pages


def test_every_admin_page_fits_a_laptop_screen(page, live_server):
    from tests.crawl.league_world import league_world

    world = league_world()
    campaign = world.campaign
    round_ = campaign.rounds.order_by("number").last()
    pages = _admin_pages(campaign, round_)
    force = world.forces[0]
    pages.append(f"/admin/rosters/force/{force.pk}/change/")
    pages += [f"/admin/rosters/character/{c.pk}/change/" for c in force.characters.all()[:1]]
    pages += [f"/admin/notices/webhook/{h.pk}/change/" for h in campaign.webhooks.all()]
    pages += [f"/admin/league/pairing/{p.pk}/change/" for p in round_.pairings.all()]
    pages += [f"/admin/battles/battle/{b.pk}/change/" for b in campaign.battles.all()]
    page.set_viewport_size(DESKTOP)
    sign_in_to_the_admin(page, live_server, "admin")

    too_wide = {}
    for path in pages:
        page.goto(f"{live_server.url}{path}")
        width = page.evaluate(PAGE_WIDTH)
        if width > DESKTOP["width"]:
            too_wide[path] = width

    assert too_wide == {}
