"""JSON as a type: what an API answer, an export or an audit document may hold.

A document built as `JSONObject` is checked to hold only JSON values (no datetime, no model
row, no set), so what is sent or written is what was typed.
"""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = str | int | float | bool | list["JSON"] | dict[str, "JSON"] | None
JSONObject: TypeAlias = dict[str, JSON]
