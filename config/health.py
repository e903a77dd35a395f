"""GET /healthz (a contract): the state of the database and the broker, 200 or 503."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import JsonResponse


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


def healthz(request):  # type: ignore[no-untyped-def]
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", **checks},
                        status=200 if healthy else 503)
