"""Writes to clubs, campaigns and memberships (`<entity>_<action>`, keyword-only, atomic)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from campaigns.models import Campaign, CampaignStatus, Club, Membership, Role
from rosters.stats import clean_stats, system_for

User = AbstractBaseUser
CAMPAIGN_FIELDS = ("name", "status", "options", "calendar_date")


@transaction.atomic
def club_create(*, name: str, slug: str = "", admins: tuple[User, ...] = ()) -> Club:
    """Create a club with its admins."""
    club = Club(name=name, slug=slug or slugify(name))
    club.full_clean()
    club.save()
    club.admins.add(*admins)
    return club


def _clean_options(system_key: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    return clean_stats(system_for(system_key).options, options, key="options")


@transaction.atomic
def campaign_create(
    *,
    club: Club,
    name: str,
    system: str,
    slug: str = "",
    status: str = CampaignStatus.DRAFT,
    options: Mapping[str, Any] | None = None,
    calendar_date: date | None = None,
    organiser: User | None = None,
) -> Campaign:
    """Create a campaign under a registered rule system; the organiser joins it as such."""
    campaign = Campaign(
        club=club,
        name=name,
        slug=slug or slugify(name),
        system=system,
        status=status,
        options=_clean_options(system, options),
        calendar_date=calendar_date,
    )
    campaign.full_clean()
    campaign.save()
    if organiser is not None:
        membership_create(campaign=campaign, user=organiser, role=Role.ORGANISER)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, **changes: Any) -> Campaign:
    """Change a campaign's name, status, house-rule options or calendar date.

    The rule system is fixed once the campaign exists: its forces' stats depend on it.
    """
    unknown = set(changes) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValidationError({name: ["cannot be changed here"] for name in sorted(unknown)})
    if "options" in changes:
        changes["options"] = _clean_options(campaign.system, changes["options"])
    for name, value in changes.items():
        setattr(campaign, name, value)
    campaign.full_clean()
    campaign.save()
    return campaign


@transaction.atomic
def membership_create(*, campaign: Campaign, user: User, role: str = Role.PLAYER) -> Membership:
    """Add a user to a campaign as organiser or player."""
    membership = Membership(campaign=campaign, user=user, role=role)
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def membership_update(*, membership: Membership, role: str) -> Membership:
    """Change a member's role."""
    membership.role = role
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def membership_delete(*, membership: Membership) -> None:
    """Remove a member from a campaign; their forces stay theirs, still in the campaign."""
    membership.delete()
