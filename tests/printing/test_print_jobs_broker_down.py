"""A print job asked for while the broker is down is saved and waits for the sweep."""

import pytest
from kombu.exceptions import OperationalError

from printing.models import PrintJob
from printing.services import print_job_request
from printing.tasks import print_job_run_task
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_job_requested_with_the_broker_down_stays_queued(
    monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(**kwargs):
        raise OperationalError("Error 111 connecting to redis")

    monkeypatch.setattr(print_job_run_task, "delay", broker_down)
    user = UserFactory()

    with django_capture_on_commit_callbacks(execute=True):
        job = print_job_request(kind=PrintJob.Kind.ROSTER, parameters={"force": 1}, user=user)

    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED
