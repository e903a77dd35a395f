"""`/api/campaigns/{id}/webhooks/`: a campaign's webhooks, managed by its organisers.

Organisers (and the club's admins) list, add, change and remove hooks; the hook's secret is
theirs to read, so they can check each delivery's signature. Other members get 403, strangers
the 404 of any private campaign data, and anonymous requests 401/403.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError as ModelValidationError
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error

from campaigns.models import Campaign
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from common.serializers import Serializer
from notices.models import EventKind, HookFormat, Webhook
from notices.services import webhook_create, webhook_delete, webhook_update


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    events = serializers.ListField(child=serializers.ChoiceField(choices=EventKind.choices))

    class Meta:
        model = Webhook
        fields = [
            "id",
            "campaign",
            "name",
            "url",
            "format",
            "events",
            "active",
            "secret",
            "failures_in_row",
            "last_error",
            "last_failure_at",
            "last_success_at",
            "disabled_at",
            "created_at",
        ]
        read_only_fields = fields


class WebhookInputSerializer(Serializer):
    name = serializers.CharField(max_length=80)
    url = serializers.URLField(max_length=500)
    format = serializers.ChoiceField(choices=HookFormat.choices, default=HookFormat.DISCORD)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EventKind.choices),
        default=list(EventKind.values),
        help_text="The events this hook receives (default: all).",
    )
    active = serializers.BooleanField(default=True)


def campaign_for(request: Request, campaign_pk: str, *, manage: bool) -> Campaign:
    """The campaign in the URL: 404 to whoever may not read it, 403 to a member who may not
    manage it when `manage`."""
    campaign = get_object_or_404(campaigns_visible_to(request.user), pk=campaign_pk)
    if manage and not campaigns_managed_by(request.user).filter(pk=campaign.pk).exists():
        raise PermissionDenied("Only the campaign's organisers or its club's admins manage hooks.")
    return campaign


def _saved(action: Callable[[], Webhook]) -> Webhook:
    try:
        hook: Webhook = action()
    except ModelValidationError as exc:
        raise serializers.ValidationError(as_serializer_error(exc)) from None
    return hook


@extend_schema(tags=["webhooks"])
class WebhookViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Webhook]
):
    serializer_class = WebhookSerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None  # a campaign has a handful of hooks

    def campaign(self) -> Campaign:
        return campaign_for(self.request, self.kwargs["campaign_pk"], manage=True)

    def get_queryset(self) -> QuerySet[Webhook]:
        if getattr(self, "swagger_fake_view", False):
            return Webhook.objects.none()
        return Webhook.objects.filter(campaign=self.campaign()).order_by("pk")

    def _input(self, *, partial: bool = False) -> dict[str, object]:
        serializer = WebhookInputSerializer(data=self.request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    @extend_schema(request=WebhookInputSerializer, responses={201: WebhookSerializer})
    def create(self, request: Request, campaign_pk: str) -> Response:
        campaign = self.campaign()
        data = self._input()
        hook = _saved(lambda: webhook_create(campaign=campaign, **data))
        return Response(WebhookSerializer(hook).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=WebhookInputSerializer, responses=WebhookSerializer)
    def partial_update(self, request: Request, campaign_pk: str, pk: str) -> Response:
        hook = self.get_object()
        data = self._input(partial=True)
        hook = _saved(lambda: webhook_update(webhook=hook, **data))
        return Response(WebhookSerializer(hook).data)

    def destroy(self, request: Request, campaign_pk: str, pk: str) -> Response:
        webhook_delete(webhook=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
