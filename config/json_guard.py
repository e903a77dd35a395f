"""Refuse hostile JSON bodies before any view reads them: too big, too deep, or unencodable.

Python's JSON parser recurses once per nesting level, and so do serializers, validators and
the database adapter after it: a body nested a few thousand deep ended in a RecursionError (a
500) on every JSON endpoint. A lone UTF-16 surrogate (`"\\ud800"`) parses into a str that
cannot be encoded, so it failed later, in a choice lookup or in the database driver. This
middleware parses each JSON body once, walks it without recursion, and answers 400 with one
clear sentence; a body that is not JSON at all is left to the view's parser (DRF's own 400).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

from common import strict_json
from common.strict_json import HostileJson

METHODS_WITH_BODY = ("POST", "PUT", "PATCH", "DELETE")


def _is_json(request: HttpRequest) -> bool:
    kind = request.content_type or ""
    return kind == "application/json" or kind.endswith("+json")


def check_json_body(body: bytes, *, max_bytes: int, max_depth: int) -> None:
    """Raise HostileJson when the body is too big, too deep or holds what no field can."""
    if len(body) > max_bytes:
        raise HostileJson(f"the JSON body is larger than {max_bytes:,} bytes")
    try:
        strict_json.loads(body, max_depth=max_depth)
    except HostileJson:
        raise
    except (ValueError, UnicodeDecodeError):
        return  # not JSON: the view's parser answers its own 400


def _form_is_not_utf8(request: HttpRequest) -> bool:
    """A form-encoded body whose %-escapes are not UTF-8: Django would store U+FFFD."""
    if request.content_type != "application/x-www-form-urlencoded":
        return False
    try:
        unquote_to_bytes(request.body.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _refuse(request: HttpRequest, detail: str) -> HttpResponse:
    if request.path.startswith("/api/") or _is_json(request):
        return JsonResponse({"detail": detail}, status=400)
    return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")


class JsonGuardMiddleware:
    """Answer 400 to a hostile body before any view (settings JSON_MAX_BYTES, JSON_MAX_DEPTH):
    JSON as common.strict_json judges it, a form body that is not UTF-8, and a NUL character
    in the address."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            # PostgreSQL refuses NUL in text: a join code or filter holding one was a 500.
            return _refuse(request, "the address holds a NUL character")
        if request.method in METHODS_WITH_BODY and _is_json(request):
            refusal = self._refusal(request)
            if refusal is not None:
                return refusal
        if request.method in METHODS_WITH_BODY and _form_is_not_utf8(request):
            return _refuse(request, "the form's text is not UTF-8")
        return self.get_response(request)

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        limit = settings.JSON_MAX_BYTES
        try:
            if declared.isdigit() and int(declared) > limit:
                raise HostileJson(f"the JSON body is larger than {limit:,} bytes")
            check_json_body(request.body, max_bytes=limit, max_depth=settings.JSON_MAX_DEPTH)
        except HostileJson as refusal:
            return JsonResponse({"detail": str(refusal)}, status=400)
        return None
