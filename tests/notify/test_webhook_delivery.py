"""Webhook deliveries against a real HTTP receiver on 127.0.0.1: once per event and hook,
through task retries, duplicate tasks and a receiver that fails before it succeeds."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from league import services
from league.models import Pairing
from notices import delivery as sending
from notices.models import Delivery, DeliveryStatus, Event, HookFormat, Webhook
from notices.services import event_record
from notices.tasks import deliver_to_hook
from tests.league.league_helpers import make_league, settle

pytestmark = pytest.mark.usefixtures("inline_delivery")


def confirmed_game(receiver, *, format=HookFormat.JSON, events=("result_confirmed",)):
    """alice and bob's game confirmed by olivia, with one hook listening; return the delivery."""
    campaign, olivia, _players = make_league(["alice", "bob"])
    hook = Webhook.objects.create(
        campaign=campaign, name="Club chat", url=receiver.url, format=format, events=list(events)
    )
    services.swiss_round_generate(campaign=campaign)
    settle(Pairing.objects.get(round__campaign=campaign), olivia, winner="HOME", home_vp=9)
    return Delivery.objects.get(webhook=hook, event__kind="result_confirmed")


@pytest.mark.django_db
def test_a_confirmed_result_reaches_the_hook_once_when_the_task_runs_twice(receiver):
    row = confirmed_game(receiver)
    assert deliver_to_hook.apply(kwargs={"delivery_id": row.pk}).get() is True
    assert deliver_to_hook.apply(kwargs={"delivery_id": row.pk}).get() is False
    assert len(receiver.requests) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts, row.response_status) == (DeliveryStatus.DELIVERED, 1, 204)


@pytest.mark.django_db
def test_a_receiver_failing_twice_then_succeeding_gets_the_event_on_the_third_try(receiver):
    receiver.fail_first = 2
    row = confirmed_game(receiver)
    # Eager Celery runs each self.retry() at once; a worker would wait 30 s, then 60 s.
    assert deliver_to_hook.apply(kwargs={"delivery_id": row.pk}).get() is True
    assert len(receiver.requests) == 3
    assert {r.headers["X-Muster-Delivery"] for r in receiver.requests} == {str(row.pk)}
    row.refresh_from_db()
    hook = row.webhook
    assert (row.status, row.attempts) == (DeliveryStatus.DELIVERED, 3)
    assert hook.failures_in_row == 0 and hook.active and hook.last_success_at is not None


@pytest.mark.django_db
def test_each_failure_asks_for_a_retry_with_a_longer_wait(receiver):
    receiver.fail_first = 2
    row = confirmed_game(receiver)
    outcomes = [sending.deliver(delivery_id=row.pk) for _ in range(3)]
    assert [o.retry_in for o in outcomes] == [30, 60, None]
    assert [o.delivered for o in outcomes] == [False, False, True]
    row.webhook.refresh_from_db()
    assert row.webhook.last_error == "the receiver answered 500 Internal Server Error"


@pytest.mark.django_db
def test_a_delivery_another_worker_is_sending_is_left_alone(receiver):
    row = confirmed_game(receiver)
    Delivery.objects.filter(pk=row.pk).update(status=DeliveryStatus.SENDING, claim="other")
    assert sending.deliver(delivery_id=row.pk).delivered is False
    assert receiver.requests == []


@pytest.mark.django_db
def test_the_same_event_written_twice_is_one_event_with_one_delivery_per_hook(receiver):
    row = confirmed_game(receiver)
    again = event_record(
        campaign=row.event.campaign,
        kind=row.event.kind,
        key=row.event.key,
        title="again",
        text="again",
        data={},
    )
    assert again is None
    assert Event.objects.filter(key=row.event.key).count() == 1
    assert Delivery.objects.filter(event=row.event).count() == 1


