"""The request that causes an event never waits for a webhook's receiver.

With a worker (eager off) the request only queues the delivery task after its commit; on the
embedded defaults (eager tasks) the delivery runs on a background thread after the commit, so
the response comes back while the receiver is still holding the request open.
"""

from __future__ import annotations

import threading
import time
from unittest import mock

import pytest
from django.urls import reverse

from league import services
from league.models import Pairing
from notices.models import Delivery, DeliveryStatus, HookFormat, Webhook
from tests.league.league_helpers import make_league


def game_with_hook(receiver):
    campaign, _olivia, players = make_league(["alice", "bob"])
    Webhook.objects.create(
        campaign=campaign,
        name="Club chat",
        url=receiver.url,
        format=HookFormat.JSON,
        events=["result_reported"],
    )
    services.swiss_round_generate(campaign=campaign)
    return Pairing.objects.get(round__campaign=campaign), players


def report_as(client, player, pairing):
    client.force_login(player.user)
    url = reverse("pairing-report", args=[pairing.pk])
    return client.post(url, {"result": "me", "my_vp": 7, "their_vp": 3})


@pytest.mark.django_db
def test_with_a_worker_the_request_only_queues_the_delivery_after_its_commit(
    client, receiver, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    pairing, players = game_with_hook(receiver)
    with mock.patch("notices.tasks.deliver_to_hook.delay") as queued:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = report_as(client, players["alice"], pairing)
        assert response.status_code == 302
        assert not queued.called  # nothing left during the request's transaction
        assert callbacks, "the delivery was not left for after the commit"
        for callback in callbacks:
            callback()
    row = Delivery.objects.get(event__kind="result_reported")
    queued.assert_called_once_with(delivery_id=row.pk)
    assert receiver.requests == []
    assert row.status == DeliveryStatus.PENDING


@pytest.mark.django_db(transaction=True)
def test_with_eager_tasks_the_response_comes_back_while_the_receiver_still_holds(
    client, receiver, settings
):
    settings.NOTIFY_EAGER_IN_BACKGROUND = True
    settings.NOTIFY_TIMEOUT_SECONDS = 10.0
    receiver.hold = True
    pairing, players = game_with_hook(receiver)
    started = time.monotonic()
    response = report_as(client, players["alice"], pairing)
    answered_in = time.monotonic() - started
    assert response.status_code == 302
    assert receiver.arrived.wait(timeout=5), "the delivery never reached the receiver"
    assert not receiver.release.is_set()  # the receiver is still holding the delivery
    assert answered_in < 5
    receiver.release.set()
    for thread in threading.enumerate():
        if thread.name == "muster-notify":
            thread.join(timeout=10)  # the test's SQLite is shared: read after the writer ends
    row = Delivery.objects.get(event__kind="result_reported")
    assert row.status == DeliveryStatus.DELIVERED
    assert len(receiver.requests) == 1


@pytest.mark.django_db
def test_a_receiver_slower_than_the_time_limit_is_cut_off_and_retried_later(receiver, settings):
    from notices.delivery import deliver

    settings.NOTIFY_TIMEOUT_SECONDS = 0.5
    receiver.hold = True
    pairing, players = game_with_hook(receiver)
    services.pairing_report(
        pairing=pairing, user=players["bob"].user, claim=services.claim_from({"winner": "HOME"})
    )
    row = Delivery.objects.get(event__kind="result_reported")
    started = time.monotonic()
    outcome = deliver(delivery_id=row.pk)
    assert time.monotonic() - started < 3
    assert outcome.retry_in == 30
    row.refresh_from_db()
    assert row.status == DeliveryStatus.PENDING
    assert row.last_error == "could not deliver to the receiver"
