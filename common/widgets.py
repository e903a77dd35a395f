"""Widgets shared by the apps' forms."""

from __future__ import annotations

from typing import Any

from django import forms

#: The only format an `<input type="date">` accepts as its value (HTML's "valid date string").
ISO_DATE = "%Y-%m-%d"


class DateInput(forms.DateInput):
    """A browser date picker that opens on the stored date.

    Without `format`, Django renders the date in the site's locale (`26/11/2026` in en-gb),
    which the browser refuses: the input opens empty and saving the form unchanged erases it.
    """

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATE)
