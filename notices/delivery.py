"""Sending one delivery to one webhook, exactly once per (event, hook).

- the delivery task claims its ledger row with a conditional UPDATE (PENDING -> SENDING with a
  fresh claim token); zero rows means it was delivered, given up, or another worker has it;
- a 2xx answer marks it DELIVERED (only if our claim still holds); anything else hands it back
  to PENDING for the task's retry, with exponential backoff, until MAX_ATTEMPTS;
- a claim left SENDING by a worker that died is handed back by the sweep after STALE_AFTER;
- every request carries `X-Muster-Delivery` (the ledger id), so a receiver can drop the one
  duplicate the sweep can cause (a worker that died after the POST but before recording it).

The receiver's failures count on the hook; after `NOTIFY_DISABLE_AFTER` failures in a row the
hook is switched off and the admin shows why.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common.json_types import JSONObject
from notices import outbound
from notices.models import Delivery, DeliveryStatus, Event, HookFormat, Webhook

logger = logging.getLogger("muster.notify")
MAX_ATTEMPTS = 6
STALE_AFTER = timedelta(minutes=10)
SIGNATURE_HEADER = "X-Muster-Signature"


def timeout_seconds() -> float:
    return float(getattr(settings, "NOTIFY_TIMEOUT_SECONDS", 5.0))


def disable_after() -> int:
    return int(getattr(settings, "NOTIFY_DISABLE_AFTER", 5))


def backoff_seconds(attempt: int) -> int:
    """Seconds before retry number `attempt` (1, 2, ...): 30 s, 1 min, 2 min, 4 min, ..."""
    return int(getattr(settings, "NOTIFY_BACKOFF_SECONDS", 30)) << max(attempt - 1, 0)


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: HMAC-SHA256 of the exact body, hex, prefixed "sha256="."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def body_for(hook: Webhook, event: Event, delivery_id: int) -> bytes:
    """The request body: Discord's message JSON, or Muster's own event JSON."""
    if hook.format == HookFormat.DISCORD:
        payload: JSONObject = {
            "content": event.title,
            # A name or a report holding "@everyone" or "<@id>" must not ping the club's server.
            "allowed_mentions": {"parse": []},
            "embeds": [{"title": event.title, "description": event.text[:4000]}],
        }
    else:
        payload = {
            "id": delivery_id,
            "event": event.kind,
            "campaign": {"id": event.campaign_id, "name": event.campaign.name},
            "title": event.title,
            "text": event.text,
            "data": event.data,
            "created_at": event.created_at.isoformat(),
        }
    return json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()


@dataclass(frozen=True)
class Outcome:
    """What a delivery attempt came to: `retry_in` seconds when the task should try again."""

    delivered: bool
    retry_in: int | None = None


def deliver(*, delivery_id: int) -> Outcome:
    """Claim, send and record one delivery; a duplicate or late task changes nothing."""
    token = uuid.uuid4().hex
    claimed = Delivery.objects.filter(
        pk=delivery_id, status=DeliveryStatus.PENDING, webhook__active=True
    ).update(
        status=DeliveryStatus.SENDING,
        claim=token,
        claimed_at=timezone.now(),
        attempts=F("attempts") + 1,
    )
    if not claimed:
        logger.info("notify.skipped", extra={"delivery": delivery_id})
        return Outcome(delivered=False)
    delivery = Delivery.objects.select_related("event__campaign", "webhook").get(pk=delivery_id)
    error, status = _post(delivery)
    if error is None:
        _record_success(delivery, token, status)
        return Outcome(delivered=True)
    return _record_failure(delivery, token, status, error)


def _post(delivery: Delivery) -> tuple[str | None, int | None]:
    hook, event = delivery.webhook, delivery.event
    body = body_for(hook, event, delivery.pk)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Muster-Webhook/1",
        "X-Muster-Event": event.kind,
        "X-Muster-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: sign(hook.secret, body),
    }
    try:
        answer = outbound.post(hook.url, body, headers, seconds=timeout_seconds())
    except outbound.Refused as refused:
        return str(refused), None
    if 200 <= answer.status < 300:
        return None, answer.status
    if 300 <= answer.status < 400:
        return f"the receiver answered {answer.status} (redirects are not followed)", answer.status
    return f"the receiver answered {answer.status} {answer.reason}", answer.status


@transaction.atomic
def _record_success(delivery: Delivery, token: str, status: int | None) -> None:
    now = timezone.now()
    Delivery.objects.filter(pk=delivery.pk, claim=token).update(
        status=DeliveryStatus.DELIVERED, delivered_at=now, response_status=status, last_error=""
    )
    Webhook.objects.filter(pk=delivery.webhook_id).update(failures_in_row=0, last_success_at=now)


@transaction.atomic
def _record_failure(delivery: Delivery, token: str, status: int | None, error: str) -> Outcome:
    now = timezone.now()
    attempts = delivery.attempts
    give_up = attempts >= MAX_ATTEMPTS
    Delivery.objects.filter(pk=delivery.pk, claim=token).update(
        status=DeliveryStatus.FAILED if give_up else DeliveryStatus.PENDING,
        response_status=status,
        last_error=error,
    )
    hook = Webhook.objects.select_for_update().get(pk=delivery.webhook_id)
    hook.failures_in_row += 1
    hook.last_error, hook.last_failure_at = error, now
    if hook.failures_in_row >= disable_after():
        hook.active, hook.disabled_at = False, now
        logger.warning("notify.hook_disabled", extra={"hook": hook.pk, "error": error})
    hook.save(
        update_fields=["failures_in_row", "last_error", "last_failure_at", "active", "disabled_at"]
    )
    logger.warning("notify.failed", extra={"delivery": delivery.pk, "error": error})
    if give_up or not hook.active:
        return Outcome(delivered=False)
    return Outcome(delivered=False, retry_in=backoff_seconds(attempts))


def deliveries_sweep(*, now: datetime | None = None) -> list[int]:
    """Hand back deliveries stuck SENDING (their worker died) and return the ones to queue."""
    now = now or timezone.now()
    stale = Delivery.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=now - STALE_AFTER
    ).update(status=DeliveryStatus.PENDING, claim="")
    if stale:
        logger.warning("notify.requeued", extra={"count": stale})
    waiting = Delivery.objects.filter(
        status=DeliveryStatus.PENDING,
        webhook__active=True,
        event__created_at__lt=now - timedelta(seconds=backoff_seconds(MAX_ATTEMPTS) + 60),
    )
    return list(waiting.values_list("pk", flat=True))


@transaction.atomic
def webhook_enable(*, webhook: Webhook) -> Webhook:
    """Switch a hook back on (an organiser fixed the receiver); its count starts again."""
    Webhook.objects.filter(pk=webhook.pk).update(active=True, failures_in_row=0, disabled_at=None)
    webhook.refresh_from_db()
    return webhook
