"""`/api/systems/`: the rule systems from the rules registry, for forms and reference sheets.

Rules are public knowledge, so these endpoints need no login.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from common.json_types import JSONObject
from common.serializers import Serializer
from rules.errors import UnknownSystem
from rules.system import RuleSystem, all_systems, get_system


class SystemSummarySerializer(Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    # The stubs read a field called "source" as DRF's own Field.source attribute.
    source = serializers.CharField()  # type: ignore[assignment]  # a field named "source"
    scale = serializers.CharField()
    piece = serializers.CharField()
    house_rules = serializers.BooleanField()
    description = serializers.CharField()


class SystemDetailSerializer(SystemSummarySerializer):
    stats = serializers.ListField(child=serializers.DictField(), help_text="The stat schema.")
    options = serializers.ListField(
        child=serializers.DictField(), help_text="The campaign option (house rule) schema."
    )
    checks = serializers.DictField(child=serializers.DictField())
    activation = serializers.DictField(child=serializers.CharField())
    auto_resolve = serializers.BooleanField()
    statuses = serializers.ListField(child=serializers.CharField())
    tables = serializers.JSONField(help_text="Reference tables under the default options.")


def system_detail(system: RuleSystem) -> JSONObject:
    return {**system.as_json(), "tables": system.tables(system.options.defaults())}


@extend_schema(tags=["systems"])
class SystemViewSet(viewsets.ViewSet):
    permission_classes = [AllowAny]
    lookup_field = "key"
    lookup_value_regex = "[a-z0-9_]+"

    @extend_schema(responses=SystemSummarySerializer(many=True))
    def list(self, request: Request) -> Response:
        return Response(SystemSummarySerializer(list(all_systems()), many=True).data)

    @extend_schema(responses=SystemDetailSerializer)
    def retrieve(self, request: Request, key: str | None = None) -> Response:
        try:
            system = get_system(key or "")
        except UnknownSystem as exc:
            raise NotFound(str(exc)) from None
        return Response(system_detail(system))
