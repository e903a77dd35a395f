"""The league API: a campaign's standings (JSON or CSV) and rounds, and the rounds and pairings
themselves. The campaign endpoints are `campaigns.api`'s; this app serves them with the
league's actions added (same paths, same schema).

Reads are scoped by the querysets (members see their campaigns; strangers get 404); organisers
manage; a player reports only their own game. A service's LeagueConflict is a 409.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from django.db.models import Model, Prefetch, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from battles.models import Battle
from campaigns import api as campaigns_api
from campaigns.api import Conflict
from campaigns.models import Campaign, Membership
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from common.serializers import Serializer
from common.users import signed_in
from league import selectors, services
from league.errors import LeagueConflict
from league.filters import PairingFilter, RoundFilter
from league.models import Pairing, Round
from league.serializers import (
    ConfirmInputSerializer,
    LinkBattleInputSerializer,
    PairingResultInputSerializer,
    PairingSerializer,
    RoundInputSerializer,
    RoundSerializer,
    StandingRowSerializer,
    SwapInputSerializer,
    standing_row,
)
from league.services.results import is_organiser_of, side_of

P = ParamSpec("P")
T = TypeVar("T")


def _conflicts_as_409(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a league service; its LeagueConflict (a stale version, a locked round) is a 409."""
    try:
        return call(*args, **kwargs)
    except LeagueConflict as exc:
        raise Conflict(str(exc)) from None


