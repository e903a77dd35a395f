"""Reads about campaigns: who may see or run which campaign, who may join, a system's name."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from campaigns.models import Campaign, Club, Invitation, Membership, Role
from common.users import User, Visitor
from rules.errors import UnknownSystem
from rules.system import get_system


def campaign_ids_for(
    user: User, *, roles: tuple[str, ...] = (Role.ORGANISER, Role.PLAYER)
) -> QuerySet[Membership, int]:
    """Return a subquery of the ids of campaigns where the user holds one of `roles`."""
    return Membership.objects.filter(user_id=user.pk, role__in=roles).values_list(
        "campaign_id", flat=True
    )


def _club_admin(user: User) -> Q:
    admins = Club.admins.through.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk)
    return Q(Exists(admins))


def _runs(user: User) -> Q:
    return _club_admin(user) | Q(pk__in=campaign_ids_for(user, roles=(Role.ORGANISER,)))


def campaigns_visible_to(user: Visitor) -> QuerySet[Campaign]:
    """Return the campaigns a user may read: members, the club's admins, superusers."""
    if not isinstance(user, User):  # an anonymous visitor
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    # Organisers are members already: no separate organiser subquery, which every scoped
    # API request (forces, characters, battles) would compile and run nested.
    return Campaign.objects.filter(Q(pk__in=campaign_ids_for(user)) | _club_admin(user))


def campaigns_managed_by(user: Visitor) -> QuerySet[Campaign]:
    """Return the campaigns a user may manage: organisers, the club's admins, superusers."""
    if not isinstance(user, User):  # an anonymous visitor
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    return Campaign.objects.filter(_runs(user))


def clubs_administered_by(user: Visitor) -> QuerySet[Club]:
    """Return the clubs whose campaigns a user may create."""
    if not isinstance(user, User):  # an anonymous visitor
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(admins__id=user.pk)


# --- joining --------------------------------------------------------------------------------


def signup_needs_invitation() -> bool:
    """Return whether signing up needs an invitation link: every club is invite-only.

    One open club is enough to let anyone make an account (they still see nothing until a
    campaign lets them in); a site with no club yet is open, so its first admin can sign up.
    """
    clubs = Club.objects.all()
    return clubs.exists() and not clubs.filter(invite_only=False).exists()


def invitation_for(campaign_pk: int, code: str) -> Invitation | None:
    """Return the invitation with this code to this campaign (revoked or expired included)."""
    return (
        Invitation.objects.select_related("campaign__club")
        .filter(campaign_id=campaign_pk, code=code)
        .first()
    )


def system_name(key: str) -> str:
    """Return a rule system's name for its key (the key itself if it is not registered)."""
    try:
        return get_system(key).name
    except UnknownSystem:
        return key
