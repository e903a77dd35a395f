"""Celery tasks for backups: keyword ids in, one service call each."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from campaign_backup.services import restore_job_run, restore_jobs_sweep

DEFAULT_STALE_MINUTES = 15


# acks_late: a worker killed mid-restore leaves the message to be redelivered; the claim makes
# the redelivery harmless (campaign_backup.services). The time limits are wider than the
# project's (a big campaign is many rows); the soft one ends in FAILED with a message, before
# the hard one kills the process.
@shared_task(
    name="campaign_backup.restore_job_run", acks_late=True, soft_time_limit=900, time_limit=960
)
def restore_job_run_task(*, job_id: int, **kwargs: object) -> bool:
    """Restore a queued backup as a copy (a no-op if another worker has it or it is done)."""
    return restore_job_run(job_id=job_id)


def stale_minutes() -> int:
    return int(getattr(settings, "RESTORE_JOBS_STALE_MINUTES", DEFAULT_STALE_MINUTES))


@shared_task(name="campaign_backup.sweep_restore_jobs")
def sweep_restore_jobs_task(**kwargs: object) -> list[int]:
    """Send again restore jobs waiting or running for longer than the stale time."""
    return restore_jobs_sweep(stale_after=timedelta(minutes=stale_minutes()))
