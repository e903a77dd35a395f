"""The roster API: forces, units, characters, a character's service record, import/export.

Each write validates with a small input serializer, makes one service call and answers with
the output serializer. Querysets are scoped to what the user may see, so strangers get 404.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.models import Campaign
from campaigns.selectors import campaigns_managed_by
from common.orm import count_of
from common.serializers import Serializer
from common.users import User, Visitor, signed_in
from rosters import interchange, selectors, services
from rosters.filters import CharacterFilter, ForceFilter, ServiceRecordFilter, UnitFilter
from rosters.models import Character, Force, ServiceRecordEntry, Unit
from rosters.permissions import CanEditRoster
from rosters.serializers import (
    CharacterInputSerializer,
    CharacterSerializer,
    CsvImportSerializer,
    ForceImportSerializer,
    ForceInputSerializer,
    ForceSerializer,
    MoveInputSerializer,
    NoteInputSerializer,
    ServiceRecordEntrySerializer,
    UnitInputSerializer,
    UnitSerializer,
)

#: The model a roster view set serves (a force, a unit, a character).
M = TypeVar("M", bound=Model)

IMPORT_PROBLEMS = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description="Refused whole: `problems` lists each bad row and column (or JSON path).",
)


def _require_editable(force: Force, user: Visitor) -> None:
    if not selectors.force_is_editable_by(force, user):
        raise PermissionDenied(CanEditRoster.message)


def _check_organiser_for(owner: User, campaign: Campaign | None, user: User) -> None:
    """Let an organiser create a force for a member of their campaign, and no one else."""
    if campaign is None or not campaigns_managed_by(user).filter(pk=campaign.pk).exists():
        raise PermissionDenied("Only an organiser may create a force for another member.")
    if not campaign.memberships.filter(user=owner).exists():
        raise serializers.ValidationError({"owner": [f"{owner} is not in {campaign}"]})


class RosterViewSet(viewsets.GenericViewSet[M]):
    """Shared plumbing: input serializer in, one service call, output serializer out."""

    permission_classes = [IsAuthenticated, CanEditRoster]
    input_serializer_class: type[Serializer]
    #: An action's own throttle scope (common.throttling), e.g. "imports"; None: by method.
    throttle_scope: str | None = None

    def valid_input(
        self, serializer_class: type[Serializer] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        serializer = (serializer_class or self.input_serializer_class)(
            data=self.request.data, context=self.get_serializer_context(), **kwargs
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def answer(self, obj: M, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=obj.pk)  # re-read with the list's annotations
        return Response(self.get_serializer(fresh).data, status=code)


@extend_schema(tags=["forces"])
class ForceViewSet(RosterViewSet[Force], mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = ForceSerializer
    input_serializer_class = ForceInputSerializer
    filterset_class = ForceFilter
    search_fields = ["name", "faction"]
    ordering_fields = ["name", "created_at"]
    ordering = ["name", "id"]

    def get_queryset(self) -> QuerySet[Force]:
        return (
            selectors.forces_visible_to(self.request.user)
            .select_related("owner", "campaign")
            .annotate(character_count=count_of(Character, "force"))
        )

    @extend_schema(request=ForceInputSerializer, responses={201: ForceSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input()
        user = signed_in(request.user)
        owner = data.pop("owner", user)
        if owner != user:
            _check_organiser_for(owner, data.get("campaign"), user)
        force = services.force_create(owner=owner, **data)
        return self.answer(force, status.HTTP_201_CREATED)

    @extend_schema(request=ForceInputSerializer, responses=ForceSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        force = self.get_object()
        data = self.valid_input(partial=True)
        data.pop("owner", None)
        if "system" in data and data.pop("system") != force.system:
            raise serializers.ValidationError({"system": ["a force keeps its rule system"]})
        return self.answer(services.force_update(force=force, **data))

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        try:
            services.force_delete(force=self.get_object())
        except services.ForceHasFought as exc:
            # `detail` as every documented 409 has it; the field key for clients that read it.
            body = {"detail": " ".join(exc.messages), **exc.message_dict}
            return Response(body, status=status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Export as muster.force JSON")
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str | None = None) -> Response:
        force = self.get_object()
        response = Response(interchange.force_export_json(force=force))
        response["Content-Disposition"] = f'attachment; filename="force-{force.pk}.json"'
        return response

    @extend_schema(
        request=ForceImportSerializer, responses={201: ForceSerializer, 400: IMPORT_PROBLEMS}
    )
    @action(detail=False, methods=["post"], url_path="import", throttle_scope="imports")
    def import_json(self, request: Request) -> Response:
        data = self.valid_input(ForceImportSerializer)
        force = interchange.force_import_json(
            document=data["document"],
            owner=signed_in(request.user),
            campaign=data.get("campaign"),
            user=signed_in(request.user),
        )
        return self.answer(force, status.HTTP_201_CREATED)

    @extend_schema(methods=["get"], responses={(200, "text/csv"): OpenApiTypes.STR})
    @extend_schema(
        methods=["post"],
        request={"multipart/form-data": CsvImportSerializer},
        responses={201: CharacterSerializer(many=True), 400: IMPORT_PROBLEMS},
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path="characters-csv",
        throttle_scope="imports",
        parser_classes=[MultiPartParser, FormParser, JSONParser],
    )
    def characters_csv(self, request: Request, pk: str | None = None) -> HttpResponse | Response:
        force = self.get_object()
        if request.method == "GET":
            response = HttpResponse(
                interchange.force_export_csv(force=force), content_type="text/csv; charset=utf-8"
            )
            response["Content-Disposition"] = f'attachment; filename="force-{force.pk}.csv"'
            return response
        upload = self.valid_input(CsvImportSerializer)["file"]
        data = upload.read(interchange.CSV_MAX_BYTES + 1)  # decoded strictly by the import
        created = interchange.force_import_csv(force=force, text=data, user=signed_in(request.user))
        rows = selectors.character_roster(Character.objects.filter(pk__in=[c.pk for c in created]))
        rows = rows.order_by("pk")
        return Response(
            CharacterSerializer(rows, many=True, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema(tags=["units"])
class UnitViewSet(RosterViewSet[Unit], mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = UnitSerializer
    input_serializer_class = UnitInputSerializer
    filterset_class = UnitFilter
    search_fields = ["name"]
    ordering_fields = ["order", "name"]
    ordering = ["force_id", "order", "name", "id"]

    def get_queryset(self) -> QuerySet[Unit]:
        return selectors.unit_list(selectors.units_visible_to(self.request.user))

    @extend_schema(request=UnitInputSerializer, responses={201: UnitSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input()
        if "force" not in data:
            raise serializers.ValidationError({"force": ["This field is required."]})
        _require_editable(data["force"], request.user)
        data.pop("leader", None)  # a new unit has no members yet to lead it
        return self.answer(services.unit_create(**data), status.HTTP_201_CREATED)

    @extend_schema(request=UnitInputSerializer, responses=UnitSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        unit = self.get_object()
        data = self.valid_input(partial=True)
        if data.pop("force", unit.force) != unit.force:
            raise serializers.ValidationError({"force": ["a unit cannot change force"]})
        return self.answer(services.unit_update(unit=unit, **data))

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        services.unit_delete(unit=self.get_object(), user=signed_in(request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["characters"])
class CharacterViewSet(RosterViewSet[Character], mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = CharacterSerializer
    input_serializer_class = CharacterInputSerializer
    filterset_class = CharacterFilter
    search_fields = ["name", "rank"]
    ordering_fields = ["name", "status", "created_at"]
    ordering = ["name", "id"]

    def get_queryset(self) -> QuerySet[Any]:
        # Characters, except for the service-record action, which lists a character's entries.
        characters = selectors.characters_visible_to(self.request.user)
        if self.action == "service_record":  # that action lists and filters entries
            return ServiceRecordEntry.objects.filter(character__in=characters.values("pk"))
        if self.action == "list":  # bare rows to page over; the page is read whole below
            return characters.only("pk")
        return selectors.character_roster(characters)

    def paginate_queryset(self, queryset: QuerySet[Any]) -> list[Any] | None:
        page = super().paginate_queryset(queryset)
        if page is None or self.action != "list":
            return page
        return selectors.character_page(page)

    @extend_schema(request=CharacterInputSerializer, responses={201: CharacterSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input()
        _require_editable(data["force"], request.user)
        character = services.character_create(user=signed_in(request.user), **data)
        return self.answer(character, status.HTTP_201_CREATED)

    @extend_schema(request=CharacterInputSerializer, responses=CharacterSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        character = self.get_object()
        data = self.valid_input(instance=character, partial=True)
        data.pop("force", None)
        return self.answer(
            services.character_update(character=character, user=signed_in(request.user), **data)
        )

    @extend_schema(request=MoveInputSerializer, responses=CharacterSerializer)
    @action(detail=True, methods=["post"])
    def move(self, request: Request, pk: str | None = None) -> Response:
        character = self.get_object()
        data = self.valid_input(MoveInputSerializer)
        return self.answer(
            services.character_move(character=character, user=signed_in(request.user), **data)
        )

    @extend_schema(request=NoteInputSerializer, responses=CharacterSerializer)
    @action(detail=True, methods=["post"])
    def retire(self, request: Request, pk: str | None = None) -> Response:
        character = self.get_object()
        data = self.valid_input(NoteInputSerializer)
        return self.answer(
            services.character_retire(character=character, user=signed_in(request.user), **data)
        )

    @extend_schema(responses=ServiceRecordEntrySerializer(many=True))
    @action(
        detail=True,
        methods=["get"],
        url_path="service-record",
        serializer_class=ServiceRecordEntrySerializer,
        filterset_class=ServiceRecordFilter,
        search_fields=["note"],
        ordering_fields=["created_at"],
        ordering=["created_at", "id"],
    )
    def service_record(self, request: Request, pk: str | None = None) -> Response:
        character = get_object_or_404(selectors.characters_visible_to(request.user), pk=pk)
        # This action filters the character's entries: the stubs tie filter_queryset to the
        # view set's model (characters).
        entries = self.filter_queryset(
            character.service_record.select_related("user")  # type: ignore[arg-type]  # entries
        )
        page = self.paginate_queryset(entries)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
