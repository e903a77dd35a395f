"""Stats through the rule system's schema: the one gate every write passes.

The rules engine raises its own `ValidationError` naming each bad field; here it becomes a
Django `ValidationError` under `stats`, keeping the per-field messages in `field_errors` for
the API and the importers to report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from rules.errors import UnknownSystem
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Field, Schema
from rules.system import RuleSystem, get_system


class StatsInvalid(ValidationError):
    """Stats the schema refused; `field_errors` maps each stat to its message."""

    def __init__(self, field_errors: Mapping[str, str], key: str = "stats") -> None:
        self.field_errors = dict(field_errors)
        super().__init__({key: [f"{name}: {msg}" for name, msg in self.field_errors.items()]})


def system_for(key: str, *, field: str = "system") -> RuleSystem:
    """Return the registered system or raise a ValidationError on `field`."""
    try:
        return get_system(key)
    except UnknownSystem as exc:
        raise ValidationError({field: [str(exc)]}) from None


def known_stats(schema: Schema, stats: Mapping[str, object]) -> dict[str, object]:
    """The stats without the choices the schema no longer offers.

    A figure may carry what its campaign's house rules have since dropped (a weapon the club
    removed from its table): pages and prints show the rest of the figure rather than fail, and
    the next edit of the figure leaves the dropped choice out.
    """
    known = dict(stats)
    for field in schema.fields:
        allowed = {value for value, _ in field.choices}
        value = known.get(field.name)
        if not allowed or value is None:
            continue
        if isinstance(value, list | tuple):
            known[field.name] = [item for item in value if item in allowed]
        elif value not in allowed:
            known.pop(field.name)
    return known


def clean_stats(
    schema: Schema, data: Mapping[str, Any] | None, *, key: str = "stats"
) -> dict[str, Any]:
    """Return stats normalised by `schema` or raise StatsInvalid naming each bad field."""
    try:
        return schema.validate(data)
    except RulesValidationError as exc:
        raise StatsInvalid(exc.errors, key=key) from None


def starting_value(field: Field) -> object:
    """Return a value a new figure can start with: the default, else the lowest legal value."""
    if field.default is not None:
        return field.default
    if field.kind == "int":
        return field.min if field.min is not None else 0
    if field.kind in ("choice", "die") and field.choices:
        return field.choices[0][0]
    if field.kind in ("multichoice", "list"):
        return []
    return False if field.kind == "bool" else ""


def starting_stats(schema: Schema) -> dict[str, Any]:
    """Return a complete, valid stat block for a new figure of this schema.

    Defaults (and the schema's derived defaults) first; only fields the schema refuses to
    leave empty get their lowest legal value.
    """
    try:
        return schema.validate({})
    except RulesValidationError as exc:
        return schema.validate({name: starting_value(schema[name]) for name in exc.errors})
