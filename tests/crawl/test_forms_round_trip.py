"""Every form round-trips: opened and submitted unchanged, as a browser would, it changes no row.

The world is a crawl world (a campaign with forces, characters and battles) that also runs a
league: season dates, "show rating" and "seed by rating" on, round 1 played, confirmed and
locked, round 2 paired with a deadline and a disputed game, and a webhook. Every form of the
admin, the organiser's desk and the site is submitted as the organiser, a player, a member
and the staff admin; the database is compared before and after each submission.
"""

from __future__ import annotations

import pytest

from league.models import Pairing
from tests.crawl.crawler import Caps
from tests.crawl.league_world import MEMBER, ORGANISER, PLAYER, league_world
from tests.crawl.round_trip import RoundTrip
from tests.crawl.test_crawl_admin import admin_seeds
from tests.crawl.world import STAFF, World

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl

#: Forms whose submission is the point: they act, add or sign out (path pattern, why).
ACTIONS = (
    (r"/add/$", "an add form creates a row"),
    (r"/new/", "a new-thing form creates a row"),
    (r"/delete/$", "a delete confirmation deletes"),
    (r"/logout/$", "signing out"),
    (r"/admin/campaigns/campaign/\d+/act/$", "the dashboard's one-click actions (pair, lock)"),
    (r"/battles/\d+/", "the table assistant's forms play the battle (each one is a move)"),
    (r"/join/", "joining a campaign"),
    (r"/report/$", "reporting a result is a player's claim"),
    (r"/notices/", "marking notices read"),
    (r"/history/\d+/$", "a character's old version: its form reverts the character to it"),
    (r"/invitations/$", "the invitations page's form makes a new invitation link"),
    (r"/accounts/email/$", "the e-mail page's buttons act (make primary, re-send, remove)"),
)


def seeds(world: World) -> list[str]:
    campaign = world.campaign
    desk = [f"/admin/campaigns/campaign/{campaign.pk}/{p}/" for p in ("season", "house-rules")]
    desk.append("/admin/campaigns/campaign/dashboard/")
    for round_ in campaign.rounds.all():
        desk += [f"/admin/league/round/{round_.pk}/change/"]
        desk += [f"/admin/league/round/{round_.pk}/results/"]
    for pairing in Pairing.objects.filter(round__campaign=campaign):
        desk.append(f"/admin/league/pairing/{pairing.pk}/change/")
    desk += [f"/admin/notices/webhook/{h.pk}/change/" for h in campaign.webhooks.all()]
    return [*admin_seeds([world]), *desk, *world.seeds(api=False)]


@pytest.fixture
def world(crawled_worlds) -> World:
    return crawled_worlds([league_world()])[0]


@pytest.mark.parametrize("actor", [ORGANISER, PLAYER, MEMBER, STAFF])
def test_every_form_submitted_unchanged_changes_nothing(world, actor):
    caps = Caps(objects_per_route=3, routes={"admin/": 3}, after_post=False, pdf_objects=0)
    crawl = RoundTrip(world.client(actor), actor, world.state_of, caps, actions=ACTIONS)

    crawl.run(seeds(world))

    assert crawl.tried, "no form was submitted"
    assert crawl.changed == [], "\n".join(crawl.changed)
    assert crawl.failures == [], "\n".join(map(str, crawl.failures))
