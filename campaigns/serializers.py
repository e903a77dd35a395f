"""Campaign API serializers: output shapes and small input serializers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from campaigns.models import Campaign, CampaignStatus, Club, Membership, Role
from campaigns.selectors import campaigns_visible_to, clubs_administered_by
from common.serializers import BriefUserSerializer, Serializer, VisibleKey, schema_errors
from common.stats import system_for


class ClubBriefSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug"]


class CampaignSerializer(serializers.ModelSerializer[Campaign]):
    club = ClubBriefSerializer(read_only=True)
    options = serializers.JSONField(read_only=True)
    member_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Campaign
        fields = [
            "id",
            "club",
            "name",
            "slug",
            "system",
            "status",
            "options",
            "calendar_date",
            "member_count",
            "created_at",
        ]
        read_only_fields = fields


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    user = BriefUserSerializer(read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "campaign", "user", "role", "joined_at"]
        read_only_fields = fields


class CampaignInputSerializer(Serializer):
    club = VisibleKey(
        clubs_administered_by,
        queryset=Club.objects.all(),
        required=False,
        help_text="A club you administer (on create).",
    )
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=120, required=False)
    system = serializers.CharField(
        max_length=40, required=False, help_text="Rule system key (on create; fixed afterwards)."
    )
    status = serializers.ChoiceField(choices=CampaignStatus.choices, required=False)
    options = serializers.JSONField(required=False, help_text="House-rule options.")
    calendar_date = serializers.DateField(required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None:
            for name in ("club", "system"):
                if name not in attrs:
                    raise serializers.ValidationError({name: ["This field is required."]})
        elif "system" in attrs and attrs["system"] != self.instance.system:
            raise serializers.ValidationError({"system": ["a campaign keeps its rule system"]})
        # on create the system was required above; on a change the campaign keeps its own
        key = attrs.get("system") or (self.instance.system if self.instance is not None else "")
        system = system_for(key)
        if "options" in attrs:
            if not isinstance(attrs["options"], dict):
                raise serializers.ValidationError({"options": ["must be an object"]})
            attrs["options"] = schema_errors(system.options, attrs["options"], key="options")
        return attrs


class MembershipInputSerializer(Serializer):
    campaign = VisibleKey(
        campaigns_visible_to,
        queryset=Campaign.objects.all(),
        required=False,
        help_text="A campaign you organise (on create).",
    )
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), required=False
    )
    role = serializers.ChoiceField(choices=Role.choices, required=False)


# --- the league --------------------------------------------------------------------------------
