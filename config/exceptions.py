"""API errors: a Django ValidationError raised by a service becomes a 400 naming its fields."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback


def as_api_error(exc: DjangoValidationError) -> ValidationError:
    """Return the DRF ValidationError that carries the same messages."""
    if hasattr(exc, "error_dict"):
        return ValidationError(exc.message_dict)
    return ValidationError({"non_field_errors": exc.messages})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _handle(exc, context)
    if response is None:
        return None
    if isinstance(response.data, list):
        # One documented 400 shape: a bare list of messages becomes `non_field_errors`.
        response.data = {"non_field_errors": response.data}
    _answer_errors_in_json(context)
    return response


def _answer_errors_in_json(context: dict[str, Any]) -> None:
    # `?format=csv` (standings) chose a CSV renderer; an error is documented, and read, as JSON.
    request = context.get("request")
    renderer = getattr(request, "accepted_renderer", None)
    if request is None or renderer is None:
        return
    if renderer.media_type not in ("application/json", "text/html"):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away mid-request (restart, failover, a killed backend). The
        # service's transaction rolled back, so say so plainly and let the client retry.
        return Response(
            {"detail": "the database is unavailable; nothing was saved, please try again"},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, OverflowError | DataError):
        # A filter or id beyond what the database column holds (found by the fuzz run): the
        # request is bad, not the server. DataError is PostgreSQL's, OverflowError SQLite's.
        set_rollback()
        return Response(
            {"detail": "a number or value in the request is out of range"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, ProtectedError | RestrictedError):
        # e.g. deleting a force that fought a battle: the battle's record keeps it
        blocking = (
            exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects
        )
        names = sorted({str(type(obj)._meta.verbose_name_plural) for obj in blocking})
        set_rollback()
        return Response(
            {"detail": f"still referred to by {', '.join(names)}"}, status=status.HTTP_409_CONFLICT
        )
    problems = getattr(exc, "problems", None)
    if isinstance(exc, DjangoValidationError) and problems is not None:
        # An import refused whole: every bad row and column, with row numbers kept as numbers.
        set_rollback()
        return Response({"problems": problems}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        exc = as_api_error(exc)
    return drf_exception_handler(exc, context)
