"""Printing answers the league's desk: which print jobs failed for an organiser's campaigns."""

from __future__ import annotations

from django.db.models import F, Q

from printing.models import PrintJob, PrintJobStatus


def failed_print_jobs(campaign_ids: list[int]) -> list[PrintJob]:
    """Return failed print jobs for the campaigns: their own documents or their members'."""
    rows = (
        PrintJob.objects.filter(status=PrintJobStatus.FAILED)
        .filter(
            Q(parameters__campaign__in=campaign_ids)
            | Q(created_by__memberships__campaign_id__in=campaign_ids)
        )
        .select_related("created_by")
        .annotate(member_of=F("created_by__memberships__campaign_id"))
        .order_by("-created_at", "pk")
    )
    found: dict[tuple[int, int], PrintJob] = {}
    for row in rows:
        campaign_id = (row.parameters or {}).get("campaign") or row.member_of
        if campaign_id in campaign_ids:
            row.campaign_id = campaign_id  # type: ignore[attr-defined]  # a per-row attribute the desk template reads
            found.setdefault((campaign_id, row.pk), row)
    return list(found.values())


def failed_jobs_for_the_desk(
    sender: object, *, campaign_ids: list[int], **kwargs: object
) -> tuple[str, list[PrintJob]]:
    """Answer the organiser's desk (league.signals.desk_attention) with the failed jobs."""
    return "failed_jobs", failed_print_jobs(campaign_ids)
