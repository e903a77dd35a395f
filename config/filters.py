"""The API's filter backends, applied to list views only.

DRF runs every filter backend on detail views too (so `?campaign=3` could 404 a force of
another campaign). Nobody filters a single object, and django-filter builds and validates a
whole FilterSet form per request, which was a tenth of a detail request's time under load
(bench/load.py), so detail routes skip them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters import rest_framework as django_filters
from rest_framework import filters
from rest_framework.request import Request


class _ListsOnly:
    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        if getattr(view, "detail", False):
            return queryset
        # A mixin: the backend it is mixed into (django-filter's, DRF's) has filter_queryset.
        return super().filter_queryset(request, queryset, view)  # type: ignore[misc]  # mixin


class DjangoFilterBackend(_ListsOnly, django_filters.DjangoFilterBackend):
    """django-filter's `filterset_fields`, on list views."""


class SearchFilter(_ListsOnly, filters.SearchFilter):
    """`?search=`, on list views."""


class OrderingFilter(_ListsOnly, filters.OrderingFilter):
    """`?ordering=`, on list views."""
