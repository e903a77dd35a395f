"""Typed form inputs generated from a rules `Schema`, and the parsing of what the browser sends.

The odds page and the table assistant both show a check's parameters; one schema drives the
inputs (number with min/max, a select or radio group for choices, a checkbox for a flag), so a
range or a choice is stated once, in `rules/`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from rules.schema import Field, Schema

#: Choice fields with this many options or fewer show as a row of radio buttons (one tap at
#: the table); longer ones as a select.
RADIO_LIMIT = 4


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class Input:
    """One field as the template draws it."""

    name: str
    id: str
    widget: str  # number, select, radios, checkbox, checkboxes, text, textarea
    label: str
    help: str
    value: str
    checked: bool
    options: tuple[Option, ...]
    min: int | None
    max: int | None
    error: str
    #: Where a pre-filled value came from, e.g. "melee 9 — Sgt. Gridley" (the table's form).
    source: str = ""

    @property
    def describedby(self) -> str:
        # The feedback slot is always there (empty without an error), so an htmx update can
        # fill it in place without redrawing the input the player may be typing into.
        ids = [f"{self.id}-source"] if self.source else []
        ids += [f"{self.id}-help"] if self.help else []
        return " ".join([*ids, f"{self.id}-feedback"])


def opening_value(field: Field) -> Any:
    """Return the value a form starts with: the default, else a middling legal value."""
    if field.default is not None:
        return field.default
    if field.kind == "int":
        low = field.min if field.min is not None else 0
        high = field.max if field.max is not None else low
        return (low + high) // 2
    if field.kind in ("choice", "die") and field.choices:
        return field.choices[0][0]
    if field.kind in ("multichoice", "list"):
        return []
    return False if field.kind == "bool" else ""


def opening_values(schema: Schema) -> dict[str, object]:
    return {field.name: opening_value(field) for field in schema.fields}


def _raw(field: Field, data: QueryDict) -> Any:
    if field.kind == "bool":
        return field.name in data and data.get(field.name) not in ("", "0", "false", "off")
    if field.kind == "multichoice":
        return [value for value in data.getlist(field.name) if value]
    if field.kind == "list":
        return [line.strip() for line in data.get(field.name, "").splitlines() if line.strip()]
    value = data.get(field.name, "").strip()
    return value or None


def submitted_values(schema: Schema, data: QueryDict) -> tuple[dict[str, object], dict[str, str]]:
    """Return the raw values the browser sent for the schema's fields, and blank-field errors.

    Only the schema's own names are read, so stray parameters (say, from the previous check)
    are ignored rather than refused. A blank number with no default is an error in place,
    not a silent zero.
    """
    values: dict[str, object] = {}
    errors: dict[str, str] = {}
    for field in schema.fields:
        raw = _raw(field, data)
        if raw is None and field.default is None:
            errors[field.name] = "Enter a value."
        values[field.name] = raw
    return values, errors


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value)


def _widget(field: Field) -> str:
    if field.kind in ("choice", "die"):
        return "radios" if len(field.choices) <= RADIO_LIMIT else "select"
    return {
        "int": "number",
        "bool": "checkbox",
        "multichoice": "checkboxes",
        "list": "textarea",
    }.get(field.kind, "text")


def _options(field: Field, value: object) -> tuple[Option, ...]:
    picked = {str(v) for v in value} if isinstance(value, list | tuple) else {_text(value)}
    return tuple(Option(str(v), label, str(v) in picked) for v, label in field.choices)


def field_input(field: Field, value: object, error: str = "", prefix: str = "") -> Input:
    """Return how one field is drawn, holding `value` and its error."""
    shown = "\n".join(value) if field.kind == "list" and isinstance(value, list) else _text(value)
    return Input(
        name=field.name,
        id=f"{prefix}{field.name}",
        widget=_widget(field),
        label=field.title,
        help=field.help,
        value=shown,
        checked=bool(value) if field.kind == "bool" else False,
        options=_options(field, value),
        min=field.min,
        max=field.max,
        error=error,
    )


def schema_inputs(
    schema: Schema,
    values: Mapping[str, object],
    errors: Mapping[str, str] | None = None,
    prefix: str = "",
) -> tuple[Input, ...]:
    """Return every field of `schema` as an input holding `values` and its error, in order."""
    errors = errors or {}
    return tuple(
        field_input(f, values.get(f.name), _sentence(errors.get(f.name, "")), prefix)
        for f in schema.fields
    )


def _sentence(message: str) -> str:
    # The engine says "must be at most 6, not 9"; in a form the field label comes first.
    if not message:
        return ""
    return message[0].upper() + message[1:] + ("" if message.endswith(".") else ".")
