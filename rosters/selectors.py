"""Reads for rosters: who sees which force, and roster lists in a constant number of queries."""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Count, Model, Q, QuerySet

from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from common.orm import count_of
from common.users import Visitor
from rosters.models import Character, Force, ServiceRecordEntry, Unit

M = TypeVar("M", bound=Model)


def _force_q(user: Visitor, prefix: str, *, write: bool) -> Q:
    """Match forces (at `prefix`) the user owns or whose campaign they read or manage."""
    campaigns = campaigns_managed_by(user) if write else campaigns_visible_to(user)
    return Q(**{f"{prefix}owner_id": user.pk}) | Q(
        **{f"{prefix}campaign__in": campaigns.values("pk")}
    )


def _scoped(queryset: QuerySet[M], user: Visitor, prefix: str, *, write: bool) -> QuerySet[M]:
    if not user.is_authenticated:
        return queryset.none()
    if user.is_superuser:
        return queryset
    return queryset.filter(_force_q(user, prefix, write=write))


def forces_visible_to(user: Visitor) -> QuerySet[Force]:
    """Return forces a user may read: their own and those in campaigns they belong to."""
    return _scoped(Force.objects.all(), user, "", write=False)


def forces_editable_by(user: Visitor) -> QuerySet[Force]:
    """Return forces a user may change: their own and those in campaigns they organise."""
    return _scoped(Force.objects.all(), user, "", write=True)


def units_visible_to(user: Visitor) -> QuerySet[Unit]:
    return _scoped(Unit.objects.all(), user, "force__", write=False)


def characters_visible_to(user: Visitor) -> QuerySet[Character]:
    return _scoped(Character.objects.all(), user, "force__", write=False)


def force_is_editable_by(force: Force, user: Visitor) -> bool:
    """Say whether the user may change this force (and its units and characters)."""
    return forces_editable_by(user).filter(pk=force.pk).exists()


def character_page(page: list[Character]) -> list[Character]:
    """Return a list page's characters read whole (roster joins and counts), in page order.

    The list pages over bare rows (ids and the ordering columns) and reads the joins and the
    service-record counts for the page only, so a page costs the same at 1,000 characters as
    at 20,000: the database never sorts or counts wide rows it then throws away.
    """
    ids = [c.pk for c in page]
    rows = {c.pk: c for c in character_roster(Character.objects.filter(pk__in=ids))}
    return [rows[pk] for pk in ids if pk in rows]


def character_roster(queryset: QuerySet[Character]) -> QuerySet[Character]:
    """Return characters with force, unit, campaign and service-record count in one query."""
    return queryset.select_related("force__campaign", "unit").annotate(
        service_record_count=count_of(ServiceRecordEntry, "character")
    )


def force_roster(force: Force) -> QuerySet[Character]:
    """Return a force's characters in roster order (unit order, then name)."""
    return character_roster(force.characters.all()).order_by(
        "unit__order", "unit__name", "name", "pk"
    )


def unit_list(queryset: QuerySet[Unit]) -> QuerySet[Unit]:
    """Return units with their force, leader and head count."""
    return queryset.select_related("force", "leader").annotate(
        character_count=count_of(Character, "unit")
    )


def unit_head_counts(force: Force) -> dict[int, int]:
    """Return how many characters each of the force's units holds (1 query)."""
    rows = force.characters.exclude(unit=None).values_list("unit_id").annotate(n=Count("pk"))
    return dict(rows)


def piece_stats(character: Character, piece: str) -> dict[str, object]:
    """Return the stats a character plays with: its unit's where the unit is the playing piece
    (`RuleSystem.piece == "unit"`: Game the 90%, Grits & Glory), else its own.

    A unit-piece system keeps a figure's stats on its unit only; a figure in no unit is a
    piece of its own and keeps its own.
    """
    if piece == "unit" and character.unit_id is not None and character.unit is not None:
        return dict(character.unit.stats or {})
    return dict(character.stats or {})
