"""Roster API serializers: small input serializers that validate through the rule system,
and output serializers that read the rows the selectors fetched (no query per row)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Campaign
from campaigns.selectors import campaigns_visible_to
from common.serializers import BriefUserSerializer, Serializer, VisibleKey, schema_errors
from common.stats import starting_stats, system_for
from rosters.house_rules import rules_for_force
from rosters.models import Character, CharacterStatus, Force, ServiceRecordEntry, Unit
from rosters.selectors import characters_visible_to, forces_visible_to, units_visible_to


class BriefSerializer(Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)


@extend_schema_field(OpenApiTypes.OBJECT)
class StatsField(serializers.JSONField):
    """A stat block: an object whose keys and ranges come from the rule system's schema."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError("must be an object of stat names to values")
        return data


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class WoundsField(serializers.JSONField):
    """Permanent wounds, one text per wound (JSON as stored: no per-item conversion)."""


class ForceField(VisibleKey):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(forces_visible_to, queryset=Force.objects.all(), **kwargs)


class UnitField(VisibleKey):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(units_visible_to, queryset=Unit.objects.all(), **kwargs)


class CampaignField(VisibleKey):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(campaigns_visible_to, queryset=Campaign.objects.all(), **kwargs)


# --- output -------------------------------------------------------------------------------


class ForceSerializer(serializers.ModelSerializer[Force]):
    owner = BriefUserSerializer(read_only=True)
    campaign = BriefSerializer(read_only=True, allow_null=True)
    character_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Force
        fields = [
            "id",
            "name",
            "system",
            "faction",
            "notes",
            "owner",
            "campaign",
            "character_count",
            "created_at",
            "updated_at",
        ]


class UnitSerializer(serializers.ModelSerializer[Unit]):
    leader = BriefSerializer(read_only=True, allow_null=True)
    stats = StatsField(read_only=True)
    character_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Unit
        fields = ["id", "force", "name", "order", "leader", "stats", "character_count"]


class CharacterSerializer(serializers.ModelSerializer[Character]):
    system = serializers.CharField(source="force.system", read_only=True)
    force = BriefSerializer(read_only=True)
    unit = BriefSerializer(read_only=True, allow_null=True)
    campaign = BriefSerializer(source="force.campaign", read_only=True, allow_null=True)
    stats = StatsField(read_only=True)
    permanent_wounds = WoundsField(read_only=True)
    service_record_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Character
        fields = [
            "id",
            "name",
            "rank",
            "status",
            "system",
            "force",
            "unit",
            "campaign",
            "stats",
            "permanent_wounds",
            "notes",
            "photo",
            "service_record_count",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class ServiceRecordEntrySerializer(serializers.ModelSerializer[ServiceRecordEntry]):
    user = BriefUserSerializer(read_only=True, allow_null=True)
    before = serializers.JSONField(read_only=True)
    after = serializers.JSONField(read_only=True)

    class Meta:
        model = ServiceRecordEntry
        fields = ["id", "cause", "before", "after", "note", "user", "battle_id", "created_at"]
        read_only_fields = fields


# --- input --------------------------------------------------------------------------------


class ForceInputSerializer(Serializer):
    name = serializers.CharField(max_length=120)
    system = serializers.CharField(
        max_length=40, required=False, help_text="Rule system key; defaults to the campaign's."
    )
    campaign = CampaignField(allow_null=True, required=False)
    owner = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(),
        required=False,
        help_text="Organisers may create a force for another member; defaults to you.",
    )
    faction = serializers.CharField(max_length=120, allow_blank=True, required=False)
    notes = serializers.CharField(allow_blank=True, required=False)

    def validate_system(self, value: str) -> str:
        system_for(value)
        return value


class UnitInputSerializer(Serializer):
    force = ForceField(required=False)
    name = serializers.CharField(max_length=120)
    order = serializers.IntegerField(min_value=0, max_value=32767, required=False)
    leader = VisibleKey(
        characters_visible_to, queryset=Character.objects.all(), allow_null=True, required=False
    )
    stats = StatsField(required=False)


class CharacterInputSerializer(Serializer):
    force = ForceField(required=False)
    unit = UnitField(allow_null=True, required=False)
    name = serializers.CharField(max_length=120)
    rank = serializers.CharField(max_length=80, allow_blank=True, required=False)
    status = serializers.ChoiceField(choices=CharacterStatus.choices, required=False)
    stats = StatsField(required=False)
    permanent_wounds = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False
    )
    notes = serializers.CharField(allow_blank=True, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        force = self.instance.force if self.instance is not None else attrs.get("force")
        if force is None:
            raise serializers.ValidationError({"force": ["This field is required."]})
        if self.instance is not None and attrs.get("force", force) != force:
            raise serializers.ValidationError({"force": ["a character cannot change force"]})
        unit = attrs.get("unit")
        if unit is not None and unit.force_id != force.pk:
            raise serializers.ValidationError({"unit": [f"{unit} is not a unit of {force}"]})
        schema = rules_for_force(force).stats
        if self.instance is None and "stats" not in attrs:
            attrs["stats"] = starting_stats(schema)  # a fresh recruit
        elif "stats" in attrs:
            base = self.instance.stats if self.instance is not None else {}
            attrs["stats"] = schema_errors(schema, {**base, **attrs["stats"]})
        return attrs


class MoveInputSerializer(Serializer):
    unit = UnitField(allow_null=True)
    note = serializers.CharField(max_length=300, allow_blank=True, required=False)


class NoteInputSerializer(Serializer):
    note = serializers.CharField(max_length=300, allow_blank=True, required=False)


class ForceImportSerializer(Serializer):
    document = serializers.JSONField(
        help_text="A muster.force document (see docs/import-export.md)."
    )
    campaign = CampaignField(allow_null=True, required=False)


class CsvImportSerializer(Serializer):
    file = serializers.FileField(help_text="CSV, UTF-8, header row first.")
