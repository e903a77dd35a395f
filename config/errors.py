"""Site-wide error views: under /api/ a 404 or a 500 is JSON, like every other API answer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from django.views.defaults import server_error as server_error_page


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer an unknown URL: JSON under /api/ (e.g. /api/print-jobs/-1/), the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    kwargs: dict[str, Any] = {"exception": exception}
    return page_not_found(request, **kwargs)


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer an unexpected failure: JSON under /api/ (a client parses it), the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": "the server failed; nothing was saved, and the error is logged"},
            status=500,
        )
    return server_error_page(request)
