"""Refuse hostile JSON bodies before any view reads them: too big, too deep, or unencodable.

Python's JSON parser recurses once per nesting level, and so do serializers, validators and
the database adapter after it: a body nested a few thousand deep ended in a RecursionError (a
500) on every JSON endpoint. A lone UTF-16 surrogate (`"\\ud800"`) parses into a str that
cannot be encoded, so it failed later, in a choice lookup or in the database driver. This
middleware parses each JSON body once, walks it without recursion, and answers 400 with one
clear sentence; a body that is not JSON at all is left to the view's parser (DRF's own 400).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

METHODS_WITH_BODY = ("POST", "PUT", "PATCH", "DELETE")


class HostileJson(ValueError):
    """A JSON body refused: the message is the answer's `detail`."""


def _is_json(request: HttpRequest) -> bool:
    kind = request.content_type or ""
    return kind == "application/json" or kind.endswith("+json")


def _no_constants(name: str) -> Any:
    raise HostileJson(f"{name} is not a number JSON allows; send a finite number")


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise HostileJson(
            f"{where} holds an unpaired UTF-16 surrogate (such as \\ud800), which is not text"
        ) from None


def _walk(document: Any, max_depth: int) -> None:
    """Check nesting depth and every string (keys too) without recursing."""
    stack: list[tuple[Any, int, str]] = [(document, 1, "the body")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, str):
            _check_text(value, where)
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > max_depth:
            raise HostileJson(f"the JSON body is nested more than {max_depth} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, "a key in the body")
                stack.append((item, depth + 1, f"the value of {key!r}"))
        else:
            stack.extend((item, depth + 1, "a list item") for item in value)


def check_json_body(body: bytes, *, max_bytes: int, max_depth: int) -> None:
    """Raise HostileJson when the body is too big, too deep or holds unencodable text."""
    if len(body) > max_bytes:
        raise HostileJson(f"the JSON body is larger than {max_bytes:,} bytes")
    try:
        document = json.loads(body, parse_constant=_no_constants)
    except RecursionError:
        raise HostileJson(f"the JSON body is nested more than {max_depth} levels deep") from None
    except (ValueError, UnicodeDecodeError) as error:
        if isinstance(error, HostileJson):
            raise
        return  # not JSON: the view's parser answers its own 400
    _walk(document, max_depth)


class JsonGuardMiddleware:
    """Answer 400 to a hostile JSON body (settings JSON_MAX_BYTES, JSON_MAX_DEPTH)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in METHODS_WITH_BODY and _is_json(request):
            refusal = self._refusal(request)
            if refusal is not None:
                return refusal
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
