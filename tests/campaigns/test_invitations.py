"""Joining services: invitation links (open, revoked, expired), accepting them once, approval,
removing members, and a dispute that ends when one player comes round to the other's result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaigns import services
from campaigns.models import Invitation, JoinRequest, Membership
from campaigns.selectors import signup_needs_invitation
from league import services as league_services
from league.models import Pairing
from tests.factories import ClubFactory, UserFactory
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


def league_with_link(**campaign):
    campaign, olivia, players = make_league(["ann", "ben"], **campaign)
    return campaign, olivia, players, services.invitation_create(campaign=campaign, user=olivia)


def test_a_link_is_a_long_random_code_only_organisers_make():
    campaign, _olivia, players, link = league_with_link()

    with pytest.raises(ValidationError, match="organisers"):
        services.invitation_create(campaign=campaign, user=players["ann"].user)
    assert len(link.code) >= 20
    assert services.invitation_is_open(link)


def test_a_link_cannot_be_made_already_expired():
    campaign, olivia, _, _ = league_with_link()

    with pytest.raises(ValidationError, match="expired already"):
        services.invitation_create(
            campaign=campaign, user=olivia, expires_at=timezone.now() - timedelta(hours=1)
        )


def test_accepting_twice_makes_one_player_membership():
    _campaign, _, _, link = league_with_link()
    carl = UserFactory(username="carl")

    first = services.invitation_accept(invitation=link, user=carl)
    second = services.invitation_accept(invitation=link, user=carl)

    assert first.membership.pk == second.membership.pk
    assert first.membership.role == "PLAYER"
    assert Invitation.objects.get(pk=link.pk).uses == 1


def test_revoked_and_expired_links_let_nobody_in():
    campaign, olivia, _, link = league_with_link()
    late = services.invitation_create(
        campaign=campaign, user=olivia, expires_at=timezone.now() + timedelta(minutes=5)
    )
    Invitation.objects.filter(pk=late.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    services.invitation_revoke(invitation=link, user=olivia)
    carl = UserFactory(username="carl")

    for invitation in (link, Invitation.objects.get(pk=late.pk)):
        with pytest.raises(ValidationError, match="no longer works"):
            services.invitation_accept(invitation=invitation, user=carl)
    assert not Membership.objects.filter(user=carl).exists()


def test_with_approval_the_joiner_waits_until_an_organiser_lets_them_in():
    _campaign, olivia, _, link = league_with_link(approve_joiners=True)
    carl = UserFactory(username="carl")

    joined = services.invitation_accept(invitation=link, user=carl)
    again = services.invitation_accept(invitation=link, user=carl)
    assert joined.membership is None and again.waiting.pk == joined.waiting.pk

    member = services.join_request_approve(join_request=joined.waiting, user=olivia)

    assert member.user == carl and member.role == "PLAYER"
    assert not JoinRequest.objects.exists()
    assert Invitation.objects.get(pk=link.pk).uses == 1


def test_a_player_cannot_approve_a_joiner():
    _campaign, _, players, link = league_with_link(approve_joiners=True)
    joined = services.invitation_accept(invitation=link, user=UserFactory(username="carl"))

    with pytest.raises(ValidationError, match="organisers"):
        services.join_request_approve(join_request=joined.waiting, user=players["ann"].user)


def test_a_member_with_league_games_is_withdrawn_not_removed():
    campaign, olivia, players, _ = league_with_link()
    league_services.round_create_manual(
        campaign=campaign, pairings=[(players["ann"], players["ben"])]
    )

    with pytest.raises(ValidationError, match="league games"):
        services.membership_remove(membership=players["ben"], user=olivia)
    assert Membership.objects.filter(pk=players["ben"].pk).exists()


def test_an_organiser_cannot_remove_themselves_here():
    campaign, olivia, _, _ = league_with_link()
    own = Membership.objects.get(campaign=campaign, user=olivia)

    with pytest.raises(ValidationError, match="yourself"):
        services.membership_remove(membership=own, user=olivia)


def test_sign_up_needs_an_invitation_only_when_every_club_is_invite_only():
    assert signup_needs_invitation() is False
    closed = ClubFactory(invite_only=True)
    assert signup_needs_invitation() is True
    ClubFactory(invite_only=False)
    assert signup_needs_invitation() is False
    closed.delete()


def test_a_dispute_ends_when_the_first_reporter_comes_round_to_the_other():
    campaign, _, players, _ = league_with_link()
    league_services.round_create_manual(
        campaign=campaign, pairings=[(players["ann"], players["ben"])]
    )
    pairing = Pairing.objects.get(round__campaign=campaign)
    ann_says = league_services.claim_from({"winner": "HOME", "home_vp": 5})
    ben_says = league_services.claim_from({"winner": "AWAY", "away_vp": 7})

    league_services.pairing_report(pairing=pairing, user=players["ann"].user, claim=ann_says)
    league_services.pairing_report(pairing=pairing, user=players["ben"].user, claim=ben_says)
    disputed = league_services.claims_by_side(Pairing.objects.get(pk=pairing.pk))
    league_services.pairing_report(pairing=pairing, user=players["ann"].user, claim=ben_says)

    pairing.refresh_from_db()
    assert disputed == {"home": ann_says, "away": ben_says}
    assert pairing.is_settled and not pairing.disputed and pairing.winner == "AWAY"
