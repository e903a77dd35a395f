"""A crawl world that also runs a league: season dates, "show rating" and "seed by rating" on,
round 1 played, confirmed and locked, round 2 paired with deadlines and a disputed game, and a
webhook. The forms' round trip and the history tests walk it."""

from __future__ import annotations

from datetime import date

from campaigns.services.clubs import organiser_access_sync
from league import services as league_services
from league.models import Pairing, Round
from notices.models import Webhook
from tests.crawl.world import World, make_world
from tests.league.league_helpers import settle_round

ORGANISER, PLAYER, MEMBER = "olivia (organiser)", "alice (owner)", "dave (member)"


def league_world() -> World:
    world = make_world("rencounter", every_state=False)
    campaign, organiser = world.campaign, world.users[ORGANISER]
    organiser_access_sync(user=organiser)
    league_services.league_update(
        campaign=campaign,
        season_start=date(2026, 11, 2),
        season_end=date(2026, 12, 21),
        show_rating=True,
        seed_by_rating=True,
    )
    first = league_services.swiss_round_generate(campaign=campaign)
    settle_round(campaign, 1, organiser)
    league_services.round_lock(round_=first)
    second = league_services.swiss_round_generate(campaign=campaign)
    deadlines = {first.pk: date(2026, 11, 9), second.pk: date(2026, 11, 26)}
    league_services.season_update(
        campaign=campaign,
        user=organiser,
        changes=league_services.SeasonChanges(deadlines=deadlines),
    )
    _dispute(second)
    Webhook.objects.create(campaign=campaign, name="Club Discord", url="https://example.org/hook")
    return world


def _dispute(round_: Round) -> None:
    game = Pairing.objects.filter(round=round_, away__isnull=False).select_related(
        "home__user", "away__user"
    )[0]
    league_services.pairing_report_file(
        pairing=game,
        user=game.home.user,
        claim=league_services.claim_from({"winner": "HOME"}),
        text="Held the ford until the light went.",
    )
    league_services.pairing_report(
        pairing=game, user=game.away.user, claim=league_services.claim_from({"winner": "AWAY"})
    )
