"""The API's filter backends, applied to list views only.

DRF runs every filter backend on detail views too (so `?campaign=3` could 404 a force of
another campaign). Nobody filters a single object, and django-filter builds and validates a
whole FilterSet form per request, which was a tenth of a detail request's time under load
(bench/load.py), so detail routes skip them.
"""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Model, QuerySet
from django_filters import rest_framework as django_filters
from rest_framework import filters
from rest_framework.request import Request
from rest_framework.views import APIView

M = TypeVar("M", bound=Model)
R = TypeVar("R")


class _ListsOnly:
    def filter_queryset(
        self, request: Request, queryset: QuerySet[M, R], view: APIView
    ) -> QuerySet[M, R]:
        if getattr(view, "detail", False):
            return queryset
        # A mixin: the backend it is mixed into (django-filter's, DRF's) has filter_queryset.
        filtered: QuerySet[M, R] = super().filter_queryset(request, queryset, view)  # type: ignore[misc]  # mixin
        return filtered


class DjangoFilterBackend(_ListsOnly, django_filters.DjangoFilterBackend):
    """django-filter's `filterset_fields`, on list views."""


class SearchFilter(_ListsOnly, filters.SearchFilter):
    """`?search=`, on list views."""


class OrderingFilter(_ListsOnly, filters.OrderingFilter):
    """`?ordering=`, on list views."""
