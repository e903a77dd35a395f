"""OpenAPI post-processing: every operation documents the errors it can answer with.

drf-spectacular documents each view's success responses; the errors come from shared code
(authentication, permissions, `get_object_or_404`, validation, `config.exceptions`), so they
are added here once, for every operation, rather than repeated on each view. Schemathesis then
checks real answers against them (tests/fuzz/).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DETAIL = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
# A 400 names each bad field (DRF's shape), or lists an import's `problems`.
INVALID = {
    "type": "object",
    "additionalProperties": True,
    "description": "Field name -> messages, `non_field_errors`, or an import's `problems`.",
}
ERRORS = {
    "400": ("Bad input: nothing was changed.", "ValidationErrorResponse", INVALID),
    "401": ("Not signed in (token authentication).", "ErrorDetail", DETAIL),
    "403": ("Not allowed: not signed in, or not yours to change.", "ErrorDetail", DETAIL),
    "404": ("No such object, or not visible to you.", "ErrorDetail", DETAIL),
}
UNAVAILABLE = {
    "503": ("The database is unavailable; nothing was saved, retry later.", "ErrorDetail", DETAIL),
}
# Writes to an object that moved on, and reads that need a later state (a battle's audit).
CONFLICT = {
    "409": (
        "The object is not in a state for this (already finished, confirmed, locked, "
        "not processed yet...).",
        "ErrorDetail",
        DETAIL,
    ),
}
# Every API call counts against a rate (common.throttling).
THROTTLED = {
    "429": ("Too many requests: try again after Retry-After seconds.", "ErrorDetail", DETAIL),
}
METHODS = ("get", "put", "post", "patch", "delete")


def _content(component: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}}


def _add_errors(operation: dict[str, Any], errors: Mapping[str, tuple[str, str, object]]) -> None:
    responses = operation.setdefault("responses", {})
    for code, (description, component, _) in errors.items():
        responses.setdefault(code, {"description": description, "content": _content(component)})


def document_error_responses(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """Add the shared 400/401/403/404/409/429/503 responses to every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    shared = (*ERRORS.values(), *CONFLICT.values(), *UNAVAILABLE.values(), *THROTTLED.values())
    for _, component, schema in shared:
        schemas.setdefault(component, schema)
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method not in METHODS:
                continue
            _add_errors(operation, ERRORS)
            _add_errors(operation, CONFLICT)
            _add_errors(operation, UNAVAILABLE)
            _add_errors(operation, THROTTLED)
    return result
