"""API errors: a Django ValidationError raised by a service becomes a 400 naming its fields."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, RestrictedError
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback


def as_api_error(exc: DjangoValidationError) -> ValidationError:
    """Return the DRF ValidationError that carries the same messages."""
    if hasattr(exc, "error_dict"):
        return ValidationError(exc.message_dict)
    return ValidationError({"non_field_errors": exc.messages})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ProtectedError | RestrictedError):
        # e.g. deleting a force that fought a battle: the battle's record keeps it
        blocking = getattr(exc, "protected_objects", None) or exc.restricted_objects
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
