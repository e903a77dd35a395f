"""The campaign API: campaigns and memberships (the league adds its endpoints: league.api).

Reads are scoped by the querysets (members see their campaigns; strangers get 404); organisers
manage.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import APIException, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns import services
from campaigns.filters import CampaignFilter, MembershipFilter
from campaigns.house_rules_api import CampaignHouseRulesMixin
from campaigns.models import Campaign, Membership
from campaigns.permissions import CanManageCampaign
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from campaigns.serializers import (
    CampaignInputSerializer,
    CampaignSerializer,
    MembershipInputSerializer,
    MembershipSerializer,
)
from common.orm import count_of
from common.serializers import Serializer
from common.users import signed_in


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "Someone else changed this first."
    default_code = "conflict"


M = TypeVar("M", bound=Model)


class ServiceViewSet(viewsets.GenericViewSet[M]):
    permission_classes = [IsAuthenticated, CanManageCampaign]
    input_serializer_class: type[Serializer]

    def valid_input(self, **kwargs: Any) -> dict[str, Any]:
        serializer = self.input_serializer_class(
            data=self.request.data, context=self.get_serializer_context(), **kwargs
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def answer(self, obj: M, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=obj.pk)).data, status=code)


@extend_schema(tags=["campaigns"])
class CampaignViewSet(
    CampaignHouseRulesMixin,
    ServiceViewSet[Campaign],
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
):
    serializer_class = CampaignSerializer
    input_serializer_class = CampaignInputSerializer
    filterset_class = CampaignFilter
    search_fields = ["name"]
    ordering_fields = ["name", "created_at"]
    ordering = ["name", "id"]

    def get_queryset(self) -> QuerySet[Campaign]:
        return (
            campaigns_visible_to(self.request.user)
            .select_related("club")
            .annotate(member_count=count_of(Membership, "campaign"))
        )

    @extend_schema(request=CampaignInputSerializer, responses={201: CampaignSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input()
        campaign = services.campaign_create(organiser=signed_in(request.user), **data)
        return self.answer(campaign, status.HTTP_201_CREATED)

    @extend_schema(request=CampaignInputSerializer, responses=CampaignSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        campaign = self.get_object()
        data = self.valid_input(instance=campaign, partial=True)
        for fixed in ("club", "system", "slug"):
            data.pop(fixed, None)
        return self.answer(services.campaign_update(campaign=campaign, **data))


@extend_schema(tags=["campaigns"])
class MembershipViewSet(
    ServiceViewSet[Membership], mixins.ListModelMixin, mixins.RetrieveModelMixin
):
    serializer_class = MembershipSerializer
    input_serializer_class = MembershipInputSerializer
    filterset_class = MembershipFilter
    search_fields = ["user__username"]
    ordering_fields = ["joined_at"]
    ordering = ["campaign_id", "id"]

    def get_queryset(self) -> QuerySet[Membership]:
        user = self.request.user
        if not user.is_authenticated:
            return Membership.objects.none()
        visible = Membership.objects.select_related("user")
        if user.is_superuser:
            return visible
        return visible.filter(campaign__in=campaigns_visible_to(user).values("pk"))

    @extend_schema(request=MembershipInputSerializer, responses={201: MembershipSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input()
        missing = {n: ["This field is required."] for n in ("campaign", "user") if n not in data}
        if missing:
            raise serializers.ValidationError(missing)
        if not campaigns_managed_by(request.user).filter(pk=data["campaign"].pk).exists():
            raise PermissionDenied(CanManageCampaign.message)
        return self.answer(services.membership_create(**data), status.HTTP_201_CREATED)

    @extend_schema(request=MembershipInputSerializer, responses=MembershipSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        membership = self.get_object()
        data = self.valid_input(partial=True)
        if "role" not in data:
            raise serializers.ValidationError({"role": ["This field is required."]})
        return self.answer(services.membership_update(membership=membership, role=data["role"]))

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        services.membership_delete(membership=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