@pytest.mark.django_db
def test_the_signature_verifies_with_the_hooks_secret_and_not_with_a_changed_body(receiver):
    row = confirmed_game(receiver)
    sending.deliver(delivery_id=row.pk)
    received = receiver.requests[0]
    expected = hmac.new(row.webhook.secret.encode(), received.body, hashlib.sha256).hexdigest()
    assert received.headers["X-Muster-Signature"] == f"sha256={expected}"
    tampered = hmac.new(row.webhook.secret.encode(), received.body + b" ", hashlib.sha256)
    assert received.headers["X-Muster-Signature"] != f"sha256={tampered.hexdigest()}"
    payload = json.loads(received.body)
    assert payload["event"] == "result_confirmed"
    assert payload["data"]["winner"] == "HOME"
    assert "olivia confirmed a result." in payload["text"]


@pytest.mark.django_db
def test_a_discord_hook_gets_content_and_an_embed_in_words(receiver):
    row = confirmed_game(receiver, format=HookFormat.DISCORD)
    sending.deliver(delivery_id=row.pk)
    payload = json.loads(receiver.requests[0].body)
    assert set(payload) == {"content", "embeds", "allowed_mentions"}
    assert payload["embeds"][0]["description"].endswith("9 to 0 victory points.")


@pytest.mark.django_db
def test_a_hook_failing_again_and_again_is_switched_off_and_says_why(receiver, settings):
    settings.NOTIFY_DISABLE_AFTER = 3
    receiver.fail_first = 99
    row = confirmed_game(receiver)
    assert deliver_to_hook.apply(kwargs={"delivery_id": row.pk}).get() is False
    assert len(receiver.requests) == 3
    hook = Webhook.objects.get(pk=row.webhook_id)
    assert not hook.active and hook.disabled_at is not None
    assert hook.failures_in_row == 3
    assert "500" in hook.last_error


@pytest.mark.django_db
def test_the_sweep_hands_back_a_delivery_whose_worker_died(receiver):
    row = confirmed_game(receiver)
    long_ago = timezone.now() - timedelta(hours=1)
    Delivery.objects.filter(pk=row.pk).update(
        status=DeliveryStatus.SENDING, claim="dead", claimed_at=long_ago
    )
    Event.objects.filter(pk=row.event_id).update(created_at=long_ago)
    assert sending.deliveries_sweep() == [row.pk]
    assert sending.deliver(delivery_id=row.pk).delivered is True
    assert len(receiver.requests) == 1


@pytest.mark.django_db
def test_a_round_paired_reaches_a_hook_listening_for_it(receiver):
    campaign, _olivia, _players = make_league(["alice", "bob"])
    hook = Webhook.objects.create(
        campaign=campaign,
        name="Club chat",
        url=receiver.url,
        format=HookFormat.JSON,
        events=["round_paired"],
    )
    services.swiss_round_generate(campaign=campaign)
    row = Delivery.objects.get(webhook=hook)
    sending.deliver(delivery_id=row.pk)
    payload = json.loads(receiver.requests[0].body)
    assert payload["title"].endswith("round 1 is paired")
    assert "Table 1:" in payload["text"]


@pytest.mark.parametrize(
    "url", ["ftp://chat.example.org/hook", "javascript:alert(1)", "https://", "file:///etc/passwd"]
)
@pytest.mark.django_db
def test_a_webhook_address_that_is_not_http_is_refused(url):
    campaign, _olivia, _players = make_league(["alice"])
    hook = Webhook(campaign=campaign, name="Bad", url=url)
    with pytest.raises(ValidationError):
        hook.full_clean()


@pytest.mark.django_db
def test_a_player_sending_the_same_report_twice_announces_it_once(receiver):
    campaign, _olivia, players = make_league(["alice", "bob"])
    Webhook.objects.create(
        campaign=campaign, name="Chat", url=receiver.url, events=["result_reported"]
    )
    services.swiss_round_generate(campaign=campaign)
    pairing = Pairing.objects.get(round__campaign=campaign)
    claim = services.claim_from({"winner": "AWAY", "away_vp": 4})
    for _ in range(2):
        services.pairing_report(pairing=pairing, user=players["alice"].user, claim=claim)
    assert Event.objects.filter(kind="result_reported").count() == 1
    assert Delivery.objects.count() == 1
