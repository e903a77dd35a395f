"""`/api/campaigns/{id}/house-rules/`: a campaign's house rules, their versions and a preview.

Members read (strangers get the 404 of any private campaign data); organisers save a new
version and preview an edit's odds (403 for other members). A pack that does not validate is
a 400 naming its bad cell (`detail`, `table`, `row`, `column`), and nothing is written. Saving
the pack the campaign already plays under answers 200 with the same version: a double tap or a
retried request makes no second version.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.models import Campaign, HouseRules, display_name
from campaigns.services.house_rules import (
    NOTE_MAX,
    house_rules_changes,
    house_rules_current,
    house_rules_filename,
    house_rules_preview,
    house_rules_save,
    house_rules_version,
    house_rules_versions,
)
from common.serializers import Serializer
from rules import house
from rules.house import Comparison, PackError
from rules.system import get_system

# --- shapes ------------------------------------------------------------------------------------


class HouseRulesInputSerializer(Serializer):
    document = serializers.JSONField(
        help_text="The pack: {format, format_version, system, name?, tables: {table: [rows]}}, "
        "as GET answers it or `python -m rules house-template SYSTEM` writes it."
    )
    note = serializers.CharField(
        max_length=NOTE_MAX, allow_blank=True, default="", help_text="What changed, in a line."
    )


class HouseRulesPreviewInputSerializer(Serializer):
    document = serializers.JSONField(help_text="The edited pack, not saved.")


class HouseRulesVersionSerializer(Serializer):
    number = serializers.IntegerField()
    digest = serializers.CharField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = serializers.IntegerField(allow_null=True, help_text="The user who saved it.")
    created_by_name = serializers.CharField(allow_null=True)


class HouseRulesSerializer(Serializer):
    version = serializers.IntegerField(
        allow_null=True, help_text="The version new battles play under (null: as written)."
    )
    digest = serializers.CharField(allow_null=True)
    document = serializers.JSONField(
        allow_null=True,
        help_text="The current pack, or the template (every editable table as written) when "
        "the campaign has none; null when the system has no editable tables.",
    )
    schema = serializers.JSONField(
        allow_null=True, help_text="The editable tables: columns, types and limits."
    )
    versions = HouseRulesVersionSerializer(many=True)
    changes = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the current version changed from the one before (v1: from the rules "
        "as written), a sentence each.",
    )
    changes_from_rules_as_written = serializers.ListField(child=serializers.CharField())


class OddsSerializer(Serializer):
    outcomes = serializers.DictField(child=serializers.FloatField())
    exact = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text='Exact chances as "p/q".'
    )


class ComparisonSerializer(Serializer):
    # A declared field: DRF's metaclass takes it off the class, so it never shadows Field.label.
    label = serializers.CharField()  # type: ignore[assignment]  # the stubs see Field.label
    check = serializers.CharField()
    params = serializers.DictField()
    before = OddsSerializer(allow_null=True, help_text="null: the check did not exist before.")
    after = OddsSerializer(allow_null=True)


class HouseRulesPreviewSerializer(Serializer):
    before_version = serializers.IntegerField(allow_null=True)
    changes = serializers.ListField(child=serializers.CharField())
    comparisons = ComparisonSerializer(many=True)


PACK_ERROR = OpenApiResponse(
    inline_serializer(
        "HouseRulesPackError",
        {
            # Not required: a body that is not a pack request at all (no `document`, a
            # `document` of null) is answered like every other endpoint's 400, field by field.
            "detail": serializers.CharField(required=False),
            "message": serializers.CharField(required=False),
            "table": serializers.CharField(required=False),
            "row": serializers.IntegerField(
                allow_null=True, required=False, help_text="0-based; null: none"
            ),
            "column": serializers.CharField(required=False),
        },
    ),
    description="The pack does not validate: `detail` names the bad cell in one line, with "
    '`table`, `row` and `column`; a malformed body names its fields instead (`{"document": '
    "[...]}`). Nothing was written.",
)


# --- answers -----------------------------------------------------------------------------------


def _version_json(version: HouseRules) -> dict[str, object]:
    user = version.created_by
    return {
        "number": version.number,
        "digest": version.digest,
        "note": version.note,
        "created_at": version.created_at,
        "created_by": user.pk if user else None,
        "created_by_name": display_name(user) if user else None,
    }


def house_rules_answer(campaign: Campaign) -> dict[str, object]:
    """The campaign's house rules as the API answers them (one query: the versions)."""
    system = get_system(campaign.system)
    versions = list(house_rules_versions(campaign))
    current = versions[0] if versions else None
    previous = versions[1] if len(versions) > 1 else None
    has_tables = system.house is not None
    document = None
    if has_tables:
        document = current.document if current else house.template(system)
    return {
        "version": current.number if current else None,
        "digest": current.digest if current else None,
        "document": document,
        "schema": system.house.as_json() if system.house is not None else None,
        "versions": [_version_json(v) for v in versions],
        "changes": house_rules_changes(campaign, previous, current) if current else [],
        "changes_from_rules_as_written": (
            house_rules_changes(campaign, None, current) if current else []
        ),
    }


