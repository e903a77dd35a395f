"""Joining a campaign: the organiser's invitation page, the join link for each visitor, approval
of waiting players and the removal of members — for each actor (alice and bob play, olivia
organises, charlie is a stranger, and an anonymous visitor)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import Invitation, JoinRequest, Membership
from campaigns.services import invitation_create, invitation_revoke
from league.services import round_create_manual
from tests.pages.test_campaign_page import campaign_queries

pytestmark = pytest.mark.django_db


def _invitations(muster):
    return f"/campaigns/{muster.campaign.pk}/invitations/"


def _join(muster, invitation):
    return f"/campaigns/{muster.campaign.pk}/join/{invitation.code}/"


@pytest.fixture
def invitation(muster):
    return invitation_create(campaign=muster.campaign, user=muster.olivia)


# --- the organiser's invitation page -------------------------------------------------------------


def test_the_organiser_sees_the_link_with_its_qr_code(client, muster, invitation):
    client.force_login(muster.olivia)

    html = client.get(_invitations(muster)).content.decode()

    assert f"/campaigns/{muster.campaign.pk}/join/{invitation.code}/" in html
    assert "<svg" in html and "QR code of the invitation link" in html


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("bob", 403), ("charlie", 404)])
def test_only_organisers_see_the_invitation_page(client, muster, invitation, actor, status):
    client.force_login(getattr(muster, actor))

    response = client.get(_invitations(muster))

    assert response.status_code == status
    assert invitation.code not in response.content.decode()


def test_an_anonymous_visitor_is_sent_to_sign_in_from_the_invitation_page(client, muster):
    response = client.get(_invitations(muster))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_organiser_makes_a_link_that_expires(client, muster):
    client.force_login(muster.olivia)

    response = client.post(_invitations(muster), {"expires_in": "7"})

    made = Invitation.objects.get(campaign=muster.campaign)
    assert response.status_code == 302
    assert timedelta(days=6) < made.expires_at - timezone.now() <= timedelta(days=7)


def test_a_bad_expiry_is_refused_beside_the_field_and_nothing_is_made(client, muster):
    client.force_login(muster.olivia)

    response = client.post(_invitations(muster), {"expires_in": "forever"})

    assert response.status_code == 200
    assert 'id="id_expires_in-error"' in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_player_cannot_make_a_link(client, muster):
    client.force_login(muster.alice)

    response = client.post(_invitations(muster), {"expires_in": ""})

    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_revoking_twice_is_harmless_and_keeps_the_first_time(client, muster, invitation):
    client.force_login(muster.olivia)
    url = f"{_invitations(muster)}{invitation.pk}/revoke/"

    client.post(url)
    first = Invitation.objects.get(pk=invitation.pk).revoked_at
    second = client.post(url)

    assert second.status_code == 302
    assert first is not None
    assert Invitation.objects.get(pk=invitation.pk).revoked_at == first


def test_a_player_cannot_revoke_a_link(client, muster, invitation):
    client.force_login(muster.bob)

    response = client.post(f"{_invitations(muster)}{invitation.pk}/revoke/")

    assert response.status_code == 403
    assert Invitation.objects.get(pk=invitation.pk).revoked_at is None


def test_the_organiser_switches_on_approval(client, muster):
    client.force_login(muster.olivia)

    client.post(f"/campaigns/{muster.campaign.pk}/joining/", {"approve_joiners": "on"})

    muster.campaign.refresh_from_db()
    assert muster.campaign.approve_joiners is True


# --- opening the link ----------------------------------------------------------------------------


def test_an_anonymous_visitor_is_offered_sign_up_and_sign_in_that_come_back(
    client, muster, invitation
):
    response = client.get(_join(muster, invitation))

    html = response.content.decode()
    assert response.status_code == 200
    assert muster.campaign.name in html
    assert f"/accounts/signup/?next=%2Fcampaigns%2F{muster.campaign.pk}%2Fjoin%2F" in html
    assert f"/accounts/login/?next=%2Fcampaigns%2F{muster.campaign.pk}%2Fjoin%2F" in html


def test_a_stranger_sees_the_campaign_and_joins_as_a_player(client, muster, invitation):
    client.force_login(muster.charlie)

    page = client.get(_join(muster, invitation))
    joined = client.post(_join(muster, invitation))

    assert page.status_code == 200 and "Join as a player" in page.content.decode()
    assert joined["Location"] == f"/campaigns/{muster.campaign.pk}/"
    assert Membership.objects.get(campaign=muster.campaign, user=muster.charlie).role == "PLAYER"
    assert client.get(f"/campaigns/{muster.campaign.pk}/").status_code == 200


def test_pressing_join_twice_makes_one_membership(client, muster, invitation):
    client.force_login(muster.charlie)

    client.post(_join(muster, invitation))
    client.post(_join(muster, invitation))

    assert Membership.objects.filter(campaign=muster.campaign, user=muster.charlie).count() == 1
    assert Invitation.objects.get(pk=invitation.pk).uses == 1


def test_a_member_who_opens_the_link_goes_to_the_campaign(client, muster, invitation):
    client.force_login(muster.alice)

    response = client.get(_join(muster, invitation))

    assert response["Location"] == f"/campaigns/{muster.campaign.pk}/"


def test_a_revoked_link_says_so_and_lets_nobody_in(client, muster, invitation):
    invitation_revoke(invitation=invitation, user=muster.olivia)
    client.force_login(muster.charlie)

    page = client.get(_join(muster, invitation))
    client.post(_join(muster, invitation))

    assert page.status_code == 410
    assert "revoked" in page.content.decode()
    assert not Membership.objects.filter(user=muster.charlie).exists()


def test_an_expired_link_says_so_and_lets_nobody_in(client, muster, invitation):
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    client.force_login(muster.charlie)

    client.post(_join(muster, invitation))
    page = client.get(_join(muster, invitation))

    assert page.status_code == 410
    assert "expired" in page.content.decode()
    assert not Membership.objects.filter(user=muster.charlie).exists()


def test_a_wrong_code_or_campaign_is_not_found(client, muster, invitation):
    client.force_login(muster.charlie)

    assert client.get(f"/campaigns/{muster.campaign.pk}/join/nonsense/").status_code == 404
    assert (
        client.get(f"/campaigns/{muster.campaign.pk + 1}/join/{invitation.code}/").status_code
        == 404
    )


# --- approval ------------------------------------------------------------------------------


@pytest.fixture
def approving(muster, invitation):
    muster.campaign.approve_joiners = True
    muster.campaign.save()
    return invitation


def test_with_approval_a_joiner_waits_and_sees_nothing_yet(client, muster, approving):
    client.force_login(muster.charlie)

    client.post(_join(muster, approving))
    page = client.get(_join(muster, approving))

    assert JoinRequest.objects.filter(user=muster.charlie).count() == 1
    assert 'id="join-waiting"' in page.content.decode()
    assert client.get(f"/campaigns/{muster.campaign.pk}/").status_code == 404


def test_the_organiser_sees_who_waits_and_lets_them_in(client, muster, approving):
    waiting = JoinRequest.objects.create(campaign=muster.campaign, user=muster.charlie)
    client.force_login(muster.olivia)

    page = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()
    url = f"/campaigns/{muster.campaign.pk}/waiting/{waiting.pk}/"
    client.post(url, {"decision": "approve"})
    again = client.post(url, {"decision": "approve"})

    assert "Let charlie in" in page
    assert again.status_code == 302
    assert Membership.objects.filter(campaign=muster.campaign, user=muster.charlie).count() == 1
    assert not JoinRequest.objects.exists()


def test_the_organiser_turns_a_joiner_away(client, muster, approving):
    waiting = JoinRequest.objects.create(campaign=muster.campaign, user=muster.charlie)
    client.force_login(muster.olivia)

    client.post(f"/campaigns/{muster.campaign.pk}/waiting/{waiting.pk}/", {"decision": "decline"})

    assert not JoinRequest.objects.exists()
    assert not Membership.objects.filter(user=muster.charlie).exists()


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("charlie", 404)])
def test_only_organisers_approve(client, muster, approving, actor, status):
    dora = type(muster.alice).objects.create(username="dora")
    waiting = JoinRequest.objects.create(campaign=muster.campaign, user=dora)
    client.force_login(getattr(muster, actor))

    response = client.post(
        f"/campaigns/{muster.campaign.pk}/waiting/{waiting.pk}/", {"decision": "approve"}
    )

    assert response.status_code == status
    assert not Membership.objects.filter(user=dora).exists()


# --- removing a member ---------------------------------------------------------------------------


def _remove(muster, user):
    member = Membership.objects.get(campaign=muster.campaign, user=user)
    return f"/campaigns/{muster.campaign.pk}/members/{member.pk}/remove/"


def test_the_organiser_confirms_then_removes_a_member(client, muster):
    client.force_login(muster.olivia)
    url = _remove(muster, muster.bob)

    confirm = client.get(url)
    removed = client.post(url)
    again = client.post(url)

    assert "Remove bob?" in confirm.content.decode()
    assert removed.status_code == 302 and again.status_code == 302
    assert not Membership.objects.filter(campaign=muster.campaign, user=muster.bob).exists()
    assert muster.blue.__class__.objects.filter(pk=muster.blue.pk, owner=muster.bob).exists()


def test_a_member_with_league_games_is_not_removed_and_the_page_says_why(client, muster):
    alice, bob = (
        Membership.objects.get(campaign=muster.campaign, user=u) for u in (muster.alice, muster.bob)
    )
    round_create_manual(campaign=muster.campaign, pairings=[(alice, bob)])
    client.force_login(muster.olivia)

    response = client.post(_remove(muster, muster.bob))

    assert response.status_code == 400
    assert "has league games" in response.content.decode()
    assert Membership.objects.filter(pk=bob.pk).exists()


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("charlie", 404)])
def test_only_organisers_remove_members(client, muster, actor, status):
    client.force_login(getattr(muster, actor))
    url = _remove(muster, muster.bob)

    assert client.get(url).status_code == status
    assert client.post(url).status_code == status
    assert Membership.objects.filter(campaign=muster.campaign, user=muster.bob).exists()


def test_the_member_list_offers_removal_to_organisers_only(client, muster):
    client.force_login(muster.alice)
    as_player = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()
    client.force_login(muster.olivia)
    as_organiser = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert "/remove/" not in as_player
    assert _remove(muster, muster.bob) in as_organiser


@pytest.mark.parametrize("members", [2, 14])
def test_the_campaign_page_member_list_costs_the_same_queries_at_any_size(
    client, muster, django_assert_num_queries, members
):
    from tests.factories import MembershipFactory, UserFactory

    for i in range(members):
        MembershipFactory(campaign=muster.campaign, user=UserFactory(username=f"recruit{i}"))
        JoinRequest.objects.create(
            campaign=muster.campaign, user=UserFactory(username=f"hopeful{i}")
        )
    client.force_login(muster.olivia)
    client.get(f"/campaigns/{muster.campaign.pk}/")

    with django_assert_num_queries(campaign_queries(muster.campaign) + ORGANISER_EXTRA_QUERIES):
        response = client.get(f"/campaigns/{muster.campaign.pk}/")

    assert response.content.decode().count("/remove/") == members + 2


#: The player's page (tests/pages/test_campaign_page.py) plus the waiting players and the
#: count of disputed results.
ORGANISER_EXTRA_QUERIES = 2


def test_an_anonymous_visitor_changes_nothing_on_the_organisers_pages(client, muster, invitation):
    dora = type(muster.alice).objects.create(username="dora")
    waiting = JoinRequest.objects.create(campaign=muster.campaign, user=dora)
    base = f"/campaigns/{muster.campaign.pk}"

    answers = [
        client.post(f"{base}/invitations/{invitation.pk}/revoke/"),
        client.post(f"{base}/waiting/{waiting.pk}/", {"decision": "approve"}),
        client.post(_remove(muster, muster.bob)),
        client.post(f"{base}/joining/", {"approve_joiners": "on"}),
    ]

    assert all(a["Location"].startswith("/accounts/login/") for a in answers)
    assert Invitation.objects.get(pk=invitation.pk).revoked_at is None
    assert JoinRequest.objects.filter(pk=waiting.pk).exists()
    assert Membership.objects.filter(campaign=muster.campaign, user=muster.bob).exists()
