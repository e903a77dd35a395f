"""A crawl world that also runs a league: season dates, "show rating" and "seed by rating" on,
round 1 played, confirmed and locked, round 2 paired with deadlines and a disputed game, and a
webhook. The forms' round trip and the history tests walk it."""

from __future__ import annotations

from datetime import date

from campaigns import services
from campaigns.models import Pairing, Round
from campaigns.services.clubs import organiser_access_sync
from notices.models import Webhook
from tests.campaigns.league_helpers import settle_round
from tests.crawl.world import World, make_world

ORGANISER, PLAYER, MEMBER = "olivia (organiser)", "alice (owner)", "dave (member)"


def league_world() -> World:
    world = make_world("rencounter", every_state=False)
    campaign, organiser = world.campaign, world.users[ORGANISER]
    organiser_access_sync(user=organiser)
    services.league_update(
        campaign=campaign,
        season_start=date(2026, 11, 2),
        season_end=date(2026, 12, 21),
        show_rating=True,
        seed_by_rating=True,
    )
    first = services.swiss_round_generate(campaign=campaign)
    settle_round(campaign, 1, organiser)
    services.round_lock(round_=first)
    second = services.swiss_round_generate(campaign=campaign)
    deadlines = {first.pk: date(2026, 11, 9), second.pk: date(2026, 11, 26)}
    services.season_update(
        campaign=campaign, user=organiser, changes=services.SeasonChanges(deadlines=deadlines)
    )
    _dispute(second)
    Webhook.objects.create(campaign=campaign, name="Club Discord", url="https://example.org/hook")
    return world


def _dispute(round_: Round) -> None:
    game = Pairing.objects.filter(round=round_, away__isnull=False).select_related(
        "home__user", "away__user"
    )[0]
    services.pairing_report_file(
        pairing=game,
        user=game.home.user,
        claim=services.claim_from({"winner": "HOME"}),
        text="Held the ford until the light went.",
    )
    services.pairing_report(
        pairing=game, user=game.away.user, claim=services.claim_from({"winner": "AWAY"})
    )
