"""Celery tasks for printing: each takes keyword ids and makes one call into a service."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from printing.services import print_job_run


@shared_task(name="printing.print_job_run")
def print_job_run_task(*, job_id: int, **kwargs: Any) -> bool:
    """Render a queued print job (a no-op if another worker already claimed it)."""
    return print_job_run(job_id=job_id)
