"""The error summary every refused form shows at the top of the page: what was wrong, each line
a link to its field, and which field takes the focus (the first bad one).

It reads what the page already has: a Django form's errors, a schema form's inputs (the check
form), or the `problems` a view passed. Without JavaScript the summary and its links work on
their own; `static/pages/errors.js` moves the focus to `focus` on load and after an htmx swap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms


@dataclass(frozen=True)
class ErrorLine:
    text: str
    anchor: str = ""  # the field's id, "" for an error of the whole form


@dataclass(frozen=True)
class ErrorSummary:
    lines: tuple[ErrorLine, ...]

    @property
    def focus(self) -> str:
        """The id of the first bad field ("" when no line names one: the summary takes it)."""
        return next((line.anchor for line in self.lines if line.anchor), "")


def _django_lines(form: forms.BaseForm) -> list[ErrorLine]:
    lines = [ErrorLine(str(e)) for e in form.non_field_errors()]
    for field in form:
        lines += [ErrorLine(f"{field.label}: {e}", field.id_for_label or "") for e in field.errors]
    return lines


def _schema_lines(form: Any) -> list[ErrorLine]:
    lines = [ErrorLine(f"{i.label}: {i.error}", i.id) for i in form.inputs if i.error]
    named = {i.name for i in form.inputs}
    errors: Mapping[str, str] = getattr(form, "errors", None) or {}
    lines += [ErrorLine(str(m)) for name, m in errors.items() if name not in named]
    return lines


def error_summary(
    form: forms.BaseForm | None = None, problems: Iterable[str] | None = None
) -> ErrorSummary | None:
    """Return the summary of a refused form, or None when nothing was refused."""
    lines: list[ErrorLine] = []
    if form is not None and hasattr(form, "non_field_errors") and getattr(form, "errors", None):
        lines += _django_lines(form)
    elif form is not None and hasattr(form, "inputs") and getattr(form, "errors", None):
        lines += _schema_lines(form)
    lines += [ErrorLine(str(p)) for p in problems or () if str(p) not in {x.text for x in lines}]
    return ErrorSummary(tuple(lines)) if lines else None
