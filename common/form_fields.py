"""A form's fields as the kinds they were declared.

`form.fields` maps names to plain `Field`s, so setting a choice field's `choices` or a model
field's `queryset` in `__init__` reads as an error to the type checker. `field_of` hands the
field back as its declared kind, and says so plainly if a form was changed under it.
"""

from __future__ import annotations

from typing import TypeVar

from django import forms

F = TypeVar("F", bound=forms.Field)


def field_of(form: forms.BaseForm, name: str, kind: type[F]) -> F:
    """Return the form's field `name` as a `kind` (a ChoiceField, a ModelChoiceField ...)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(
            f"{type(form).__name__}.{name} is a {type(field).__name__}, not a {kind.__name__}"
        )
    return field
