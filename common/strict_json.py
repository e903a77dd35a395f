"""One strict reader for every JSON document Muster takes in: API bodies (config.json_guard),
the admin's force import, campaign backups.

Python's `json` accepts what no field of ours can hold: `1e400` (parsed as infinity), NaN,
integers with thousands of digits, lone UTF-16 surrogates (a str that cannot be encoded), NUL
characters (which PostgreSQL refuses in text) and nesting deep enough to exhaust the stack of
everything that walks the result. Each of those reached a view, a service or the database
driver and ended in a 500. Here they end in `HostileJson`, whose message names where the
problem is, before anything is written.
"""

from __future__ import annotations

import json
import math
from typing import NoReturn

from common.json_types import JSON

#: Larger integers fit no column (PostgreSQL's bigint) and no rule (stats are small numbers).
MAX_INTEGER = 2**63 - 1


class HostileJson(ValueError):
    """A JSON document refused; the message is one sentence for the answer's `detail`."""


def _no_constants(name: str) -> NoReturn:
    raise HostileJson(f"{name} is not a number JSON allows; send a finite number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise HostileJson(f"{text[:40]} is too large a number; send a finite number")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > 20:
        raise HostileJson(f"{text[:20]}... is too large a number")
    value = int(text)
    if abs(value) > MAX_INTEGER:
        raise HostileJson(f"{text} is too large a number (at most {MAX_INTEGER})")
    return value


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise HostileJson(
            f"{where} holds an unpaired UTF-16 surrogate (such as \\ud800), which is not text"
        ) from None
    if "\x00" in text:
        raise HostileJson(f"{where} holds a NUL character (\\u0000), which is not text")


def check_document(document: JSON, *, max_depth: int) -> None:
    """Check nesting depth and every string (keys too) without recursing."""
    stack: list[tuple[JSON, int, str]] = [(document, 1, "the body")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, str):
            _check_text(value, where)
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > max_depth:
            raise HostileJson(f"the JSON is nested more than {max_depth} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, "a key")
                stack.append((item, depth + 1, f"the value of {key[:60]!r}"))
        else:
            stack.extend((item, depth + 1, "a list item") for item in value)


def loads(data: bytes | str, *, max_depth: int = 32) -> JSON:
    """Parse JSON text strictly; HostileJson names the problem. Invalid JSON raises
    json.JSONDecodeError (a ValueError) as usual, for the caller's own words."""
    try:
        document: JSON = json.loads(
            data,
            parse_constant=_no_constants,
            parse_float=_finite_float,
            parse_int=_bounded_int,
        )
    except RecursionError:
        raise HostileJson(f"the JSON is nested more than {max_depth} levels deep") from None
    check_document(document, max_depth=max_depth)
    return document
