"""Writes for printing: users' label stock and print jobs.

A print job is requested once per (kind, parameters, requester): the same request twice returns
the same job. The job is queued after the transaction commits, so the worker never looks for a
row that is not there yet; the worker claims it with a conditional UPDATE, so a job delivered
twice is rendered once.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from common.queueing import send_after_commit
from common.users import User
from printing.models import LabelPreset, LabelPrint, PrintJob

logger = logging.getLogger(__name__)
Status = PrintJob.Status


def print_job_key(*, kind: str, parameters: Mapping[str, Any], user_id: int) -> str:
    """Return the idempotency key: a hash of the kind, the canonical parameters and the owner."""
    canonical = json.dumps([kind, parameters, user_id], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@transaction.atomic
def print_job_request(*, kind: str, parameters: Mapping[str, Any], user: User) -> PrintJob:
    """Return the existing job for this request, or create and queue a new one.

    A failed job asked for again is queued again rather than answered with the old error.
    """
    key = print_job_key(kind=kind, parameters=parameters, user_id=user.pk)
    job, created = PrintJob.objects.get_or_create(
        idempotency_key=key,
        defaults={"kind": kind, "parameters": dict(parameters), "created_by": user},
    )
    if created or _requeue_failed(job):
        _queue_after_commit(job.pk)
    return job


def _requeue_failed(job: PrintJob) -> bool:
    updated = PrintJob.objects.filter(pk=job.pk, status=Status.FAILED).update(
        status=Status.QUEUED, error="", progress=0, pages_done=0
    )
    if updated:
        job.refresh_from_db()
    return bool(updated)


def _queue_after_commit(job_id: int) -> None:
    # A broker outage leaves the job QUEUED; the print-job sweep sends it once the broker is back.
    from printing.tasks import print_job_run_task

    send_after_commit(print_job_run_task, failure_event="print_job.queue_failed", job_id=job_id)


def print_job_claim(*, job_id: int) -> bool:
    """Move the job from QUEUED to RUNNING; False if someone else already has it."""
    claimed = PrintJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=timezone.now(), progress=0, pages_done=0
    )
    return claimed == 1


def print_job_progress(*, job_id: int, percent: int, pages: int) -> None:
    """Record how far the worker has got (percent of parts, pages rendered so far)."""
    PrintJob.objects.filter(pk=job_id, status=Status.RUNNING).update(
        progress=min(percent, 99), pages_done=pages
    )


def print_job_finish(*, job: PrintJob, pdf: bytes, filename: str, pages: int) -> None:
    """Store the PDF and mark the job done."""
    job.file.save(f"{job.pk}-{filename}", ContentFile(pdf), save=False)
    job.status, job.progress, job.pages_done = Status.DONE, 100, pages
    job.finished_at = timezone.now()
    job.save(update_fields=["file", "status", "progress", "pages_done", "finished_at"])


def print_job_fail(*, job_id: int, error: str) -> None:
    """Mark the job failed with a message the requester can read."""
    PrintJob.objects.filter(pk=job_id).update(
        status=Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def print_job_run(*, job_id: int) -> bool:
    """Claim and render one job; return False when it was not ours to run (already taken)."""
    from printing.jobs import render_job

    if not print_job_claim(job_id=job_id):
        return False
    job = PrintJob.objects.select_related("created_by").get(pk=job_id)
    try:
        document, pdf, pages = render_job(
            job,
            progress=lambda percent, done: print_job_progress(
                job_id=job_id, percent=percent, pages=done
            ),
        )
    except Exception as error:  # a failed render must not leave the job RUNNING forever
        logger.exception("print job %s failed", job_id)
        print_job_fail(job_id=job_id, error=f"{type(error).__name__}: {error}")
        return True
    with transaction.atomic():
        print_job_finish(job=job, pdf=pdf, filename=document.filename, pages=pages)
        label_prints_record(character_ids=document.labelled, user=job.created_by, job=job)
    return True


def label_prints_record(
    *, character_ids: Iterable[int], user: User, job: PrintJob | None = None
) -> int:
    """Record that these characters' base labels were printed; return how many were recorded."""
    rows = [LabelPrint(character_id=pk, printed_by=user, job=job) for pk in set(character_ids)]
    LabelPrint.objects.bulk_create(rows)
    return len(rows)


@dataclass(frozen=True)
class SweepResult:
    """What a sweep sent back to the queue."""

    queued: tuple[int, ...]  # QUEUED jobs no worker picked up
    stuck: tuple[int, ...]  # RUNNING jobs whose worker is taken to have died


def print_jobs_sweep(*, stale_after: timedelta, now: datetime | None = None) -> SweepResult:
    """Send again every job waiting or running for longer than `stale_after`.

    A QUEUED job older than that lost its message (a broker restart, a task sent before the
    commit that created it failed): sending it again is safe, since the worker claims with a
    conditional UPDATE. A RUNNING job started before the cutoff lost its worker: it goes back
    to QUEUED (only if it is still RUNNING from that same start) and is sent again.
    """
    cutoff = (now or timezone.now()) - stale_after
    queued = PrintJob.objects.filter(status=Status.QUEUED, created_at__lte=cutoff)
    waiting = tuple(queued.values_list("pk", flat=True))
    stuck = []
    for pk, started_at in PrintJob.objects.filter(
        status=Status.RUNNING, started_at__lte=cutoff
    ).values_list("pk", "started_at"):
        released = PrintJob.objects.filter(
            pk=pk, status=Status.RUNNING, started_at=started_at
        ).update(status=Status.QUEUED, progress=0, pages_done=0, started_at=None)
        if released:
            stuck.append(pk)
    for pk in (*waiting, *stuck):
        _queue_after_commit(pk)
    if waiting or stuck:
        logger.warning("print job sweep: re-sent queued %s, released stuck %s", waiting, stuck)
    return SweepResult(waiting, tuple(stuck))


@transaction.atomic
def label_preset_create(*, owner: User, **geometry: object) -> LabelPreset:
    """Store a user's own label stock after the same checks as the built-in presets."""
    preset = LabelPreset(owner=owner, **geometry)
    preset.full_clean()
    preset.save()
    return preset
