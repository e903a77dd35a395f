"""Site-wide error views: under /api/ a 404 is JSON, like every other API answer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer an unknown URL: JSON under /api/ (e.g. /api/print-jobs/-1/), the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    kwargs: dict[str, Any] = {"exception": exception}
    return page_not_found(request, **kwargs)
