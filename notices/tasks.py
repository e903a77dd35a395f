"""Notification tasks: keyword ids in, one service call each."""

from __future__ import annotations

from celery import Task, shared_task

from common.queueing import send_now
from notices import delivery, services


@shared_task(name="notices.deliver_to_hook", bind=True, acks_late=True, max_retries=None)
def deliver_to_hook(self: Task[..., bool], *, delivery_id: int, **kwargs: object) -> bool:
    """Send one ledger row to its webhook; a failure retries with exponential backoff."""
    outcome = delivery.deliver(delivery_id=delivery_id)
    if outcome.retry_in is not None:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.delivered


@shared_task(name="notices.sweep_deliveries")
def sweep_deliveries(**kwargs: object) -> list[int]:
    """Re-queue deliveries whose worker died or whose retries were lost with a broker."""
    ids = delivery.deliveries_sweep()
    for delivery_id in ids:
        send_now(deliver_to_hook, failure_event="notify.queue_failed", delivery_id=delivery_id)
    return ids


@shared_task(name="notices.email_notice")
def email_notice(*, notice_id: int, **kwargs: object) -> bool:
    """E-mail one notice to its player (once)."""
    return services.notice_email(notice_id=notice_id)
