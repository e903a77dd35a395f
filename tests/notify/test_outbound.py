"""Webhooks cannot be turned on the house: internal addresses refused after DNS and at connect
time, no redirects followed, one wall-clock deadline, errors that do not reveal ports, and a
slow receiver that never delays a battle's aftermath."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.core.exceptions import ValidationError

from battles import services as battles
from battles.models import Battle, BattleStatus
from config.celery_app import app
from notices import delivery as sending
from notices import outbound
from notices.models import Delivery, HookFormat, Webhook
from tests.battles.conftest import make_cast, start_battle
from tests.notify.receiver import DripServer
from tests.notify.test_webhook_delivery import confirmed_game

REAL_GETADDRINFO = socket.getaddrinfo


def resolving(monkeypatch: Any, answers: dict[str, list[str]]) -> list[str]:
    """Make the named hosts resolve to the given addresses, in turn; return the lookups."""
    asked: list[str] = []

    def fake(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in answers:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        asked.append(host)
        address = answers[host][min(len(asked), len(answers[host])) - 1]
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return asked


@pytest.fixture
def drip():
    server = DripServer(mode="drip")
    yield server
    server.close()


@pytest.mark.usefixtures("inline_delivery")
@pytest.mark.django_db
def test_a_hook_on_loopback_is_refused_unless_its_host_is_named_internal(receiver, settings):
    settings.NOTIFY_INTERNAL_HOSTS = []
    row = confirmed_game(receiver)
    assert sending.deliver(delivery_id=row.pk).delivered is False
    assert receiver.requests == []
    row.refresh_from_db()
    assert row.last_error == outbound.NOT_PUBLIC


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.7",
        "172.16.4.4",
        "192.168.1.1",
        "169.254.169.254",  # the cloud metadata service
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fd00:ec2::254",
        "fe80::1",
        "::ffff:127.0.0.1",
        "224.0.0.1",
    ],
)
def test_a_public_name_resolving_to_an_internal_address_is_refused(monkeypatch, settings, address):
    settings.NOTIFY_INTERNAL_HOSTS = []
    resolving(monkeypatch, {"hooks.example.org": [address]})
    with pytest.raises(outbound.Refused, match="not a public address"):
        outbound.post("https://hooks.example.org/x", b"{}", {}, seconds=1)


def test_a_name_with_one_internal_address_among_public_ones_is_refused(monkeypatch, settings):
    settings.NOTIFY_INTERNAL_HOSTS = []

    def two(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", two)
    with pytest.raises(outbound.Refused, match="not a public address"):
        outbound.post("http://hooks.example.org/x", b"{}", {}, seconds=1)


@pytest.mark.usefixtures("inline_delivery")
@pytest.mark.django_db
def test_a_dns_rebind_after_the_check_cannot_reach_loopback(receiver, monkeypatch, settings):
    """The name resolves public for the check, then to loopback: the connect uses the checked
    address, so the receiver on loopback never hears from the worker."""
    settings.NOTIFY_INTERNAL_HOSTS = []
    settings.NOTIFY_TIMEOUT_SECONDS = 1.0
    port = receiver.url.split(":")[2].split("/")[0]
    asked = resolving(monkeypatch, {"rebind.example.org": ["93.184.216.34", "127.0.0.1"]})
    row = confirmed_game(receiver)
    Webhook.objects.filter(pk=row.webhook_id).update(url=f"http://rebind.example.org:{port}/hook")
    assert sending.deliver(delivery_id=row.pk).delivered is False
    assert receiver.requests == []
    assert asked == ["rebind.example.org"]


@pytest.mark.usefixtures("inline_delivery")
@pytest.mark.django_db
def test_a_redirect_to_loopback_is_not_followed(receiver):
    inside = receiver  # an internal service the redirect points at
    bouncer = DripServer(mode="redirect", location=inside.url)
    try:
        row = confirmed_game(inside)
        Webhook.objects.filter(pk=row.webhook_id).update(url=bouncer.url)
        assert sending.deliver(delivery_id=row.pk).delivered is False
    finally:
        bouncer.close()
    assert bouncer.requests == 1
    assert inside.requests == []
    row.refresh_from_db()
    assert row.last_error == "the receiver answered 302 (redirects are not followed)"


@pytest.mark.usefixtures("inline_delivery")
@pytest.mark.django_db
def test_a_receiver_dripping_a_byte_at_a_time_is_cut_at_the_deadline(receiver, drip, settings):
    settings.NOTIFY_TIMEOUT_SECONDS = 1.5
    row = confirmed_game(receiver)
    Webhook.objects.filter(pk=row.webhook_id).update(url=drip.url)
    started = time.monotonic()
    outcome = sending.deliver(delivery_id=row.pk)
    took = time.monotonic() - started
    assert outcome.delivered is False
    assert took < 1.5 + 1.0, f"the delivery took {took:.1f} s"
    row.refresh_from_db()
    assert row.last_error == outbound.COULD_NOT_DELIVER


def test_a_closed_port_and_a_silent_one_read_the_same(drip):
    """A refused connection and a receiver that never answers give one message: no port scan
    (127.0.0.1 is allowed by this folder's conftest, as a club's own bot would be)."""
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    messages = []
    for url in (f"http://127.0.0.1:{port}/", drip.url):
        with pytest.raises(outbound.Refused) as refused:
            outbound.post(url, b"{}", {}, seconds=0.5)
        messages.append(str(refused.value))
    assert messages == [outbound.COULD_NOT_DELIVER] * 2


@pytest.mark.usefixtures("inline_delivery")
@pytest.mark.django_db
def test_a_discord_message_never_pings_everyone(receiver):
    row = confirmed_game(receiver, format=HookFormat.DISCORD)
    sending.deliver(delivery_id=row.pk)
    payload = json.loads(receiver.requests[0].body)
    assert payload["allowed_mentions"] == {"parse": []}


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
    ],
)
@pytest.mark.django_db
def test_a_webhook_address_naming_an_internal_host_is_refused_when_saved(url, settings):
    settings.NOTIFY_INTERNAL_HOSTS = []
    campaign = make_cast(1).campaign
    with pytest.raises(ValidationError, match="public host"):
        Webhook(campaign=campaign, name="Inside", url=url).full_clean()


@pytest.mark.django_db
def test_an_internal_host_named_in_the_setting_may_be_saved(settings):
    settings.NOTIFY_INTERNAL_HOSTS = ["bot.club.lan", "10.1.2.3"]
    campaign = make_cast(1).campaign
    Webhook(campaign=campaign, name="Our bot", url="http://10.1.2.3/hook").full_clean()


# --- a slow receiver never delays the post-battle rolls ----------------------------------------


@pytest.fixture
def battle_worker(settings: Any):
    """A real worker on the default queue only, as docker-compose runs it."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.NOTIFY_TIMEOUT_SECONDS = 60.0  # the queue, not the deadline, is what is tested
    app.conf.task_always_eager = False
    done: dict[int, float] = {}

    def finished(sender: Any = None, kwargs: Any = None, **rest: Any) -> None:
        if sender is not None and sender.name == "battles.process_battle":
            done[(kwargs or {}).get("battle_id")] = time.monotonic()

    task_postrun.connect(finished, weak=False)
    try:
        with start_worker(
            app,
            perform_ping_check=False,
            pool="solo",
            concurrency=1,
            shutdown_timeout=5,
            queues=[settings.CELERY_TASK_DEFAULT_QUEUE],
        ):
            yield done
    finally:
        task_postrun.disconnect(finished)
        # Drop the override rather than "restore" a value: app.conf reads the Django setting
        # live, so a value read after the line above is already False and would pin every later
        # test in this process to the broker (their battles would wait FINISHED forever).
        app.conf.changes.pop("task_always_eager", None)


