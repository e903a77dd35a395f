"""Pagination shared by every list endpoint: keyset pages that cost the same at any depth.

A list is read in pages of `page_size` (capped). The `next`, `previous` and `last` links carry
a cursor: the sort values of the row the page starts after (or before), so the database seeks
along the ordering's index instead of counting its way through an offset. The last page of
20,000 characters then costs what the first does. The id always closes the ordering, so rows
with equal names still have one place each and no row is skipped or shown twice.

`?page=N` still works, as plain offset pages, for clients that jump to a numbered page; it
grows with N as offsets do. `count` is exact either way (one index-only query).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Field, Model, Q, QuerySet
from django.db.models.expressions import Combinable
from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination, PageNumberPagination, _positive_int
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


class CappedPageNumberPagination(PageNumberPagination):
    """Numbered pages (`?page=N`): offset pages, for a client that jumps to page N."""

    page_size = PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE


@dataclass(frozen=True)
class Cursor:
    """Where a page starts: after (or, going back, before) the row with these sort values.

    `values` None with `backwards` means the very end: the last page.
    """

    values: tuple[object, ...] | None
    backwards: bool

    def encode(self) -> str:
        raw = json.dumps({"v": self.values, "b": self.backwards}, default=str)
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        try:
            data = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
            values, backwards = data["v"], data["b"]
        except (ValueError, TypeError, KeyError, binascii.Error, UnicodeDecodeError) as exc:
            raise NotFound("Invalid cursor.") from exc
        if not isinstance(backwards, bool) or not (values is None or isinstance(values, list)):
            raise NotFound("Invalid cursor.")
        return cls(None if values is None else tuple(values), backwards)


#: The model of a paginated list, and what one of its rows is (a model, or `.values()` dicts).
M = TypeVar("M", bound=Model)
R = TypeVar("R")


def _field(model: type[Model], path: str) -> Field[object, object]:
    """Return the model field at the end of an ordering path (`name`, `force__name`)."""
    *hops, last = path.split("__")
    for hop in hops:
        related = model._meta.get_field(hop).related_model
        assert related is not None and not isinstance(related, str)
        model = related
    field = model._meta.get_field(last)
    assert isinstance(field, Field)
    return field


def _value(row: object, path: str) -> object:
    value = row
    for hop in path.split("__"):
        value = getattr(value, hop) if value is not None else None
    return value


def _seek(ordering: Sequence[str], values: Sequence[object], backwards: bool) -> Q:
    """Rows strictly past `values` along `ordering` (before them when going backwards).

    (a, b, id) > (x, y, z) is spelled a > x OR (a = x AND b > y) OR (a = x AND b = y AND id > z),
    each column in its own direction, which PostgreSQL and SQLite both answer from the
    ordering's index.
    """
    seek = Q()
    equal = Q()
    for term, value in zip(ordering, values, strict=True):
        name = term.lstrip("-")
        ascending = not term.startswith("-")
        op = "gt" if ascending != backwards else "lt"
        seek |= equal & Q(**{f"{name}__{op}": value})
        equal &= Q(**{name: value})
    return seek


def _loading_sort_values(queryset: QuerySet[M, R], ordering: Sequence[str]) -> QuerySet[M, R]:
    """Load the sort columns with a page of bare rows (`.only("pk")`), for the cursor links.

    Without them, reading the last row's name for the next link costs one more query.
    """
    names, deferring = queryset.query.deferred_loading
    if deferring or not names:
        return queryset
    direct = [t.lstrip("-") for t in ordering if "__" not in t]
    return queryset.only(*names, *direct)


class KeysetPagination(BasePagination):
    """Cursor pages over the list's ordering, closed by the id; `?page=N` falls back to offsets."""

    page_size = PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    cursor_query_param = "cursor"
    page_size_query_param = "page_size"

    def __init__(self) -> None:
        self.numbered: CappedPageNumberPagination | None = None
        self.ordering: tuple[str, ...] = ()
        self.count = 0
        self.next_values: tuple[object, ...] | None = None
        self.previous_values: tuple[object, ...] | None = None
        self.at_end = True

    # --- reading a page ---------------------------------------------------------------------

    def paginate_queryset(
        self, queryset: QuerySet[M, R], request: Request, view: APIView | None = None
    ) -> list[R] | None:
        self.request = request
        if "page" in request.query_params and self.cursor_query_param not in request.query_params:
            self.numbered = CappedPageNumberPagination()
            return self.numbered.paginate_queryset(queryset, request, view)
        size = self._page_size(request)
        self.ordering = self._ordering(request, queryset, view)
        raw = request.query_params.get(self.cursor_query_param)
        cursor = Cursor.decode(raw) if raw else Cursor(None, False)
        self.count = queryset.count()
        return self._read(queryset, cursor, size)

    def _page_size(self, request: Request) -> int:
        try:
            return _positive_int(
                request.query_params[self.page_size_query_param],
                strict=True,
                cutoff=self.max_page_size,
            )
        except (KeyError, ValueError):
            return self.page_size

    def _ordering(
        self, request: Request, queryset: QuerySet[M, R], view: APIView | None
    ) -> tuple[str, ...]:
        ordering: Sequence[str | Combinable] = ()
        for backend in getattr(view, "filter_backends", ()):
            if hasattr(backend, "get_ordering"):
                ordering = backend().get_ordering(request, queryset, view) or ()
        ordering = ordering or queryset.query.order_by or getattr(view, "ordering", None) or ()
        terms = [t for t in ordering if isinstance(t, str) and t.lstrip("-") not in ("id", "pk")]
        # Ties are broken by the id, running the way the last term runs.
        tie = "-id" if terms and terms[-1].startswith("-") else "id"
        return (*terms, tie)

    def _clean(self, queryset: QuerySet[M, R], values: tuple[object, ...]) -> tuple[object, ...]:
        if len(values) != len(self.ordering):
            raise NotFound("Invalid cursor.")
        cleaned = []
        for term, value in zip(self.ordering, values, strict=True):
            try:
                cleaned.append(_field(queryset.model, term.lstrip("-")).to_python(value))
            except (ValidationError, FieldDoesNotExist, TypeError, ValueError) as exc:
                raise NotFound("Invalid cursor.") from exc
        return tuple(cleaned)

    def _read(self, queryset: QuerySet[M, R], cursor: Cursor, size: int) -> list[R]:
        ordering = self.ordering
        if cursor.backwards:
            ordering = tuple(
                t.removeprefix("-") if t.startswith("-") else f"-{t}" for t in ordering
            )
        rows = _loading_sort_values(queryset, self.ordering).order_by(*ordering)
        if cursor.values is not None:
            values = self._clean(queryset, cursor.values)
            rows = rows.filter(_seek(self.ordering, values, cursor.backwards))
        found = list(rows[: size + 1])
        more, page = len(found) > size, found[:size]
        if cursor.backwards:
            page.reverse()
            self._links(page, before=more, after=cursor.values is not None)
        else:
            self._links(page, before=cursor.values is not None, after=more)
        return page

    def _links(self, page: Sequence[object], *, before: bool, after: bool) -> None:
        self.previous_values = self._values(page[0]) if before and page else None
        self.next_values = self._values(page[-1]) if after and page else None
        self.at_end = not after

    def _values(self, row: object) -> tuple[object, ...]:
        return tuple(_value(row, term.lstrip("-")) for term in self.ordering)

    # --- answering --------------------------------------------------------------------------

    def _link(self, cursor: Cursor | None) -> str | None:
        if cursor is None:
            return None
        url = remove_query_param(self.request.build_absolute_uri(), "page")
        return replace_query_param(url, self.cursor_query_param, cursor.encode())

    def get_paginated_response(self, data: object) -> Response:
        if self.numbered is not None:
            return self.numbered.get_paginated_response(data)
        nxt = None if self.next_values is None else Cursor(self.next_values, False)
        prev = None if self.previous_values is None else Cursor(self.previous_values, True)
        last = None if self.at_end else Cursor(None, True)
        return Response(
            OrderedDict(
                [
                    ("count", self.count),
                    ("next", self._link(nxt)),
                    ("previous", self._link(prev)),
                    ("last", self._link(last)),
                    ("results", data),
                ]
            )
        )

    def get_paginated_response_schema(self, schema: dict[str, object]) -> dict[str, object]:
        link = {"type": "string", "nullable": True, "format": "uri"}
        return {
            "type": "object",
            "required": ["count", "results"],
            "properties": {
                "count": {"type": "integer", "example": 123},
                "next": link,
                "previous": link,
                "last": link,
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, object]]:
        def param(name: str, kind: str, text: str) -> dict[str, object]:
            return {
                "name": name,
                "required": False,
                "in": "query",
                "description": text,
                "schema": {"type": kind},
            }

        return [
            param(
                self.cursor_query_param, "string", "A cursor from a next, previous or last link."
            ),
            param("page", "integer", "A numbered page (offset paging; slower for deep pages)."),
            param(self.page_size_query_param, "integer", f"Rows a page, at most {MAX_PAGE_SIZE}."),
        ]
