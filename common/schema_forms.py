"""Typed form fields generated from a rule system's schema: a stat block or a campaign's
options is never a raw JSON box.

Each schema field becomes a form field (a number input with its range, a select of choices,
checkboxes) named `<prefix><stat>`. The classes are built per system because the admin lays
out only fields a form class declares. The admin's character, unit and campaign forms and the
site's roster forms all use it, so it sits below the apps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django import forms

from common.stats import starting_stats
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Field, Schema

STAT_PREFIX = "stat_"


def _choices(field: Field) -> list[tuple[str, str]]:
    return [(str(value), label) for value, label in field.choices]


class _Common(TypedDict):
    """What every stat's form field is given, whatever its kind."""

    label: str
    help_text: str
    required: bool


def schema_form_field(field: Field) -> forms.Field:
    """Return the form field for one schema field."""
    common: _Common = {
        "label": field.title,
        "help_text": field.help,
        "required": field.required,
    }
    if field.kind == "int" and field.choices:
        # Named values ("3 Novice", "1 Leather") read better than a bare number.
        return forms.TypedChoiceField(
            choices=[("", "—"), *_choices(field)], coerce=int, empty_value=None, **common
        )
    if field.kind == "int":
        return forms.IntegerField(min_value=field.min, max_value=field.max, **common)
    if field.kind == "bool":
        unticked: _Common = {**common, "required": False}
        return forms.BooleanField(**unticked)
    if field.kind in ("choice", "die"):
        return forms.ChoiceField(choices=[("", "—"), *_choices(field)], **common)
    if field.kind == "multichoice":
        return forms.MultipleChoiceField(
            choices=_choices(field), widget=forms.CheckboxSelectMultiple, **common
        )
    if field.kind == "list":
        help_text = (field.help + " " if field.help else "") + "One entry per line."
        per_line: _Common = {**common, "help_text": help_text}
        return forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), **per_line)
    return forms.CharField(max_length=field.max, **common)


def stat_initial(field: Field, value: object) -> object:
    if field.kind in ("choice", "die") and value is not None:
        return str(value)
    if field.kind == "multichoice":
        return [str(v) for v in value] if isinstance(value, list | tuple) else []
    if field.kind == "list":
        return "\n".join(str(v) for v in value) if isinstance(value, list | tuple) else ""
    return value


def _submitted(field: Field, value: object) -> object:
    if value in ("", None) and field.kind not in ("bool", "multichoice"):
        return None  # the schema fills the default
    if field.kind == "list" and isinstance(value, str):  # a textarea: one entry per line
        return [line.strip() for line in value.splitlines() if line.strip()]
    return value


# The mixin goes on a Django form: to the type checker it is one (its fields, data, errors).
if TYPE_CHECKING:
    _Form = forms.BaseForm
else:
    _Form = object


class SchemaFormMixin(_Form):
    """Collect the `<prefix>` fields into one schema-validated dict, errors on their fields."""

    schema: Schema | None = None
    prefix_name = STAT_PREFIX
    json_field = "stats"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = getattr(self, "instance", None)
        if self.schema is None or instance is None or instance.pk is None:
            return
        stored = getattr(instance, self.json_field) or {}
        for field in self.schema.fields:
            if field.name in stored:
                self.initial[self.prefix_name + field.name] = stat_initial(
                    field, stored[field.name]
                )

    def schema_names(self) -> list[str]:
        return [self.prefix_name + f.name for f in self.schema.fields] if self.schema else []

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or self.cleaned_data
        if self.schema is None:
            return cleaned
        # An inline's fields are sent prefixed ("characters-0-stat_fire"): look for them so.
        if not any(self.add_prefix(name) in self.data for name in self.schema_names()):
            self.schema_values = starting_stats(self.schema)  # typed fields not shown yet
            return cleaned
        raw = {
            f.name: _submitted(f, cleaned.get(self.prefix_name + f.name))
            for f in self.schema.fields
        }
        try:
            self.schema_values = self.schema.validate(raw)
        except RulesValidationError as exc:
            for name, message in exc.errors.items():
                target = self.prefix_name + name
                self.add_error(target if target in self.fields else None, message)
        return cleaned


def schema_form_class(base: type[SchemaFormMixin], schema: Schema | None, name: str) -> type:
    """Return `base` extended with one declared form field per schema field."""
    attrs: dict[str, object] = {"schema": schema, "__module__": __name__}
    for field in schema.fields if schema else ():
        attrs[base.prefix_name + field.name] = schema_form_field(field)
    return type(name, (base,), attrs)
