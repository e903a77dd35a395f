"""Celery tasks for printing: each takes keyword ids and makes one call into a service."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from printing.services import print_job_run, print_jobs_sweep

# How long a job may wait or run before the sweep sends it again (settings may override).
DEFAULT_STALE_MINUTES = 15


@shared_task(name="printing.print_job_run")
def print_job_run_task(*, job_id: int, **kwargs: object) -> bool:
    """Render a queued print job (a no-op if another worker already claimed it)."""
    return print_job_run(job_id=job_id)


def stale_minutes() -> int:
    return int(getattr(settings, "PRINT_JOBS_STALE_MINUTES", DEFAULT_STALE_MINUTES))


@shared_task(name="printing.sweep_print_jobs")
def sweep_print_jobs_task(**kwargs: object) -> dict[str, list[int]]:
    """Re-send print jobs never picked up, and release those whose worker died."""
    result = print_jobs_sweep(stale_after=timedelta(minutes=stale_minutes()))
    return {"queued": list(result.queued), "stuck": list(result.stuck)}
