"""Whether htmx sent a request, read where the type checker can see it.

django-htmx's middleware sets `request.htmx` (its `HtmxDetails` is true when the request
carries the `HX-Request` header); `HttpRequest` does not declare the attribute.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


def from_htmx(request: HttpRequest) -> bool:
    """Say whether htmx sent the request (False if the middleware did not run)."""
    details = getattr(request, "htmx", None)
    return isinstance(details, HtmxDetails) and bool(details)
