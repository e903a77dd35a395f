"""Template filters for the player pages."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from battles.models import BattleFigure
from pages.display import Chip, change_text
from pages.errors import error_summary as summarise
from pages.markup import chips_html, field_html
from pages.schema_forms import Input
from rules.errors import UnknownSystem
from rules.system import get_system

register = template.Library()


@register.filter
def words(value: object) -> str:
    """Write an engine key as words: `no_effect` -> `no effect`."""
    return str(value).replace("_", " ") if value is not None else ""


@register.filter
def change(value: dict[str, object]) -> str:
    """Write one post-battle change as a short sentence."""
    return change_text(value)


@register.filter
def system_name(key: str) -> str:
    """Return a rule system's name from its key (the key itself if it is not registered)."""
    try:
        return get_system(key).name
    except UnknownSystem:
        return key


@register.inclusion_tag("pages/includes/error_summary.html", takes_context=True)
def error_summary(context: Context) -> dict[str, object]:
    """The refused form's summary at the top of the page (nothing when nothing was refused)."""
    return {"summary": summarise(context.get("form"), context.get("problems"))}


@register.simple_tag
def field(input: Input) -> SafeString:
    """One schema field as a typed input (pages.markup: drawn in Python, the table's hot path)."""
    return field_html(input)


@register.simple_tag
def chips(chips: Iterable[Chip], figure: BattleFigure, adjustable: bool = False) -> SafeString:
    """A figure's battle state as chips and its kills (pages.markup), with a × on each chip a
    player may take off when `adjustable`."""
    return chips_html(chips, figure, adjustable)
