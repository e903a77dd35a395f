"""Joining a campaign: organisers make (and revoke) invitation links, players open them and join,
organisers approve the players waiting and remove members.

Every write is safe to repeat: opening the same link twice, or pressing *Join* twice, leaves one
membership; approving a request already approved changes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from campaigns.models import Campaign, Invitation, JoinRequest, Membership, Role
from campaigns.selectors import campaigns_managed_by
from campaigns.services.clubs import membership_create, membership_delete
from common.users import User


def _require_organiser(campaign: Campaign, user: User) -> None:
    if not campaigns_managed_by(user).filter(pk=campaign.pk).exists():
        raise ValidationError({"campaign": ["only the campaign's organisers may do this"]})


@transaction.atomic
def invitation_create(
    *, campaign: Campaign, user: User, expires_at: datetime | None = None
) -> Invitation:
    """Make a new invitation link to the campaign (an organiser's)."""
    _require_organiser(campaign, user)
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": ["the link would have expired already"]})
    return Invitation.objects.create(
        campaign=campaign,
        code=secrets.token_urlsafe(16),
        created_by=user,
        expires_at=expires_at,
    )


@transaction.atomic
def invitation_standing(*, campaign: Campaign, user: User) -> Invitation:
    """Return the campaign's open link that never expires, making one if there is none."""
    standing = (
        campaign.invitations.filter(revoked_at__isnull=True, expires_at__isnull=True)
        .order_by("created_at", "pk")
        .first()
    )
    return standing or invitation_create(campaign=campaign, user=user)


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, user: User) -> Invitation:
    """Stop a link working; revoking it again keeps the first revocation time."""
    _require_organiser(invitation.campaign, user)
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    invitation.refresh_from_db()
    return invitation


@dataclass(frozen=True)
class Joined:
    """What opening an invitation did: made a member, or left the player waiting."""

    membership: Membership | None
    waiting: JoinRequest | None


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Joined:
    """Join the invitation's campaign as a player, or ask to (when it approves joiners)."""
    invitation = (
        Invitation.objects.select_for_update().select_related("campaign").get(pk=invitation.pk)
    )
    if not invitation_is_open(invitation):
        raise ValidationError({"invitation": ["this invitation link no longer works"]})
    campaign = invitation.campaign
    member = Membership.objects.filter(campaign=campaign, user_id=user.pk).first()
    if member is not None:
        return Joined(member, None)
    if campaign.approve_joiners:
        waiting, _ = JoinRequest.objects.get_or_create(
            campaign=campaign, user=user, defaults={"invitation": invitation}
        )
        return Joined(None, waiting)
    membership = _join(campaign, user)
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    return Joined(membership, None)


def _join(campaign: Campaign, user: User) -> Membership:
    try:
        with transaction.atomic():
            return membership_create(campaign=campaign, user=user, role=Role.PLAYER)
    except (IntegrityError, ValidationError):
        # Two tabs pressing Join at once: the other one made the membership.
        return Membership.objects.get(campaign=campaign, user_id=user.pk)


def invitation_is_open(invitation: Invitation) -> bool:
    """Return whether the link still lets people in: not revoked, not expired."""
    if invitation.revoked_at is not None:
        return False
    return invitation.expires_at is None or invitation.expires_at > timezone.now()


@transaction.atomic
def join_request_approve(*, join_request: JoinRequest, user: User) -> Membership:
    """Let a waiting player in as a player of the campaign."""
    _require_organiser(join_request.campaign, user)
    membership = _join(join_request.campaign, join_request.user)
    if join_request.invitation_id is not None:
        Invitation.objects.filter(pk=join_request.invitation_id).update(uses=F("uses") + 1)
    join_request.delete()
    return membership


@transaction.atomic
def join_request_decline(*, join_request: JoinRequest, user: User) -> None:
    """Turn a waiting player away (they may open a link again later)."""
    _require_organiser(join_request.campaign, user)
    join_request.delete()


@transaction.atomic
def membership_remove(*, membership: Membership, user: User) -> None:
    """Remove a member from the campaign (an organiser's); their forces stay theirs.

    A player who already has league games cannot simply vanish from the schedule: the
    organiser withdraws them instead, so their opponents' results keep counting.
    """
    _require_organiser(membership.campaign, user)
    if membership.user_id == user.pk:
        raise ValidationError({"membership": ["you cannot remove yourself here"]})
    if membership.home_pairings.exists() or membership.away_pairings.exists():
        raise ValidationError(
            {
                "membership": [
                    f"{membership.player_name} has league games; withdraw them from the "
                    "league in the admin instead, so their opponents' results still count"
                ]
            }
        )
    membership_delete(membership=membership)
