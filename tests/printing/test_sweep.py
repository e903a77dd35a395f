"""The print-job sweep: lost QUEUED jobs are sent again, RUNNING jobs of dead workers released."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from printing.models import PrintJob
from printing.services import print_jobs_sweep
from printing.tasks import sweep_print_jobs_task
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
Status = PrintJob.Status


def _job(key: str, status: str, age_minutes: int) -> PrintJob:
    job = PrintJob.objects.create(
        kind=PrintJob.Kind.ROSTER, idempotency_key=key * 64, created_by=UserFactory(), status=status
    )
    then = timezone.now() - timedelta(minutes=age_minutes)
    started = then if status == Status.RUNNING else None
    PrintJob.objects.filter(pk=job.pk).update(created_at=then, started_at=started, progress=40)
    return job


@pytest.fixture
def sent(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr("printing.services._queue_after_commit", calls.append)
    return calls


def test_old_queued_and_stuck_running_jobs_are_sent_again(sent):
    lost, stuck = _job("a", Status.QUEUED, 30), _job("b", Status.RUNNING, 30)

    result = print_jobs_sweep(stale_after=timedelta(minutes=15))

    assert result.queued == (lost.pk,) and result.stuck == (stuck.pk,)
    assert sorted(sent) == sorted([lost.pk, stuck.pk])
    stuck.refresh_from_db()
    assert stuck.status == Status.QUEUED and stuck.progress == 0 and stuck.started_at is None


def test_fresh_jobs_and_finished_ones_are_left_alone(sent):
    _job("a", Status.QUEUED, 2)
    _job("b", Status.RUNNING, 2)
    _job("c", Status.DONE, 60)
    _job("d", Status.FAILED, 60)

    result = print_jobs_sweep(stale_after=timedelta(minutes=15))

    assert result.queued == () and result.stuck == () and sent == []


def test_a_job_a_worker_restarted_meanwhile_is_not_released(sent):
    stuck = _job("a", Status.RUNNING, 30)
    seen_at = timezone.now()
    # The worker claimed it afresh between the sweep's read and its update: a new started_at.
    PrintJob.objects.filter(pk=stuck.pk).update(started_at=seen_at)

    result = print_jobs_sweep(stale_after=timedelta(minutes=15))

    assert result.stuck == ()
    assert PrintJob.objects.get(pk=stuck.pk).status == Status.RUNNING


def test_the_command_and_the_celery_task_sweep_alike(sent, capsys):
    _job("a", Status.QUEUED, 30)

    call_command("sweep_print_jobs", "--minutes", "10")
    swept = sweep_print_jobs_task.run()

    assert "re-sent 1 queued and 0 stuck" in capsys.readouterr().out
    assert swept == {"queued": [PrintJob.objects.get().pk], "stuck": []}
    assert sweep_print_jobs_task.name == "printing.sweep_print_jobs"