class CSVRenderer(BaseRenderer):
    """Lets `?format=csv` and `standings.csv` choose the CSV answer (the view writes it)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: object,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, object] | None = None,
    ) -> str:
        return data if isinstance(data, str) else ""


PAIRINGS = Pairing.objects.select_related("round", "home__user", "away__user").order_by(
    "table", "pk"
)


def _rounds_of(campaign: Campaign) -> QuerySet[Round]:
    return (
        Round.objects.filter(campaign=campaign)
        .prefetch_related(Prefetch("pairings", queryset=PAIRINGS))
        .order_by("number")
    )


class CampaignLeagueMixin:
    """The league's endpoints on a campaign: standings (JSON or CSV) and its rounds."""

    if TYPE_CHECKING:  # answered by the campaign viewset this is mixed into

        def get_object(self) -> Campaign: ...

    @extend_schema(
        responses={
            (200, "application/json"): StandingRowSerializer(many=True),
            (200, "text/csv"): OpenApiTypes.STR,
        },  # ?format=csv answers CSV
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
    )
    @action(
        detail=True,
        methods=["get"],
        pagination_class=None,  # answers the whole table
        renderer_classes=[JSONRenderer, BrowsableAPIRenderer, CSVRenderer],
    )
    def standings(
        self, request: Request, pk: str | None = None, format: str | None = None
    ) -> HttpResponse | Response:
        campaign = self.get_object()
        table = selectors.league_standings(campaign)
        if request.accepted_renderer.format == "csv":
            response = HttpResponse(table.csv(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.csv"'
            return response
        return Response([standing_row(row, table.names) for row in table.rows])

    @extend_schema(request=RoundInputSerializer, responses=RoundSerializer(many=True))
    @action(detail=True, methods=["get", "post"], pagination_class=None)  # every round, unpaged
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        campaign = self.get_object()
        if request.method == "POST":
            self._generate(campaign, request)
        data = RoundSerializer(_rounds_of(campaign), many=True).data
        return Response(data, status=201 if request.method == "POST" else 200)

    def _generate(self, campaign: Campaign, request: Request) -> None:
        data = RoundInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["kind"] == Round.Kind.SWISS:
            _conflicts_as_409(services.swiss_round_generate, campaign=campaign)
        else:
            services.round_robin_generate(campaign=campaign, legs=data.validated_data["legs"])


@extend_schema(tags=["campaigns"])
class CampaignViewSet(CampaignLeagueMixin, campaigns_api.CampaignViewSet):
    # The campaign endpoints with the league's standings and rounds. No docstring of its own:
    # the schema describes the operations with the mixin's, as it did before the league moved.
    pass


def _campaign_of(obj: Round | Pairing) -> int:
    return obj.campaign_id if isinstance(obj, Round) else obj.round.campaign_id


M = TypeVar("M", bound=Model)


class _LeagueViewSet(viewsets.GenericViewSet[M]):
    permission_classes = [IsAuthenticated]

    def require_organiser(self, obj: Round | Pairing) -> None:
        if not campaigns_managed_by(self.request.user).filter(pk=_campaign_of(obj)).exists():
            raise PermissionDenied("Only the campaign's organisers may do this.")

    def valid(self, serializer_class: type[Serializer], data: object = None) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data if data is None else data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


@extend_schema(tags=["league"])
class RoundViewSet(_LeagueViewSet[Round], mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = RoundSerializer
    filterset_class = RoundFilter
    ordering = ["campaign_id", "number"]

    def get_queryset(self) -> QuerySet[Round]:
        return Round.objects.filter(
            campaign__in=campaigns_visible_to(self.request.user).values("pk")
        ).prefetch_related(Prefetch("pairings", queryset=PAIRINGS))

    def _answer(self, round_: Round) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=round_.pk)).data)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def lock(self, request: Request, pk: str | None = None) -> Response:
        round_ = self.get_object()
        self.require_organiser(round_)
        return self._answer(_conflicts_as_409(services.round_lock, round_=round_))

    @extend_schema(request=SwapInputSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Swap two players between games; rematch warnings come back, nothing is blocked."""
        round_ = self.get_object()
        self.require_organiser(round_)
        data = self.valid(SwapInputSerializer)
        players = {
            m.pk: m
            for m in Membership.objects.filter(
                campaign_id=round_.campaign_id, pk__in=[data["first"], data["second"]]
            )
        }
        missing = [k for k in ("first", "second") if data[k] not in players]
        if missing:
            problem = ["not a member of this campaign"]
            raise serializers.ValidationError({k: problem for k in missing})
        warnings = _conflicts_as_409(
            services.round_swap_players,
            round_=round_,
            first=players[data["first"]],
            second=players[data["second"]],
        )
        body = self.get_serializer(self.get_queryset().get(pk=round_.pk)).data
        return Response({**body, "warnings": [w.message for w in warnings]})


@extend_schema(tags=["league"])
class PairingViewSet(_LeagueViewSet[Pairing], mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = PairingSerializer
    filterset_class = PairingFilter
    ordering = ["round__campaign_id", "round__number", "table"]

    def get_queryset(self) -> QuerySet[Pairing]:
        return PAIRINGS.filter(
            round__campaign__in=campaigns_visible_to(self.request.user).values("pk")
        )

    def _answer(self, pairing: Pairing) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=pairing.pk)).data)

    @extend_schema(request=PairingResultInputSerializer, responses=PairingSerializer)
    @action(detail=True, methods=["post"])
    def report(self, request: Request, pk: str | None = None) -> Response:
        """A player reports their own game's result; both alike settles it."""
        pairing = self.get_object()
        if side_of(pairing, signed_in(request.user)) is None:
            raise PermissionDenied("Only the two players of this game report its result.")
        claim = services.claim_from(self.valid(PairingResultInputSerializer))
        return self._answer(
            _conflicts_as_409(
                services.pairing_report, pairing=pairing, user=signed_in(request.user), claim=claim
            )
        )

    @extend_schema(request=ConfirmInputSerializer, responses=PairingSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """An organiser confirms the reported result, or records one (dispute, correction)."""
        pairing = self.get_object()
        self.require_organiser(pairing)
        data = self.valid(ConfirmInputSerializer)
        claim = services.claim_from(data["result"]) if "result" in data else None
        return self._answer(
            _conflicts_as_409(
                services.pairing_confirm,
                pairing=pairing,
                user=signed_in(request.user),
                claim=claim,
                expected_version=data["version"],
            )
        )

    @extend_schema(request=LinkBattleInputSerializer, responses=PairingSerializer)
    @action(detail=True, methods=["post"], url_path="link-battle")
    def link_battle(self, request: Request, pk: str | None = None) -> Response:
        """Settle the game from a battle fought through the battles app."""
        pairing = self.get_object()
        if side_of(pairing, signed_in(request.user)) is None and not is_organiser_of(
            pairing, signed_in(request.user)
        ):
            raise PermissionDenied("Only the game's players or organisers link its battle.")
        data = self.valid(LinkBattleInputSerializer)
        battle = get_object_or_404(Battle, pk=data["battle"], campaign_id=pairing.round.campaign_id)
        return self._answer(
            _conflicts_as_409(
                services.pairing_link_battle,
                pairing=pairing,
                battle=battle,
                user=signed_in(request.user),
                expected_version=data.get("version"),
            )
        )

    @extend_schema(request=None, responses=PairingSerializer)
    @action(detail=True, methods=["post"], url_path="auto-resolve")
    def auto_resolve(self, request: Request, pk: str | None = None) -> Response:
        """Settle a no-show game by the rules engine's abstract simulation (organisers)."""
        pairing = self.get_object()
        self.require_organiser(pairing)
        return self._answer(
            _conflicts_as_409(
                services.pairing_auto_resolve, pairing=pairing, user=signed_in(request.user)
            )
        )
