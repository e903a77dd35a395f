"""The demo's league in progress, so a new club admin finds the dashboard and the round page
with something on them: round 1 played, with one disputed and one missing result; round 2
paired. Loaded idempotently: a league that already has rounds is left as it is.

Everything goes through the services, as an organiser and the players would do it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns import services as campaign_services
from campaigns.models import Campaign, Membership, Role
from common.users import User
from league import services
from league.models import Pairing, PairingMethod, Round

#: The league runs in the demo club's Rencounter campaign, where alice and bob have forces.
LEAGUE_SLUG = "rencounter-demo"
#: The demo's two players first, then six more club members: eight players, four tables.
LEAGUE_PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


@transaction.atomic
def demo_season_seed(*, club_slug: str, organiser: str, password: str) -> Campaign | None:
    """Start the demo league in the demo club's Rencounter campaign; return it (or None)."""
    campaign = Campaign.objects.filter(club__slug=club_slug, slug=LEAGUE_SLUG).first()
    if campaign is None:
        return None
    boss = _member(campaign, _user(organiser, password), Role.ORGANISER)
    for name in LEAGUE_PLAYERS:
        _member(campaign, _user(name, password), Role.PLAYER)
    if not Round.objects.filter(campaign=campaign).exists():
        season_in_progress(campaign=campaign, organiser=boss.user)
    return campaign


def _user(username: str, password: str) -> User:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@demo.invalid"}
    )
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def _member(campaign: Campaign, user: User, role: str) -> Membership:
    found = Membership.objects.filter(campaign=campaign, user=user).first()
    return found or campaign_services.membership_create(campaign=campaign, user=user, role=role)


def season_in_progress(*, campaign: Campaign, organiser: User) -> tuple[Pairing, Pairing]:
    """Play round 1 (Swiss) and pair round 2 by hand; return (disputed, missing) pairings.

    Round 1's games: the last is not reported, the one before is disputed, the others alternate
    between a result both players reported alike and one an organiser confirmed.
    """
    services.league_update(campaign=campaign, pairing_method=PairingMethod.SWISS)
    first = services.swiss_round_generate(campaign=campaign)
    games = [p for p in _pairings(first) if not p.is_bye]
    *played, disputed, missing = games
    for index, pairing in enumerate(played):
        home_won = index % 2 == 0
        # The winner also scores more victory points, as in a real game.
        result = {
            "winner": "HOME" if home_won else "AWAY",
            "home_vp": 3 if home_won else 1,
            "away_vp": 1 if home_won else 3,
        }
        if home_won:
            _report_both(pairing, result)
        else:
            services.pairing_confirm(
                pairing=pairing, user=organiser, claim=services.claim_from(result)
            )
    _dispute(disputed)
    services.round_deadline_set(round_=first, deadline=timezone.localdate() - timedelta(days=1))
    services.round_create_manual(campaign=campaign, pairings=_next_pairs(_pairings(first)))
    return disputed, missing


def _pairings(round_: Round) -> list[Pairing]:
    return list(round_.pairings.select_related("home__user", "away__user").order_by("table"))


def _away_user(pairing: Pairing) -> User:
    """The away player's user; the demo reports only games, never a bye."""
    if pairing.away is None:
        raise ValueError(f"{pairing} is a bye: nobody plays away to report it")
    return pairing.away.user


def _report_both(pairing: Pairing, result: Mapping[str, object]) -> None:
    claim = services.claim_from(result)
    services.pairing_report(pairing=pairing, user=pairing.home.user, claim=claim)
    services.pairing_report(pairing=pairing, user=_away_user(pairing), claim=claim)


def _dispute(pairing: Pairing) -> None:
    """Both players claim the win: the home report stands, the away one is kept beside it."""
    home = services.claim_from({"winner": "HOME", "home_vp": 4, "away_vp": 2})
    away = services.claim_from({"winner": "AWAY", "home_vp": 2, "away_vp": 4})
    services.pairing_report(pairing=pairing, user=pairing.home.user, claim=home)
    services.pairing_report(pairing=pairing, user=_away_user(pairing), claim=away)


def _next_pairs(previous: list[Pairing]) -> list[tuple[Membership, Membership | None]]:
    """Pair each round-1 home player with the next table's away player: no rematches."""
    homes = [p.home for p in previous]
    aways = [p.away for p in previous]
    if len(previous) < 2:
        return [(h, a) for h, a in zip(homes, aways, strict=True)]
    return [(homes[i], aways[(i + 1) % len(previous)]) for i in range(len(previous))]
