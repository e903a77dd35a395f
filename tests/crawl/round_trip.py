"""The round trip of a form: open it, submit it as a browser would without touching anything,
and compare every row of the database before and after.

A browser sends what the page shows, not what the form holds: an `<input type="date">` whose
value is not a valid yyyy-mm-dd date opens empty and sends "", an unchecked checkbox and a
field the page does not render send nothing. `BrowserParser` reads a page that way;
`RoundTrip` is the crawl that submits each form so and names every row it changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import models

from tests.crawl.crawler import Crawl, Form, PageParser

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ISO_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")

#: Inputs a person edits: a form with none of them is a button that acts (pair, lock, confirm).
EDITABLE = {
    "text",
    "number",
    "date",
    "datetime-local",
    "email",
    "url",
    "password",
    "checkbox",
    "radio",
    "select",
    "textarea",
    "search",
    "tel",
}

#: Rows that record the visit itself rather than the data: the session and the admin's log.
NOT_DATA = {"sessions.session", "admin.logentry"}


class BrowserParser(PageParser):
    """Read forms as a browser submits them, and note which fields a person can edit."""

    def __init__(self) -> None:
        super().__init__()
        self.editable: dict[int, bool] = {}
        self.buttons: dict[int, list[tuple[str, str]]] = {}

    def _form_field(self, tag: str, a: dict[str, str]) -> None:
        kind = a.get("type", "text").lower() if tag == "input" else tag
        if kind == "date" and not ISO_DATE.match(a.get("value", "")):
            a = {**a, "value": ""}  # the browser refuses the value: the input opens empty
        if kind == "number" and not ISO_NUMBER.match(a.get("value", "")):
            a = {**a, "value": ""}
        if kind in EDITABLE and a.get("name") and self._form is not None:
            self.editable[id(self._form)] = True
        super()._form_field(tag, a)

    def _submit(self, a: dict[str, str], kind: str) -> None:
        named = kind == "submit" and a.get("name") and not a.get("formaction")
        if named and self._form is not None and not a.get("hx-post"):
            self.buttons.setdefault(id(self._form), []).append((a["name"], a.get("value", "")))
        super()._submit(a, kind)

    def is_editable(self, form: Form) -> bool:
        return self.editable.get(id(form), False)

    def as_sent(self, form: Form) -> list[Form]:
        """The form as each of its buttons sends it (a "Preview" and a "Save" differ)."""
        sent = form.variants()
        for button in self.buttons.get(id(form), [])[1:]:
            sent.append(Form(form.action, form.method, [*form.fields, button], form.htmx))
        for variant in sent:
            variant.editable = self.is_editable(form)  # type: ignore[attr-defined]  # read by _post_and_follow
        return sent


def _volatile(model: type[models.Model]) -> set[str]:
    """Columns a save stamps by itself (`auto_now`): the moment, not the data."""
    return {
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or f.attname in ("last_login",)
    }


def database_rows() -> dict[str, dict[Any, dict[str, Any]]]:
    """Every row of every model, by model and primary key, without volatile columns."""
    rows: dict[str, dict[Any, dict[str, Any]]] = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in NOT_DATA or model._meta.proxy:
            continue
        skip = _volatile(model)
        names = [f.attname for f in model._meta.concrete_fields if f.attname not in skip]
        rows[label] = {r["pk"]: r for r in model._default_manager.values("pk", *names)}
    return rows


def differences(before: dict, after: dict) -> list[str]:
    """Name each row added, removed or changed (with the columns that changed)."""
    found = []
    for label, old in before.items():
        new = after.get(label, {})
        for pk in new.keys() - old.keys():
            found.append(f"{label} {pk} added")
        for pk in old.keys() - new.keys():
            found.append(f"{label} {pk} removed")
        for pk in old.keys() & new.keys():
            changed = [k for k in old[pk] if old[pk][k] != new[pk].get(k)]
            if changed:
                detail = ", ".join(f"{k}: {old[pk][k]!r} -> {new[pk][k]!r}" for k in changed)
                found.append(f"{label} {pk} changed ({detail})")
    return found


@dataclass
class RoundTrip(Crawl):
    """A crawl that submits every form unchanged and collects what each submission changed.

    `actions` are forms that act by design (they pair a round, add a row, log out), as
    (path pattern, why); any other form that changes a row is a failure of the round trip.
    """

    actions: tuple[tuple[str, str], ...] = ()
    changed: list[str] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)

    def _read(self, url: str, response: Any) -> None:
        kind = response.get("Content-Type", "")
        if not kind.startswith("text/html") or getattr(response, "streaming", False):
            super()._read(url, response)
            return
        parser = BrowserParser()
        parser.feed(response.content.decode(response.charset or "utf-8", "replace"))
        for link in parser.links:
            self._enqueue(link, url)
        for link in parser.htmx_links:
            self._enqueue(link, url, htmx=True)
        for form in parser.forms:
            for variant in parser.as_sent(form):
                self._form(url, variant)

    def _post_and_follow(self, action: str, form: Form, page: str, *, htmx: bool) -> None:
        if not getattr(form, "editable", False) or self._acts(action):
            return  # a button that acts, or a form whose point is to act (the crawl posts them)
        before = database_rows()
        super()._post_and_follow(action, form, page, htmx=htmx)
        after = database_rows()
        self.tried.append(action)
        for change in differences(before, after):
            self.changed.append(f"{self.actor}: POST {action} (from {page}): {change}")

    def _acts(self, action: str) -> bool:
        return any(re.search(pattern, action) for pattern, _ in self.actions)