def _odds_json(
    odds: Mapping[str, float | Fraction] | None,
) -> dict[str, dict[str, float] | dict[str, str] | None] | None:
    if odds is None:
        return None
    exact = all(isinstance(v, Fraction | int) for v in odds.values())
    return {
        "outcomes": {k: float(v) for k, v in odds.items()},
        "exact": {k: f"{Fraction(v).numerator}/{Fraction(v).denominator}" for k, v in odds.items()}
        if exact
        else None,
    }


def comparison_json(comparison: Comparison) -> dict[str, object]:
    """A before/after comparison with exact chances as "p/q" text beside the floats."""
    data = comparison.as_json()
    return {**data, "before": _odds_json(data["before"]), "after": _odds_json(data["after"])}


def pack_error(exc: PackError) -> Response:
    """The 400 naming the bad cell."""
    return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)


# --- the endpoints -------------------------------------------------------------------------


class CampaignHouseRulesMixin:
    """A campaign's house-rules endpoints, on the campaign viewset (its permissions: members
    read, organisers write)."""

    #: An action's own throttle scope (common.throttling); None: by method (PUT/POST: writes).
    throttle_scope: str | None = None

    if TYPE_CHECKING:  # answered by the campaign viewset this is mixed into

        def get_object(self) -> Campaign: ...

    @extend_schema(
        methods=["GET"],
        responses=HouseRulesSerializer,
        summary="The campaign's house rules: current pack, schema, versions, changes",
    )
    @extend_schema(
        methods=["PUT", "POST"],
        request=HouseRulesInputSerializer,
        responses={201: HouseRulesSerializer, 200: HouseRulesSerializer, 400: PACK_ERROR},
        summary="Save the pack as the next version (organisers)",
        description="201 with the new version; 200 and the same version if the pack is the "
        "one the campaign already plays under. A bad pack is a 400 naming its cell.",
    )
    @action(
        detail=True, methods=["get", "put", "post"], url_path="house-rules", url_name="house-rules"
    )
    def house_rules(self, request: Request, pk: str | None = None) -> Response:
        campaign = self.get_object()
        if request.method == "GET":
            return Response(house_rules_answer(campaign))
        data = _valid(HouseRulesInputSerializer, request)
        before = house_rules_current(campaign)
        try:
            saved = house_rules_save(
                campaign=campaign, document=data["document"], user=request.user, note=data["note"]
            )
        except PackError as exc:
            return pack_error(exc)
        created = before is None or saved.pk != before.pk
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(house_rules_answer(campaign), status=code)

    @extend_schema(
        request=HouseRulesPreviewInputSerializer,
        responses={200: HouseRulesPreviewSerializer, 400: PACK_ERROR},
        summary="Before/after odds of the checks an edit touches (organisers; not saved)",
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="house-rules/preview",
        url_name="house-rules-preview",
        throttle_scope="simulate",  # prices up to two dozen checks twice: a simulation's cost
    )
    def house_rules_odds(self, request: Request, pk: str | None = None) -> Response:
        campaign = self.get_object()
        data = _valid(HouseRulesPreviewInputSerializer, request)
        current = house_rules_current(campaign)
        try:
            comparisons = house_rules_preview(
                campaign=campaign, document=data["document"], before=current
            )
            changes = _edit_changes(campaign, current, data["document"])
        except PackError as exc:
            return pack_error(exc)
        return Response(
            {
                "before_version": current.number if current else None,
                "changes": changes,
                "comparisons": [comparison_json(c) for c in comparisons],
            }
        )

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="One version's pack as JSON (for `python -m rules ... --house FILE`)",
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"house-rules/versions/(?P<number>[0-9]{1,9})",
        url_name="house-rules-version",
    )
    def house_rules_export(
        self, request: Request, pk: str | None = None, number: str = ""
    ) -> Response:
        campaign = self.get_object()
        version = house_rules_version(campaign, int(number))
        if version is None:
            raise Http404(f"{campaign} has no house-rules version {number}")
        filename = house_rules_filename(campaign, version)
        return Response(
            version.document, headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )


def _valid(serializer_class: type[Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _edit_changes(campaign: Campaign, current: HouseRules | None, document: Any) -> list[str]:
    """What the (unsaved, valid) edit changes from the current version, a sentence each."""
    system = get_system(campaign.system)
    if system.house is None:
        return []
    before = house.load(system, current.document) if current else None
    return [
        change.sentence(system.house)
        for change in house.diff(system, before, house.load(system, document))
    ]
