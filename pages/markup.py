"""The table's most repeated small pieces, drawn in Python: a form field and a figure's chips.

Each table action draws the whole table again (a check form's seven fields, a chip row per
figure); as templates these two were a third of its rendering (`bench/club_night.py
--costs`: 0.44 ms a field, 0.12 ms a chip row, where this code takes a tenth of that). The
markup is the one the templates drew; `{% field %}` and `{% chips %}` (pages/templatetags/
muster.py) put it in the pages, and the live stream (pages/live.py) sends the same chips.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from battles.models import BattleFigure
from pages.display import Chip
from pages.schema_forms import Input


def _attr(name: str, on: bool) -> str:
    return f" {name}" if on else ""


def _invalid(field: Input) -> str:
    return ' aria-invalid="true"' if field.error else ""


def _notes(field: Input) -> str:
    """What follows every input: where its value came from, its help, and its feedback."""
    parts = []
    if field.source:
        parts.append(
            format_html(
                '<p class="source" id="{}-source" data-testid="source-{}">{}</p>',
                field.id,
                field.name,
                field.source,
            )
        )
    if field.help:
        parts.append(format_html('<p class="help" id="{}-help">{}</p>', field.id, field.help))
    error = (
        format_html('<p class="error" id="{}-error">{}</p>', field.id, field.error)
        if field.error
        else ""
    )
    parts.append(format_html('<div class="feedback" id="{}-feedback">{}</div>', field.id, error))
    return "\n".join(parts)


def _checkbox(field: Input) -> str:
    return format_html(
        '<div class="field field--check">\n<label class="check" for="{id}">\n'
        '<input type="checkbox" id="{id}" name="{name}" value="true"{checked}'
        ' aria-describedby="{by}"{invalid}>\n{label}\n</label>\n{notes}\n</div>',
        id=field.id,
        name=field.name,
        checked=mark_safe(_attr("checked", field.checked)),
        by=field.describedby,
        invalid=mark_safe(_invalid(field)),
        label=field.label,
        notes=mark_safe(_notes(field)),
    )


def _choices(field: Input) -> str:
    kind = "radio" if field.widget == "radios" else "checkbox"
    options = "\n".join(
        format_html(
            '<label class="check" for="{id}-{n}">\n<input type="{kind}" id="{id}-{n}"'
            ' name="{name}" value="{value}"{checked}{invalid}>\n{label}\n</label>',
            id=field.id,
            n=n,
            kind=kind,
            name=field.name,
            value=option.value,
            checked=mark_safe(_attr("checked", option.selected)),
            invalid=mark_safe(_invalid(field)),
            label=option.label,
        )
        for n, option in enumerate(field.options, start=1)
    )
    return format_html(
        '<fieldset class="field" aria-describedby="{by}">\n<legend>{label}</legend>\n'
        '<div class="choices">\n{options}\n</div>\n{notes}\n</fieldset>',
        by=field.describedby,
        label=field.label,
        options=mark_safe(options),
        notes=mark_safe(_notes(field)),
    )


def _control(field: Input) -> str:
    """The input itself, as its widget draws it (a select, a number, a text area or text)."""
    ident = format_html('id="{}" name="{}"', field.id, field.name)
    described = f' aria-describedby="{escape(field.describedby)}"{_invalid(field)}'
    if field.widget == "select":
        options = "".join(
            format_html(
                '<option value="{}"{}>{}</option>',
                option.value,
                mark_safe(_attr("selected", option.selected)),
                option.label,
            )
            for option in field.options
        )
        return f"<select {ident}{described}>\n{options}\n</select>"
    value = escape(field.value)
    if field.widget == "number":
        bounds = "".join(
            f' {name}="{bound}"'
            for name, bound in (("min", field.min), ("max", field.max))
            if bound is not None
        )
        return (
            f'<input type="number" inputmode="numeric" {ident} value="{value}"{bounds}'
            f' step="1"{described}>'
        )
    if field.widget == "textarea":
        return f'<textarea {ident} rows="3"{described}>{value}</textarea>'
    return f'<input type="text" {ident} value="{value}"{described}>'


def field_html(field: Input) -> SafeString:
    """One schema field as a typed input, with its label, source, help and feedback slot."""
    if field.widget == "checkbox":
        return mark_safe(_checkbox(field))
    if field.widget in ("radios", "checkboxes"):
        return mark_safe(_choices(field))
    label = format_html('<label for="{}">{}</label>', field.id, field.label)
    return mark_safe(f'<div class="field">\n{label}\n{_control(field)}\n{_notes(field)}\n</div>')


def chips_html(chips: Iterable[Chip], figure: BattleFigure, adjustable: bool = False) -> SafeString:
    """A figure's battle state as chips, and its kills; `adjustable`: a × on each chip a
    player may take off (the buttons submit the surrounding form.adjust)."""
    items = []
    for chip in chips:
        bad = ' class="is-bad"' if chip.bad else ""
        if adjustable and chip.key:
            body = format_html(
                '<button type="submit" class="chip-button" name="adjust" value="{}:remove"'
                ' aria-label="{}: take off {}" title="Take off one ({})">{}'
                ' <span aria-hidden="true">×</span></button>',
                chip.key,
                figure.name,
                chip.text,
                chip.label,
                chip.text,
            )
        else:
            body = escape(chip.text)
        items.append(f"<li{bad}>{body}</li>")
    if figure.kills:
        kills = f"{figure.kills} kill{'' if figure.kills == 1 else 's'}"
        items.append(f'<li class="is-good">{kills}</li>')
    return mark_safe(f'<ul class="state" data-chips="{figure.pk}">{"".join(items)}</ul>')
