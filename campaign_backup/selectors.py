"""Who may restore where, and which restore jobs a user may follow."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from campaign_backup.models import RestoreJob
from campaigns.models import Campaign, Club
from campaigns.selectors import campaigns_managed_by, clubs_administered_by
from common.users import Visitor


def restore_clubs(user: Visitor, campaign: Campaign) -> QuerySet[Club]:
    """Return the clubs a copy of `campaign` may go into: its own club (the user runs the
    campaign) and every club the user administers; a superuser's, any club."""
    if user.is_superuser:
        return Club.objects.order_by("name")
    administered = clubs_administered_by(user).values("pk")
    return Club.objects.filter(Q(pk=campaign.club_id) | Q(pk__in=administered)).order_by("name")


def restore_jobs_visible_to(user: Visitor) -> QuerySet[RestoreJob]:
    """Return the restore jobs a user may follow: those into a club they administer, and those
    into the club of a campaign they run, asked from that campaign's page (as `restore_clubs`
    allows); a superuser sees every job."""
    jobs = RestoreJob.objects.select_related("club", "source", "restored", "created_by")
    if user.is_superuser:
        return jobs
    if not (user.is_authenticated and user.is_staff):
        return jobs.none()
    administered = clubs_administered_by(user).values("pk")
    runs = campaigns_managed_by(user).values("pk")
    return jobs.filter(Q(club__in=administered) | Q(source__in=runs, club=F("source__club")))