def quiet_battle(cast: Any) -> Battle:
    """A battle with a result and no wounds, ready to finish."""
    battle = start_battle(cast)
    results = zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    sides = [{"side": side.pk, "result": result} for side, result in results]
    return battles.battle_record_result(battle=battle, sides=sides)


def _wait_for(done: dict[int, float], battle_id: int, seconds: float) -> float | None:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if battle_id in done:
            return done[battle_id]
        time.sleep(0.02)
    return None


@pytest.mark.django_db(transaction=True)
def test_a_battle_finished_while_a_receiver_drips_is_processed_in_under_two_seconds(
    battle_worker, drip
):
    cast = make_cast()
    Webhook.objects.create(
        campaign=cast.campaign, name="Slow bot", url=drip.url, events=["battle_processed"]
    )
    first = battles.battle_finish(battle=quiet_battle(cast))
    assert _wait_for(battle_worker, first.pk, 20) is not None
    assert Delivery.objects.filter(event__data__battle=first.pk).exists()
    time.sleep(0.5)  # time enough for a worker sharing the queue to be stuck in the delivery

    second = quiet_battle(cast)
    finished_at = time.monotonic()
    battles.battle_finish(battle=second)
    processed_at = _wait_for(battle_worker, second.pk, 10)

    assert processed_at is not None, "the second battle waited behind the webhook"
    assert processed_at - finished_at < 2.0
    assert Battle.objects.get(pk=second.pk).status == BattleStatus.PROCESSED
