"""Tasks are sent after commit, and a broker outage is logged rather than raised."""

import logging

import pytest
from kombu.exceptions import OperationalError

from common.queueing import send_after_commit, send_now


class FakeTask:
    def __init__(self, error=None):
        self.sent = []
        self.error = error

    def delay(self, **kwargs):
        if self.error:
            raise self.error
        self.sent.append(kwargs)


@pytest.mark.django_db
def test_the_task_is_sent_only_when_the_transaction_commits(django_capture_on_commit_callbacks):
    task = FakeTask()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        send_after_commit(task, failure_event="x.queue_failed", job_id=7)
        assert task.sent == []
    for callback in callbacks:
        callback()

    assert task.sent == [{"job_id": 7}]


def test_a_broker_outage_is_logged_and_not_raised(caplog):
    task = FakeTask(error=OperationalError("connection refused"))

    with caplog.at_level(logging.WARNING, logger="muster.queueing"):
        send_now(task, failure_event="print_job.queue_failed", job_id=3)

    assert [r.getMessage() for r in caplog.records] == ["print_job.queue_failed"]
    assert caplog.records[0].job_id == 3


def test_errors_other_than_the_broker_still_raise():
    with pytest.raises(ValueError):
        send_now(FakeTask(error=ValueError("bug")), failure_event="x", job_id=1)
