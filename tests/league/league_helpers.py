"""Helpers for the league tests: a league of named players and results entered the way an
organiser would (through the services)."""

from __future__ import annotations

from typing import Any

from campaigns import services
from campaigns.models import Membership, Role
from league import services as league_services
from league.models import Pairing
from tests.factories import CampaignFactory, MembershipFactory, UserFactory


def make_league(names: list[str], organiser: str = "olivia", **campaign: Any):
    """Return (campaign, organiser user, {name: membership}) for a fresh league."""
    league = CampaignFactory(**campaign)
    boss = UserFactory(username=organiser)
    services.membership_create(campaign=league, user=boss, role=Role.ORGANISER)
    players = {n: MembershipFactory(campaign=league, user=UserFactory(username=n)) for n in names}
    return league, boss, players


def pairing_between(campaign, number: int, a: Membership, b: Membership | None) -> Pairing:
    found = Pairing.objects.filter(round__campaign=campaign, round__number=number)
    for pairing in found:
        if {pairing.home_id, pairing.away_id} == {a.pk, b.pk if b else None}:
            return pairing
    raise AssertionError(f"no pairing of {a} and {b} in round {number}")


def settle(pairing: Pairing, organiser, **result: Any) -> Pairing:
    """Record and confirm a result as the organiser would."""
    return league_services.pairing_confirm(
        pairing=pairing, user=organiser, claim=league_services.claim_from(result)
    )


def settle_round(campaign, number: int, organiser) -> None:
    """Settle every game of a round: home wins by 1 VP."""
    for pairing in Pairing.objects.filter(round__campaign=campaign, round__number=number):
        if not pairing.is_bye:
            settle(pairing, organiser, winner="HOME", home_vp=1)
