"""Reads about campaigns: who may see or run which campaign."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from campaigns.models import Campaign, Club, Membership, Role

User = AbstractBaseUser | AnonymousUser


def campaign_ids_for(
    user: User, *, roles: tuple[str, ...] = (Role.ORGANISER, Role.PLAYER)
) -> QuerySet[Membership]:
    """Return a subquery of the ids of campaigns where the user holds one of `roles`."""
    return Membership.objects.filter(user_id=user.pk, role__in=roles).values("campaign_id")


def _runs(user: User) -> Q:
    admins = Club.admins.through.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk)
    return Q(Exists(admins)) | Q(pk__in=campaign_ids_for(user, roles=(Role.ORGANISER,)))


def campaigns_visible_to(user: User) -> QuerySet[Campaign]:
    """Return the campaigns a user may read: members, the club's admins, superusers."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    return Campaign.objects.filter(Q(pk__in=campaign_ids_for(user)) | _runs(user))


def campaigns_managed_by(user: User) -> QuerySet[Campaign]:
    """Return the campaigns a user may manage: organisers, the club's admins, superusers."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    return Campaign.objects.filter(_runs(user))


def clubs_administered_by(user: User) -> QuerySet[Club]:
    """Return the clubs whose campaigns a user may create."""
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(admins__id=user.pk) if user.is_authenticated else Club.objects.none()
