"""Queue a Celery task once the current transaction commits, surviving a broker outage.

What the task will work on is already committed when it is sent, so a broker that is down must
not turn a saved result into a 500. The row stays in its waiting state, a warning is logged, and
the app's periodic sweep sends it once the broker is back (tests/faults/test_redis_down.py).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

logger = logging.getLogger("muster.queueing")


def send_after_commit(task: Task[Any, Any], *, failure_event: str, **kwargs: object) -> None:
    """Send `task` with keyword `kwargs` after commit; log `failure_event` if the broker is down."""
    transaction.on_commit(lambda: send_now(task, failure_event=failure_event, **kwargs))


def send_now(task: Task[Any, Any], *, failure_event: str, **kwargs: object) -> None:
    """Send `task` now; a broker outage is logged as `failure_event`, never raised."""
    try:
        task.delay(**kwargs)
    except BrokerUnavailable as exc:
        logger.warning(failure_event, extra={**kwargs, "error": str(exc)})
