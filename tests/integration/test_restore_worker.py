"""Restore jobs on PostgreSQL and Redis with real worker processes: a backup uploaded in the
admin is restored by a worker while its progress shows (and the copy does not, until it is
whole), a duplicate delivery to a second worker does nothing, and a worker SIGKILLed half way
leaves nothing behind and the sweep's rescuer makes exactly one copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from campaign_backup.models import RestoreJob, RestoreProgress
from campaign_backup.tasks import restore_job_run_task
from campaigns.models import Campaign
from league.models import PairingReport
from tests.integration.conftest import wait_for
from tests.ops.test_backup_from_the_admin import backup_of, played_league, restore

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
SECONDS = 30


def _uploaded() -> RestoreJob:
    """olivia downloads her league's backup and restores it as a copy, from the admin."""
    campaign, olivia = played_league()
    client = Client()
    client.force_login(olivia)
    answer = restore(client, campaign, backup_of(client, campaign))
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    return RestoreJob.objects.get()


def _status(job: RestoreJob) -> str:
    return RestoreJob.objects.get(pk=job.pk).status


def _progress(job: RestoreJob) -> RestoreProgress:
    return RestoreProgress.objects.get(job_id=job.pk)


def _copies() -> int:
    return Campaign.objects.filter(slug="winter-copy").count()


def _half_way(job: RestoreJob) -> None:
    wait_for(lambda: _progress(job).rows_done > 1, SECONDS, "the restore to report progress")


def _done(job: RestoreJob) -> None:
    wait_for(lambda: _status(job) == RestoreJob.Status.DONE, SECONDS, "the restore to finish")


def test_a_worker_restores_the_upload_and_its_progress_shows_before_the_copy_does(
    start_worker: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSTER_RESTORE_PAUSE_PER_STEP", "0.4")
    start_worker()
    job = _uploaded()

    _half_way(job)
    seen = _progress(job)
    assert _status(job) == RestoreJob.Status.RUNNING
    assert 0 < seen.rows_done < seen.rows_total
    assert _copies() == 0  # one transaction: the copy appears whole or not at all
    _done(job)

    job.refresh_from_db()
    assert _copies() == 1 and job.attempts == 1
    assert PairingReport.objects.filter(pairing__round__campaign=job.restored).count() == 1
    assert _progress(job).rows_done == seen.rows_total


def test_a_duplicate_delivery_to_a_second_worker_makes_no_second_copy(
    start_worker: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSTER_RESTORE_PAUSE_PER_STEP", "0.4")
    start_worker("first")
    start_worker("second")
    job = _uploaded()
    _half_way(job)

    restore_job_run_task.delay(job_id=job.pk)  # the same job again, while the first runs
    _done(job)

    job.refresh_from_db()
    assert _copies() == 1 and job.attempts == 1


def test_a_worker_killed_half_way_leaves_nothing_and_the_sweep_makes_one_copy(
    start_worker: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSTER_RESTORE_PAUSE_PER_STEP", "5")
    doomed = start_worker("doomed")
    job = _uploaded()
    _half_way(job)

    doomed.kill()

    assert _status(job) == RestoreJob.Status.RUNNING
    assert _copies() == 0
    monkeypatch.setenv("MUSTER_RESTORE_PAUSE_PER_STEP", "0")
    start_worker("rescuer")
    call_command("sweep_restore_jobs", "--minutes", "0")
    _done(job)

    job.refresh_from_db()
    assert _copies() == 1 and job.attempts == 2
