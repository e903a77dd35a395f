"""Writes to clubs, campaigns and memberships (`<entity>_<action>`, keyword-only, atomic)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from campaigns.models import Campaign, CampaignStatus, Club, Membership, Role
from common.stats import clean_stats, system_for
from common.users import User

#: The group whose model permissions let organisers into the admin (scoped per campaign there).
ORGANISERS_GROUP = "Organisers"
#: What the group may do (no adding or deleting campaigns or clubs: that is the club admins').
ORGANISER_PERMISSIONS = (
    "view_club",
    "view_campaign",
    "change_campaign",
    *(f"{action}_membership" for action in ("view", "add", "change", "delete")),
    "view_league",
    "add_league",
    "change_league",
    *(
        f"{action}_{model}"
        for model in ("leagueadjustment", "round", "pairing")
        for action in ("view", "add", "change", "delete")
    ),
    "view_resultentry",  # a pairing's results on record: read only, written by the services
)
#: Organisers add and fix their campaigns' webhooks (notices.migrations.0002 grants the same).
WEBHOOK_PERMISSIONS = (
    *(f"{action}_webhook" for action in ("view", "add", "change", "delete")),
    "view_delivery",
)
CAMPAIGN_FIELDS = ("name", "slug", "status", "options", "calendar_date", "approve_joiners")


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
    approve_joiners: bool = False,
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
        approve_joiners=approve_joiners,
    )
    campaign.full_clean()
    campaign.save()
    if organiser is not None:
        membership_create(campaign=campaign, user=organiser, role=Role.ORGANISER)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, **changes: Any) -> Campaign:
    """Change a campaign's name, slug, status, house rules, calendar date or joining by approval.

    The rule system is fixed once the campaign exists: its forces' stats depend on it. The
    club too: the campaign's games count in that club's rating (a copy restored from a backup
    goes to another club).
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
    organiser_access_sync(user=membership.user)
    return membership


@transaction.atomic
def membership_update(*, membership: Membership, role: str) -> Membership:
    """Change a member's role."""
    membership.role = role
    membership.full_clean()
    membership.save()
    organiser_access_sync(user=membership.user)
    return membership


@transaction.atomic
def membership_delete(*, membership: Membership) -> None:
    """Remove a member from a campaign; their forces stay theirs, still in the campaign."""
    user = membership.user
    membership.delete()
    organiser_access_sync(user=user)


def organisers_group() -> Group:
    """Return the "Organisers" group (made by a migration; remade if someone deleted it)."""
    group, created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    if created:
        group.permissions.add(
            # The league's models (rounds, pairings...) moved to their own app, keeping their
            # permissions' codenames; the group holds both apps' rows.
            *Permission.objects.filter(
                content_type__app_label__in=("campaigns", "league"),
                codename__in=ORGANISER_PERMISSIONS,
            ),
            *Permission.objects.filter(
                content_type__app_label="notices", codename__in=WEBHOOK_PERMISSIONS
            ),
        )
    return group


@transaction.atomic
def organiser_access_sync(*, user: User) -> None:
    """Give an organiser the admin (staff, "Organisers" group); take the group back after.

    Staff status is only taken back from someone whose sole reason for it was organising:
    no superuser, no other group and no permission of their own.
    """
    group = organisers_group()
    organises = Membership.objects.filter(user_id=user.pk, role=Role.ORGANISER).exists()
    if organises:
        user.groups.add(group)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        return
    user.groups.remove(group)
    if user.is_staff and not _staff_for_another_reason(user):
        user.is_staff = False
        user.save(update_fields=["is_staff"])


def _staff_for_another_reason(user: User) -> bool:
    return bool(user.is_superuser or user.groups.exists() or user.user_permissions.exists())
