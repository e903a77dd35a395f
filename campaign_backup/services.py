"""Restore jobs: a checked backup is stored, queued after commit, and restored by the worker.

Exactly one copy per job, by construction:
- the same upload sent twice (a double submit) finds the same job (`idempotency_key` is
  unique), and at most one live job may aim at a club's slug (a partial unique constraint);
- the worker claims the job under a row lock taken with SKIP LOCKED: a job another worker holds
  is skipped, a DONE or FAILED one is left alone;
- the restore and the flip to DONE are ONE transaction that holds the job row locked from start
  to end. A worker killed half way rolls all of it back and drops its lock, so the redelivered
  message (the task is acks_late) or the sweep finds the job RUNNING and *unlocked* and starts
  it again; a duplicate delivered while the first runs finds it locked and does nothing;
- should two attempts still overlap, Campaign's unique (club, slug) lets only one commit.

Progress: one transaction for the whole restore (rather than restoring in chunks, each
committed) because a half-restored campaign must never be seen, rated or left behind by a
failure, and rolling a partial copy back by deleting it would fight the history that may not be
deleted. The price is that the restore's own writes are invisible until it commits, so progress
is written on a second database connection, committed at once, into `RestoreProgress` (not the
job row, which the restore holds locked). SQLite has one writer at a time: a second connection
would wait for the very restore it reports on, so there the steps are not written mid-way (the
embedded default runs tasks inline, within the request, where no page polls anyway).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F
from django.db.models.sql import UpdateQuery
from django.db.models.sql.constants import CURSOR
from django.utils import timezone

from campaign_backup.campaign import campaign_import, restore_checked
from campaign_backup.models import LIVE, RestoreJob, RestoreProgress
from campaigns.models import Campaign, Club
from common.json_types import JSON
from common.queueing import send_after_commit
from common.users import User

logger = logging.getLogger("muster.backups")
Status = RestoreJob.Status


class RestoreRefused(ValidationError):
    """A restore that cannot be queued (a live job already aims at the slug), in words."""


def restore_job_key(*, club: Club, name: str, slug: str, document: JSON) -> str:
    """Return the job's idempotency key: a hash of the target, the copy's name and the file."""
    canonical = json.dumps([club.pk, name, slug, document], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@transaction.atomic
def restore_job_request(
    *,
    document: JSON,
    club: Club,
    name: str,
    slug: str,
    user: User,
    source: Campaign | None = None,
    filename: str = "",
) -> RestoreJob:
    """Check the backup, store it as a job and queue it after commit; the same request twice
    returns the same job (a failed one is queued again). Raise ValidationError, naming the
    problem, for a backup that cannot be restored there; nothing is stored then."""
    key = restore_job_key(club=club, name=name, slug=slug, document=document)
    job = RestoreJob.objects.filter(idempotency_key=key).first()
    if job is not None and not _again(job):
        return job  # a double submit: the job already queued, running or done (its copy made)
    restore_checked(document=document, club_slug=club.slug, name=name, slug=slug)
    live = RestoreJob.objects.filter(club=club, slug=slug, status__in=LIVE).first()
    if live is not None:
        raise RestoreRefused(
            f"slug: restore #{live.pk} is already putting a campaign {slug!r} into this club; "
            "wait for it, or pick another slug"
        )
    fields = {"source": source, "name": name, "slug": slug, "filename": filename[:255]}
    job = _stored(job, key, club, user, {**fields, "document": document})
    _queue_after_commit(job.pk)
    return job


def _again(job: RestoreJob) -> bool:
    """Say whether a job asked for again is run again: it failed, or its copy was deleted."""
    return job.status == Status.FAILED or (job.status == Status.DONE and job.restored_id is None)


def _stored(
    job: RestoreJob | None, key: str, club: Club, user: User, fields: dict[str, object]
) -> RestoreJob:
    """Create the job (or set a finished one going again), with its progress row."""
    try:
        with transaction.atomic():  # a savepoint: a request racing this one may win
            if job is None:
                job = RestoreJob.objects.create(
                    idempotency_key=key, club=club, created_by=user, **fields
                )
            else:
                again = {"status": Status.QUEUED, "error": "", "finished_at": None, "attempts": 0}
                RestoreJob.objects.filter(pk=job.pk).update(**again, **fields)
                job.refresh_from_db()
    except IntegrityError:
        raced = RestoreJob.objects.filter(idempotency_key=key).first()
        if raced is None:
            raise RestoreRefused(
                f"slug: a restore into this club as {fields['slug']!r} was just queued"
            ) from None
        return raced
    RestoreProgress.objects.update_or_create(
        job=job, defaults={"step": "Waiting for a worker", "rows_done": 0, "rows_total": 0}
    )
    return job


def _queue_after_commit(job_id: int) -> None:
    # A broker outage leaves the job QUEUED; `sweep_restore_jobs` sends it once the broker is back.
    from campaign_backup.tasks import restore_job_run_task

    send_after_commit(restore_job_run_task, failure_event="restore_job.queue_failed", job_id=job_id)


# --- the worker's side ---------------------------------------------------------------------


def restore_job_claim(*, job_id: int) -> bool:
    """Mark a live job RUNNING for a new attempt; False if it is finished, or a live worker
    holds it (its row is locked: SKIP LOCKED passes it by instead of waiting)."""
    with transaction.atomic():
        job = (
            RestoreJob.objects.select_for_update(skip_locked=True)
            .filter(pk=job_id, status__in=LIVE)
            .first()
        )
        if job is None:
            return False
        now = timezone.now()
        RestoreJob.objects.filter(pk=job_id).update(
            status=Status.RUNNING, attempts=F("attempts") + 1
        )
        RestoreProgress.objects.update_or_create(
            job_id=job_id,
            defaults={"step": "Starting", "rows_done": 0, "started_at": now, "updated_at": now},
        )
    return True


def restore_job_run(*, job_id: int) -> bool:
    """Claim and restore one job; return False when it was not ours to run."""
    if not restore_job_claim(job_id=job_id):
        return False
    writer = ProgressWriter(job_id)
    try:
        return _restore_locked(job_id, writer)
    except ValidationError as refusal:  # the club took the slug meanwhile, say
        restore_job_fail(job_id=job_id, error="; ".join(refusal.messages))
    except Exception as error:  # a failed restore must not stay RUNNING for ever
        logger.exception("restore job %s failed", job_id)
        reason = f"{type(error).__name__}: {error}"
        restore_job_fail(job_id=job_id, error=f"the restore stopped: {reason[:300]}")
    finally:
        writer.close()
    return True


@transaction.atomic
def _restore_locked(job_id: int, writer: ProgressWriter) -> bool:
    job = (
        RestoreJob.objects.select_for_update(skip_locked=True)
        .select_related("club")
        .filter(pk=job_id, status=Status.RUNNING)
        .first()
    )
    if job is None:
        return False  # another attempt has it (locked) or finished it since our claim
    campaign = campaign_import(
        document=job.document,
        club_slug=job.club.slug,
        name=job.name,
        slug=job.slug,
        progress=writer,
    )
    now = timezone.now()
    # The progress row last, after every write of the writer's connection (it would wait now).
    RestoreProgress.objects.filter(job_id=job_id).update(
        step="Done", rows_done=writer.total, rows_total=writer.total, updated_at=now
    )
    job.status, job.restored, job.document, job.finished_at = Status.DONE, campaign, None, now
    job.save(update_fields=["status", "restored", "document", "finished_at"])
    logger.info("restore_job.done", extra={"job": job_id, "campaign": campaign.pk})
    return True


def restore_job_fail(*, job_id: int, error: str) -> None:
    """Mark a running job failed with a message its requester can read."""
    RestoreJob.objects.filter(pk=job_id, status=Status.RUNNING).update(
        status=Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )
    RestoreProgress.objects.filter(job_id=job_id).update(
        step="Failed: nothing was written", updated_at=timezone.now()
    )


def _pause_per_step() -> None:
    # Test-only: lets the integration tests watch a restore half way, and SIGKILL its worker.
    pause = float(getattr(settings, "RESTORE_PAUSE_PER_STEP", 0) or 0)
    if pause:
        time.sleep(pause)


class ProgressWriter:
    """Record a job's progress where the job page can read it while the restore still runs:
    on a database connection of its own, each step committed at once (see the module doc)."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.total = 0
        self.side: BaseDatabaseWrapper | None = None
        if connection.vendor == "postgresql":
            self.side = connections.create_connection(DEFAULT_DB_ALIAS)

    def __call__(self, step: str, done: int, total: int) -> None:
        self.total = total
        _pause_per_step()
        if self.side is None:
            return
        values = {"step": step[:120], "rows_done": done, "rows_total": total}
        query = RestoreProgress.objects.filter(job_id=self.job_id).query.chain(UpdateQuery)
        if not isinstance(query, UpdateQuery):  # chain(klass) hands back a klass
            raise TypeError(f"expected an UpdateQuery, got {type(query).__name__}")
        query.add_update_values({**values, "updated_at": timezone.now()})
        try:
            query.get_compiler(connection=self.side).execute_sql(CURSOR)
        except DatabaseError:  # progress is for show: it must never stop the restore
            logger.warning("restore_job.progress_failed", extra={"job": self.job_id})

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


def restore_jobs_sweep(*, stale_after: timedelta, now: datetime | None = None) -> list[int]:
    """Send again every live job older than `stale_after`: a QUEUED one lost its message (the
    broker was down), a RUNNING one may have lost its worker. Sending a job twice is safe (the
    claim skips a job a live worker holds), so the sweep need not tell them apart."""
    cutoff = (now or timezone.now()) - stale_after
    stale = RestoreJob.objects.filter(status__in=LIVE, created_at__lte=cutoff)
    ids = list(stale.order_by("pk").values_list("pk", flat=True))
    for pk in ids:
        _queue_after_commit(pk)
    if ids:
        logger.warning("restore_job.sweep", extra={"jobs": ids})
    return ids
