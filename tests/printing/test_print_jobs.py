"""Print jobs: the same request twice is one job; a job delivered twice is rendered once."""

from __future__ import annotations

import pytest

from printing.jobs import render_job
from printing.models import PrintJob
from printing.services import print_job_key, print_job_request, print_job_run
from printing.tasks import print_job_run_task

pytestmark = pytest.mark.django_db

STICKERS = {
    "preset": "A4-12MM",
    "start": 1,
    "calibration_x": 0.0,
    "calibration_y": 0.0,
    "guides": False,
    "colour": True,
    "counts": {"MW": 120, "SW": 60, "CW": 30},
}


def test_the_same_request_twice_is_one_job(story):
    first = print_job_request(kind="STICKERS", parameters=STICKERS, user=story.alice)
    second = print_job_request(kind="STICKERS", parameters=dict(STICKERS), user=story.alice)

    assert first.pk == second.pk
    assert PrintJob.objects.count() == 1


def test_the_key_depends_on_the_kind_the_parameters_and_the_requester(story):
    key = print_job_key(kind="STICKERS", parameters=STICKERS, user_id=story.alice.pk)

    assert key != print_job_key(kind="LABELS", parameters=STICKERS, user_id=story.alice.pk)
    assert key != print_job_key(
        kind="STICKERS", parameters={**STICKERS, "start": 2}, user_id=story.alice.pk
    )
    assert key != print_job_key(kind="STICKERS", parameters=STICKERS, user_id=story.bob.pk)


def test_a_job_is_queued_only_after_the_request_commits(story, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = print_job_request(kind="STICKERS", parameters=STICKERS, user=story.alice)

    job.refresh_from_db()
    assert len(callbacks) == 1 and job.status == PrintJob.Status.QUEUED


def test_a_job_run_twice_is_rendered_once(story):
    job = PrintJob.objects.create(
        kind="STICKERS", parameters=STICKERS, idempotency_key="a", created_by=story.alice
    )

    first = print_job_run_task(job_id=job.pk)
    job.refresh_from_db()
    file_name, finished = job.file.name, job.finished_at
    second = print_job_run_task(job_id=job.pk)
    job.refresh_from_db()

    assert (first, second) == (True, False)
    assert job.status == PrintJob.Status.DONE and job.progress == 100 and job.pages_done == 1
    assert (job.file.name, job.finished_at) == (file_name, finished)
    assert job.file.read().startswith(b"%PDF")


def test_a_job_another_worker_holds_is_left_alone(story):
    job = PrintJob.objects.create(
        kind="STICKERS",
        parameters=STICKERS,
        idempotency_key="b",
        created_by=story.alice,
        status=PrintJob.Status.RUNNING,
    )

    assert print_job_run(job_id=job.pk) is False
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not job.file


def test_a_render_that_fails_marks_the_job_failed_with_the_reason(story):
    job = PrintJob.objects.create(
        kind="STICKERS",
        parameters={**STICKERS, "preset": "OL9999"},
        idempotency_key="c",
        created_by=story.alice,
    )

    print_job_run(job_id=job.pk)
    job.refresh_from_db()

    assert job.status == PrintJob.Status.FAILED and "OL9999" in job.error


def test_a_failed_job_asked_for_again_is_queued_again(story, django_capture_on_commit_callbacks):
    job = print_job_request(kind="STICKERS", parameters=STICKERS, user=story.alice)
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error="disk full")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        again = print_job_request(kind="STICKERS", parameters=STICKERS, user=story.alice)

    assert again.pk == job.pk and again.status == PrintJob.Status.QUEUED and again.error == ""
    assert len(callbacks) == 1


def test_a_big_label_job_reports_its_progress_part_by_part(story):
    params = {**STICKERS, "start": 200, "counts": {"MW": 600}}
    job = PrintJob.objects.create(
        kind="STICKERS", parameters=params, idempotency_key="d", created_by=story.alice
    )
    reported = []

    document, pdf, pages = render_job(job, lambda percent, done: reported.append((percent, done)))

    # 35 stickers finish the first sheet from label 200, then 234 a sheet, two sheets a part.
    assert reported == [(50, 2), (100, 4)]
    assert (pages, document.filename) == (4, "wound-stickers.pdf") and pdf.startswith(b"%PDF")
