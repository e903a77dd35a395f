"""API throttling: one scoped rate per kind of work, counted in the `throttle` cache.

A PDF renders up to 200 items inside the request and a simulation runs up to thousands of
battles, so those (and imports) get their own, tighter scope; everything else is a read or a
write. A view (or a DRF action) names its scope with `throttle_scope`; a `.pdf` URL is a PDF;
otherwise the method decides. Signed-in callers are counted per user, anonymous ones per address.
Expensive pages (a chronicle PDF, a CSV import, the admin's print actions) count against the
same scopes through `throttle_page`.

The rates are read from settings on every request (not frozen at import like DRF's), so the
environment sets them (docs/security.md) and a test can change them. When the cache is down
(Redis restarting) the API keeps answering unthrottled rather than failing every request.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeAlias

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: The scopes, and the environment variable that sets each (docs/security.md).
SCOPES = ("reads", "writes", "pdfs", "imports", "simulate")
P = ParamSpec("P")
#: A page view: the request, then whatever the URL passes it.
PageView: TypeAlias = Callable[Concatenate[HttpRequest, P], HttpResponse]


def scope_of(request: Request, view: object) -> str:
    """Return the throttle scope a request counts against."""
    named = getattr(view, "throttle_scope", None)
    if named == "imports" and request.method in SAFE_METHODS:
        return "reads"  # the same URL's export (GET) is an ordinary read
    if named in SCOPES:
        return str(named)
    if request.path.endswith(".pdf"):
        return "pdfs"
    return "reads" if request.method in SAFE_METHODS else "writes"


class ScopedRateThrottle(SimpleRateThrottle):
    """Count each caller's requests per scope; refuse (429 + Retry-After) past the rate."""

    cache_format = "throttle_%(scope)s_%(ident)s"

    def __init__(self) -> None:
        # SimpleRateThrottle reads the rate in __init__; ours is known only per request.
        self.cache = caches[settings.API_THROTTLE_CACHE]

    def allow_request(self, request: Request, view: Any) -> bool:
        if not settings.API_THROTTLE_ENABLED:
            return True
        self.scope = scope_of(request, view)
        self.rate = settings.API_THROTTLE_RATES.get(self.scope)
        if not self.rate:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except Exception:  # the cache is down: serve rather than fail every API call
            logger.warning("API throttling skipped: its cache is unavailable", exc_info=True)
            return True

    def get_cache_key(self, request: Request, view: object) -> str:
        user = request.user
        ident = f"user-{user.pk}" if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


# --- pages -------------------------------------------------------------------------------------


class PageRateThrottle(ScopedRateThrottle):
    """The API's scoped rate for a page view: same scopes, rates, cache and caller key (the
    user, or the address REMOTE_ADDR or the configured proxies give, never a client's own
    X-Forwarded-For)."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.page_scope = scope

    def allow_request(self, request: Any, view: Any) -> bool:
        view = type("PageView", (), {"throttle_scope": self.page_scope})()
        return super().allow_request(request, view)


def throttle_page(scope: str) -> Callable[[PageView[P]], PageView[P]]:
    """Count a page view against the API's `scope`; past the rate, 429 with Retry-After."""
    if scope not in SCOPES:
        raise ValueError(f"unknown throttle scope {scope!r}; known: {', '.join(SCOPES)}")

    def decorate(view: PageView[P]) -> PageView[P]:
        @wraps(view)
        def throttled(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            throttle = PageRateThrottle(scope)
            if throttle.allow_request(request, None):
                return view(request, *args, **kwargs)
            return too_many(request, throttle.wait())

        return throttled

    return decorate


def too_many(request: HttpRequest, wait: float | None) -> HttpResponse:
    seconds = max(1, math.ceil(wait or 1))
    response = render(request, "429.html", {"retry_after": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response
