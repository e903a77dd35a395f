"""GET /healthz (a contract): the database, the broker and the worker heartbeat.

200 when the database and the broker answer, 503 otherwise. A stale or missing worker
heartbeat does not make the web app unhealthy (it still serves pages and takes results; the
sweep queues them once a worker is back), so it answers 200 with `"status": "degraded"` and
says why: a monitor should alert on it, a load balancer should keep routing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


def _database() -> dict[str, object]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # any failure is reported, not raised: this page must answer
        return {"ok": False, "error": str(exc)[:200]}


def _broker() -> dict[str, object]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager (tasks run inline; no broker)"}
    from config.celery_app import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "mode": "broker", "transport": conn.transport_cls}
    except Exception as exc:
        return {"ok": False, "mode": "broker", "error": str(exc)[:200]}


def _worker() -> dict[str, object]:
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.REDIS_URL:
        return {"ok": True, "mode": "inline"}
    from config.heartbeat import heartbeat_age

    try:
        age = heartbeat_age()
    except Exception as exc:  # Redis down: the broker check says so too
        return {"ok": False, "mode": "worker", "error": str(exc)[:200]}
    if age is None:
        return {"ok": False, "mode": "worker", "error": "no worker heartbeat yet"}
    limit = settings.HEARTBEAT_STALE_SECONDS
    fresh = age <= limit
    state = {"ok": fresh, "mode": "worker", "heartbeat_age_seconds": round(age, 1)}
    return state if fresh else {**state, "error": f"last heartbeat over {limit}s ago"}


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "broker": _broker(), "worker": _worker()}
    serving = checks["database"]["ok"] and checks["broker"]["ok"]
    status = ("ok" if checks["worker"]["ok"] else "degraded") if serving else "unavailable"
    return JsonResponse({"status": status, **checks}, status=200 if serving else 503)
