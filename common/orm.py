"""Query helpers shared by the apps' selectors and API views."""

from __future__ import annotations

from django.db.models import Count, IntegerField, Model, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def count_of(model: type[Model], field: str) -> Coalesce:
    """Count the `model` rows whose `field` points at the outer row, as a correlated subquery.

    Unlike `Count()` over a join it needs no GROUP BY over the list's wide rows, and
    `QuerySet.count()` drops it, so a paginated list's COUNT(*) stays a plain count: under
    load (bench/load.py) both queries were a visible share of a list request.
    """
    rows = (
        model._default_manager.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def prefetched(instance: Model, name: str) -> bool:
    """Say whether `instance.<name>.all()` reads what was loaded with it (a prefetch, or a
    service's `prefetch_related_objects`) rather than querying again."""
    return name in getattr(instance, "_prefetched_objects_cache", {})
