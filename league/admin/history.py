"""History in the admin: a row that is history offers no Delete anywhere.

Not on its page, not through "Delete selected" (Django asks `has_delete_permission` for each
row the action would delete and refuses the lot if one says no), not as an inline row. The
database refuses too (`on_delete=PROTECT`); the admin only says so before anyone tries.
Mistakes are corrected: a result is confirmed again, a house-rules change is a new version.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.forms.formsets import DELETION_FIELD_NAME
from django.http import HttpRequest

from common.django_bases import InlineFormSet
from league import selectors
from league.models import Pairing, Round


class KeepsHistory:
    """Admin mixin: `kept_because(obj)` names why a row is history ("" when it may go)."""

    def kept_because(self, obj: Any) -> str:
        """Say why `obj` is history; each admin names its own reasons (none by default)."""
        return ""

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if obj is not None and self.kept_because(obj):
            return False
        # a mixin: the ModelAdmin after it in the class's bases answers
        allowed: bool = super().has_delete_permission(request, obj)  # type: ignore[misc]  # mixin
        return allowed


class KeptRowsFormSet(InlineFormSet):
    """An inline formset whose history rows show their Delete box switched off, with why."""

    def kept_because(self, instance: Any) -> str:
        """Say why `instance` is history; each formset names its own reasons (none by default)."""
        return ""

    def add_fields(self, form: Any, index: int | None) -> None:
        super().add_fields(form, index)
        box = form.fields.get(DELETION_FIELD_NAME)
        reason = self.kept_because(form.instance) if form.instance.pk else ""
        if box is not None and reason:
            box.disabled = True  # a disabled field keeps its initial value, whatever is posted
            box.widget.attrs["title"] = reason


class PairingFormSet(KeptRowsFormSet):
    def kept_because(self, instance: Pairing) -> str:
        return selectors.pairing_kept_because(instance)


def round_kept_because(round_: Round) -> str:
    return selectors.round_kept_because(round_)


def pairing_kept_because(pairing: Pairing) -> str:
    return selectors.pairing_kept_because(pairing)
