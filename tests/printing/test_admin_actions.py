"""Admin: print actions on the force admin, and queueing failed print jobs again."""

from __future__ import annotations

import pytest
from django.contrib import admin

from printing.models import LabelPrint, PrintJob
from rosters.models import Force
from tests.factories import UserFactory
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/rosters/force/"
JOBS = "/admin/printing/printjob/"


@pytest.fixture
def staff(client):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    return client, root


def _act(client, url, action, pks):
    return client.post(url, {"action": action, "_selected_action": [str(pk) for pk in pks]})


def test_the_force_admin_offers_printings_actions():
    actions = admin.site.get_model_admin(Force).actions

    names = {getattr(a, "__name__", a) for a in actions}
    assert {"print_labels", "print_cards", "print_roster", "export_json"} <= names


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("print_labels", "Sgt. Gridley"),
        ("print_cards", "Wound points"),
        ("print_roster", "Gridley's Company"),
    ],
)
def test_printing_selected_forces_answers_one_pdf(staff, story, action, expected):
    client, _ = staff

    response = _act(client, CHANGELIST, action, [story.force.pk])

    assert response["Content-Type"] == "application/pdf"
    text = " ".join(page_text(p) for p in open_pdf(response.content).pages)
    assert "Sgt. Gridley" in text and expected.lower() in text.lower()


def test_labels_printed_from_the_admin_are_recorded(staff, story):
    client, root = staff

    _act(client, CHANGELIST, "print_labels", [story.force.pk])

    assert LabelPrint.objects.get().character == story.character
    assert LabelPrint.objects.get().printed_by == root


def test_a_big_admin_print_becomes_print_jobs(staff, story, monkeypatch):
    monkeypatch.setattr("printing.admin.ADMIN_JOB_THRESHOLD", 0)
    client, _ = staff

    response = _act(client, CHANGELIST, "print_cards", [story.force.pk])

    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.kind == PrintJob.Kind.CARDS and job.parameters["force"] == story.force.pk


def test_retry_failed_queues_failed_jobs_again_and_leaves_the_others(staff, story):
    client, root = staff
    failed = PrintJob.objects.create(
        kind=PrintJob.Kind.ROSTER,
        idempotency_key="a" * 64,
        parameters={"force": story.force.pk},
        created_by=root,
        status=PrintJob.Status.FAILED,
        error="boom",
    )
    done = PrintJob.objects.create(
        kind=PrintJob.Kind.ROSTER,
        idempotency_key="b" * 64,
        parameters={"force": story.force.pk, "v": 2},
        created_by=root,
        status=PrintJob.Status.DONE,
        progress=100,
    )
    from printing.services import print_job_key

    # The failed job's key must be the one its parameters hash to, as for a real request.
    PrintJob.objects.filter(pk=failed.pk).update(
        idempotency_key=print_job_key(
            kind=failed.kind, parameters=failed.parameters, user_id=root.pk
        )
    )

    _act(client, JOBS, "retry_failed", [failed.pk, done.pk])

    failed.refresh_from_db()
    done.refresh_from_db()
    assert failed.status == PrintJob.Status.QUEUED and failed.error == ""
    assert done.status == PrintJob.Status.DONE
    assert PrintJob.objects.count() == 2  # queued again in place, not a copy
