"""Serializer pieces every app's API shares: a brief user, a key scoped to what the requesting
user may see, and a rule system's schema checking a JSON block (a 400 naming each bad field)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db.models import Model, QuerySet
from rest_framework import serializers

from common.users import Visitor
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Schema

# DRF's classes are generic only to the type checker (djangorestframework-stubs); at run time
# they take no subscript, so the apps subclass these names.
if TYPE_CHECKING:
    Serializer = serializers.Serializer[Any]
    ModelSerializer = serializers.ModelSerializer[Any]
    PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField[Any]
else:
    Serializer = serializers.Serializer
    ModelSerializer = serializers.ModelSerializer
    PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField


class BriefUserSerializer(Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


def schema_errors(schema: Schema, data: dict[str, Any], key: str = "stats") -> dict[str, Any]:
    """Return the schema-normalised data, or raise a 400 naming each bad stat."""
    try:
        normalised: dict[str, Any] = schema.validate(data)
    except RulesValidationError as exc:
        raise serializers.ValidationError(
            {key: {name: [msg] for name, msg in exc.errors.items()}}
        ) from None
    return normalised


class VisibleKey(PrimaryKeyRelatedField):
    """A primary key that must name a row the requesting user can see (others: 'not found')."""

    def __init__(self, scope: Callable[[Visitor], QuerySet[Model]], **kwargs: Any) -> None:
        self.scope = scope
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet[Model]:
        return self.scope(self.context["request"].user)
