"""Template filters for the player pages."""

from __future__ import annotations

from typing import Any

from django import template

from pages.display import change_text
from rules.errors import UnknownSystem
from rules.system import get_system

register = template.Library()


@register.filter
def words(value: Any) -> str:
    """Write an engine key as words: `no_effect` -> `no effect`."""
    return str(value).replace("_", " ") if value is not None else ""


@register.filter
def change(value: dict[str, Any]) -> str:
    """Write one post-battle change as a short sentence."""
    return change_text(value)


@register.filter
def system_name(key: str) -> str:
    """Return a rule system's name from its key (the key itself if it is not registered)."""
    try:
        return get_system(key).name
    except UnknownSystem:
        return key
