"""Template filters for the club rating: a player's rating cell in the standings."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

from ratings.models import PlayerRating

register = template.Library()


@register.filter
def rating_of(ratings: Mapping[int, PlayerRating] | None, member_id: int) -> str:
    """The rating of a standings row's player, rounded (a dash for a player not yet rated)."""
    row = (ratings or {}).get(member_id)
    return f"{row.rating:.0f}" if row is not None else "–"
