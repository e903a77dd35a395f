"""The battle API: start, the table assistant, result entry, auto-resolve, finish, audit.

Each write validates a small input serializer, makes one service call and answers with the
battle. Reads are scoped: strangers get 404; members of the campaign read; only the players
whose forces fight and the campaign's organisers write (403 for other members).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db.models import Model, Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer, Serializer

from battles import selectors, services
from battles.errors import BattleConflict
from battles.models import Battle, BattleEvent, BattleFigure, BattleSide
from battles.serializers import (
    ActivationInputSerializer,
    BattleInputSerializer,
    BattleListSerializer,
    BattleSerializer,
    DisputeInputSerializer,
    EventSerializer,
    LedgerSerializer,
    ResolveInputSerializer,
    ResultInputSerializer,
    SideSerializer,
    SimulateInputSerializer,
)
from battles.services.breakpoints import BREAKPOINTS
from battles.services.common import as_validation
from battles.services.setup import SideChoice, snapshot_stats
from battles.services.simulate import sim_sides
from campaigns.selectors import campaigns_visible_to
from campaigns.services.house_rules import rules_for_campaign
from common.users import signed_in
from rosters.models import CharacterStatus
from rosters.selectors import force_is_editable_by
from rules.simulate import SimFigure
from rules.system import RuleSystem, get_system

#: A row of a list the battle owns (an event, a ledger row).
Row = TypeVar("Row", bound=Model)

RUNS = OpenApiParameter("runs", int, description="How many battles to simulate (1-10,000).")


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


def _with_sides(battles: QuerySet[Battle]) -> QuerySet[Battle]:
    return battles.select_related("house_rules").prefetch_related(
        Prefetch("sides", BattleSide.objects.select_related("force").order_by("index")),
        Prefetch("figures", BattleFigure.objects.order_by("side_id", "pk")),
    )


def _conflicts_as_409(call: Callable[..., Any], **kwargs: Any) -> Any:
    try:
        return call(**kwargs)
    except BattleConflict as exc:
        raise Conflict(str(exc)) from None


def _side_choices(sides: list[dict[str, Any]]) -> list[SideChoice]:
    return [
        SideChoice(
            force=s["force"],
            extras=tuple(s["extras"]),
            characters=tuple(s["characters"]) if s["characters"] is not None else None,
        )
        for s in sides
    ]


@extend_schema(tags=["battles"])
class BattleViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Battle]
):
    serializer_class = BattleSerializer
    ordering = ["-created_at", "-id"]
    ordering_fields = ["created_at"]
    filterset_fields = ["campaign", "status", "system"]
    #: An action's own throttle scope (common.throttling), e.g. "simulate"; None: by method.
    throttle_scope: str | None = None

    def get_queryset(self) -> QuerySet[Battle]:
        battles = selectors.battles_visible_to(self.request.user)
        if self.action == "list":
            return battles
        return _with_sides(battles)

    def get_serializer_class(self) -> type[BaseSerializer[Battle]]:
        return BattleListSerializer if self.action == "list" else BattleSerializer

    def valid_input(self, serializer_class: type[Serializer[object]]) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data, context={"request": self.request})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def playable(self) -> Battle:
        """The battle an action changes: 404 where the user may not read it, 403 where they
        may read but not change it.

        Its own players, who make nearly every table action, are let through on one query;
        the service reads the battle again under its lock anyway. Anyone else (an organiser,
        a stranger) takes the full visibility and organiser checks.
        """
        battle = self.played_by_user()
        if battle is not None:
            return battle
        battle = self.get_object()
        if not selectors.battle_is_playable_by(battle, self.request.user):
            raise PermissionDenied(
                "Only the players whose forces fight in this battle, or "
                "an organiser of its campaign, may change it."
            )
        return battle

    def played_by_user(self) -> Battle | None:
        """The battle when the user plays one of its sides (which also lets them read it)."""
        pk = str(self.kwargs.get(self.lookup_field, ""))
        if not pk.isdigit() or not self.request.user.is_authenticated:
            return None
        plays = Battle.objects.filter(pk=int(pk), sides__force__owner_id=self.request.user.pk)
        # Only its id: every action's service reads the battle afresh under its row lock.
        battle = plays.only("pk").order_by().first()
        if battle is not None:
            self.check_object_permissions(self.request, battle)
        return battle

    def answer(self, battle: Battle, code: int = status.HTTP_200_OK) -> Response:
        """Serialize the battle as it is now in the database (after a change: reloaded)."""
        return self.serialized(self.reloaded(battle.pk), code)

    def reloaded(self, pk: int) -> Battle:
        """Reload a battle the action already found visible (`get_object`), with its sides.

        Not scoped again: building the visibility query costs more than the action's writes
        (bench/live.py profile), and the user has just been allowed to change this battle.
        """
        return _with_sides(Battle.objects.all()).get(pk=pk)

    def serialized(self, battle: Battle, code: int = status.HTTP_200_OK) -> Response:
        context = {"request": self.request, "breakpoints_tracked": battle.system in BREAKPOINTS}
        return Response(BattleSerializer(battle, context=context).data, status=code)

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        # get_object() already loaded it with its sides and figures: no second load.
        return self.serialized(self.get_object())

    @extend_schema(request=BattleInputSerializer, responses={201: BattleSerializer})
    def create(self, request: Request) -> Response:
        data = self.valid_input(BattleInputSerializer)
        campaign = None
        if data["campaign"] is not None:
            campaign = get_object_or_404(campaigns_visible_to(request.user), pk=data["campaign"])
        if not any(force_is_editable_by(s["force"], request.user) for s in data["sides"]):
            raise PermissionDenied("Start a battle with at least one force you may change.")
        battle = services.battle_start(
            sides=_side_choices(data["sides"]),
            campaign=campaign,
            scenario=data["scenario"],
            campaign_date=data["campaign_date"],
            options=data["options"],
            user=signed_in(request.user),
        )
        return self.answer(battle, status.HTTP_201_CREATED)

    @extend_schema(request=ResolveInputSerializer, responses={201: EventSerializer})
    @action(detail=True, methods=["post"])
    def resolve(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid_input(ResolveInputSerializer)
        event = _conflicts_as_409(
            services.battle_resolve, battle=self.playable(), user=signed_in(request.user), **data
        )
        return Response(self._event_answer(event), status=status.HTTP_201_CREATED)

    def _event_answer(self, event: BattleEvent) -> dict[str, Any]:
        """The event, with the battle's sides as the action left them.

        The sides are those the service read under its lock and changed in place (`seat`),
        each with its force: no reload (it cost more than the action's own writes).
        """
        battle = event.battle
        context = {"request": self.request, "breakpoints_tracked": battle.system in BREAKPOINTS}
        sides = sorted(battle.sides.all(), key=lambda side: side.index)
        return {
            **EventSerializer(event).data,
            "sides": SideSerializer(sides, many=True, context=context).data,
        }

    @extend_schema(request=None, responses={200: EventSerializer})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        event = _conflicts_as_409(
            services.battle_void_last, battle=self.playable(), user=signed_in(request.user)
        )
        return Response(self._event_answer(event))

    @extend_schema(request=ActivationInputSerializer, responses={201: EventSerializer})
    @action(detail=True, methods=["post"])
    def activation(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid_input(ActivationInputSerializer)
        event = _conflicts_as_409(
            services.battle_activation_start,
            battle=self.playable(),
            user=signed_in(request.user),
            **data,
        )
        return Response(self._event_answer(event), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: EventSerializer})
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, pk: str | None = None) -> Response:
        event = _conflicts_as_409(
            services.battle_activation_draw, battle=self.playable(), user=signed_in(request.user)
        )
        return Response(self._event_answer(event), status=status.HTTP_201_CREATED)

    @extend_schema(request=ResultInputSerializer, responses={200: BattleSerializer})
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid_input(ResultInputSerializer)
        battle = _conflicts_as_409(
            services.battle_record_result,
            battle=self.playable(),
            user=signed_in(request.user),
            **data,
        )
        return self.answer(battle)

    @extend_schema(request=None, responses={200: BattleSerializer})
    @action(detail=True, methods=["post"], url_path="auto-resolve", throttle_scope="simulate")
    def auto_resolve(self, request: Request, pk: str | None = None) -> Response:
        battle = _conflicts_as_409(
            services.battle_auto_resolve, battle=self.playable(), user=signed_in(request.user)
        )
        return self.answer(battle)

    @extend_schema(
        request=None,
        responses={202: BattleSerializer},
        summary="Report the result (agreed for your sides; the others confirm)",
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        battle = _conflicts_as_409(
            services.battle_finish, battle=self.playable(), user=signed_in(request.user)
        )
        return self.answer(battle, status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=None,
        responses={202: BattleSerializer},
        summary="Confirm a reported result for your own side",
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        battle = _conflicts_as_409(
            services.battle_confirm, battle=self.playable(), user=signed_in(request.user)
        )
        return self.answer(battle, status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=DisputeInputSerializer,
        responses={200: BattleSerializer},
        summary="Dispute a reported result (an organiser settles it)",
    )
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid_input(DisputeInputSerializer)
        battle = _conflicts_as_409(
            services.battle_dispute, battle=self.playable(), user=signed_in(request.user), **data
        )
        return self.answer(battle)

    @extend_schema(
        request=None,
        responses={202: BattleSerializer},
        summary="Settle a disputed or unanswered result (organisers)",
    )
    @action(detail=True, methods=["post"])
    def settle(self, request: Request, pk: str | None = None) -> Response:
        battle = _conflicts_as_409(
            services.battle_settle, battle=self.playable(), user=signed_in(request.user)
        )
        return self.answer(battle, status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=None,
        responses={200: BattleSerializer},
        summary="Take a result not yet agreed back to the table to correct it",
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        battle = _conflicts_as_409(
            services.battle_reopen, battle=self.playable(), user=signed_in(request.user)
        )
        return self.answer(battle)

    @extend_schema(request=None, responses={202: BattleSerializer})
    @action(detail=True, methods=["post"])
    def requeue(self, request: Request, pk: str | None = None) -> Response:
        battle = self.get_object()
        if not selectors.battle_is_managed_by(battle, request.user):
            raise PermissionDenied("Only an organiser may re-queue processing.")
        return self.answer(
            _conflicts_as_409(services.battle_requeue, battle=battle), status.HTTP_202_ACCEPTED
        )

    @extend_schema(responses={200: EventSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def events(self, request: Request, pk: str | None = None) -> Response:
        events = self.get_object().events.select_related("battle", "actor", "target", "created_by")
        events = events.order_by("seq")
        return self.get_paginated_response(EventSerializer(self._page(events), many=True).data)

    @extend_schema(responses={200: LedgerSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def ledger(self, request: Request, pk: str | None = None) -> Response:
        page = self._page(selectors.ledger_for(self.get_object()))
        return self.get_paginated_response(LedgerSerializer(page, many=True).data)

    def _page(self, rows: QuerySet[Row]) -> list[Row] | None:
        """One page of a battle's own list (events, ledger), as `paginate_queryset` cuts it
        (whose stubs take only the view's model, the battle)."""
        if self.paginator is None:
            return None
        return self.paginator.paginate_queryset(rows, self.request, view=self)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, pk: str | None = None) -> Response:
        return Response(_conflicts_as_409(services.battle_audit, battle=self.get_object()))

    @extend_schema(
        request=SimulateInputSerializer,
        parameters=[RUNS],
        responses={200: OpenApiTypes.OBJECT},
        summary="Who would win? (not saved)",
    )
    @action(detail=False, methods=["post"], url_path="simulate", throttle_scope="simulate")
    def simulate(self, request: Request) -> Response:
        data = self.valid_input(SimulateInputSerializer)
        sides = data.get("sides") or []
        if len(sides) < 2:
            raise _bad("sides", "name two sides")
        key = sides[0]["force"].system
        if any(s["force"].system != key for s in sides):
            raise _bad("sides", "the forces play different systems")
        # Forces of a campaign fight under its newest house rules, as a battle set up now would.
        campaign = sides[0]["force"].campaign
        system = rules_for_campaign(campaign) if campaign is not None else get_system(key)
        options = _options(system, data["options"])
        figures = [_sim_side(i, s) for i, s in enumerate(sides)]
        return self._batch(system, figures, options)

    @extend_schema(
        request=None,
        parameters=[RUNS],
        responses={200: OpenApiTypes.OBJECT},
        summary="Who would win this battle? (not saved)",
        operation_id="battles_simulate_battle",
    )
    @action(detail=True, methods=["post"], url_path="simulate", throttle_scope="simulate")
    def simulate_battle(self, request: Request, pk: str | None = None) -> Response:
        battle = self.get_object()
        return self._batch(selectors.rules_for_battle(battle), sim_sides(battle), battle.options)

    def _batch(
        self, system: RuleSystem, sides: list[list[SimFigure]], options: dict[str, Any]
    ) -> Response:
        runs = self.request.query_params.get("runs", "100")
        if not runs.isdigit():
            raise _bad("runs", "runs must be a whole number")
        summary = services.simulate_batch(
            system=system, sides=sides, options=options, runs=int(runs)
        )
        return Response(summary.as_json())


def _bad(field: str, message: str) -> ValidationError:
    return ValidationError({field: [message]})


def _options(system: RuleSystem, overrides: dict[str, Any]) -> dict[str, Any]:
    with as_validation("options"):
        return system.options.validate(overrides)


def _sim_side(index: int, side: dict[str, Any]) -> list[SimFigure]:
    force = side["force"]
    chosen = side["characters"]
    characters = (
        chosen
        if chosen is not None
        else list(force.characters.filter(status=CharacterStatus.ACTIVE).select_related("unit"))
    )
    return [
        SimFigure(
            f"{index}/{c.pk}",
            c.name,
            snapshot_stats(c),
            f"{index + 1}:{c.unit.name if c.unit_id else c.name}",
        )
        for c in characters
    ]
