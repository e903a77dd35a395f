"""Print endpoints: validate the options, then render in the request or hand over a PrintJob.

Small documents come back as PDF at once; more than JOB_THRESHOLD labels (or cards) become a
`PrintJob` (202 with its URL) that the worker renders with progress.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.selectors import battles_visible_to
from campaigns.selectors import campaigns_visible_to
from common.serializers import ModelSerializer, Serializer
from common.users import signed_in
from league.models import Pairing
from printing import inputs
from printing.jobs import build_document, render
from printing.models import PrintJob
from printing.selectors import (
    battle_forces,
    force_version,
    house_rules_number,
    packet_version,
    pairing_forces,
    report_version,
)
from printing.services import label_prints_record, print_job_request
from rosters.models import Character, Force
from rosters.selectors import forces_visible_to
from rules.errors import UnknownSystem
from rules.system import get_system

JOB_THRESHOLD = 200
# A campaign report of every battle becomes a print job past this many battles.
REPORT_BATTLES_IN_REQUEST = 10
Kind = PrintJob.Kind
View = TypeVar("View", bound=type[APIView])


class PrintJobSerializer(ModelSerializer):
    url = serializers.SerializerMethodField()
    download = serializers.SerializerMethodField()

    class Meta:
        model = PrintJob
        fields = [
            "id",
            "kind",
            "status",
            "progress",
            "pages_done",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "url",
            "download",
        ]

    def get_url(self, job: PrintJob) -> str:
        url: str = self.context["request"].build_absolute_uri(reverse("print-job", args=[job.pk]))
        return url

    def get_download(self, job: PrintJob) -> str | None:
        if job.status != PrintJob.Status.DONE:
            return None
        path = reverse("print-job-download", args=[job.pk])
        url: str = self.context["request"].build_absolute_uri(path)
        return url


PDF = OpenApiResponse(OpenApiTypes.BINARY, description="The document (application/pdf).")
# The 200 answer is a PDF, not JSON: say so, or schema checks reject every real document.
AS_PDF = (200, "application/pdf")


def _job_or_pdf() -> dict[int | tuple[int, str], OpenApiResponse | type[PrintJobSerializer]]:
    return {AS_PDF: PDF, 202: PrintJobSerializer, 400: OpenApiResponse(description="Bad options.")}


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def job_response(request: Request, job: PrintJob) -> Response:
    return Response(
        PrintJobSerializer(job, context={"request": request}).data, status=status.HTTP_202_ACCEPTED
    )


def valid(
    serializer_class: type[Serializer], data: object, request: Request, **context: object
) -> dict[str, Any]:
    serializer = serializer_class(data=data, context={"user": request.user, **context})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def deliver(
    request: Request, kind: str, params: dict[str, Any], items: int, *, big: bool | None = None
) -> HttpResponse:
    """Render now, or queue a job when the document is big (more than JOB_THRESHOLD items).

    Base labels printed for stored characters are recorded, so a packet skips them later.
    """
    if items > JOB_THRESHOLD if big is None else big:
        return job_response(
            request, print_job_request(kind=kind, parameters=params, user=signed_in(request.user))
        )
    document = build_document(kind, params, request.user)
    pdf = render(document)
    if document.labelled:
        label_prints_record(character_ids=document.labelled, user=signed_in(request.user))
    return pdf_response(pdf, document.filename)


class ForceDocumentView(APIView):
    """Base for /api/forces/{id}/<document>.pdf: only users who may read the force."""

    permission_classes = [IsAuthenticated]
    kind: str
    input_class: type[Serializer]

    def get(self, request: Request, pk: int) -> HttpResponse:
        """Render the force's document (more than 200 figures: a print job, 202)."""
        force = get_object_or_404(forces_visible_to(request.user), pk=pk)
        params = valid(self.input_class, request.query_params, request, force=force)
        params.update(
            force=force.pk,
            version=force_version(force),
            house_rules=house_rules_number(force.campaign),
        )
        if params.get("qr"):
            params["site"] = request.build_absolute_uri("/")
        return deliver(request, self.kind, params, force.characters.count())


class RosterInput(Serializer):
    pass


def _force_schema(input_class: type[Serializer]) -> Callable[[View], View]:
    parameters = [input_class] if input_class().fields else []
    return extend_schema(parameters=parameters, responses=_job_or_pdf(), tags=["printing"])


@_force_schema(inputs.ForceLabelsInput)
class ForceLabelsView(ForceDocumentView):
    kind, input_class = Kind.LABELS, inputs.ForceLabelsInput


@_force_schema(inputs.ForceCardsInput)
class ForceCardsView(ForceDocumentView):
    kind, input_class = Kind.CARDS, inputs.ForceCardsInput


@_force_schema(RosterInput)
class ForceRosterView(ForceDocumentView):
    kind, input_class = Kind.ROSTER, RosterInput


@extend_schema(parameters=[inputs.ReferenceInput], responses={AS_PDF: PDF}, tags=["printing"])
class SystemReferenceView(APIView):
    """/api/systems/{key}/reference.pdf[?campaign=id]: the campaign's options at the top."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, key: str) -> HttpResponse:
        try:
            get_system(key)
        except UnknownSystem as error:
            raise Http404(str(error)) from None
        params = valid(inputs.ReferenceInput, request.query_params, request)
        if "campaign" in params:
            campaign = get_object_or_404(
                campaigns_visible_to(request.user), pk=params["campaign"], system=key
            )
            params["house_rules"] = house_rules_number(campaign)
        params["system"] = key
        return deliver(request, Kind.REFERENCE, params, 1)


@extend_schema(request=inputs.PostedLabelsInput, responses=_job_or_pdf(), tags=["printing"])
class PostedLabelsView(APIView):
    """POST /api/print/labels.pdf: labels for figures in the request body (a preview)."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> HttpResponse:
        params = valid(inputs.PostedLabelsInput, request.data, request)
        return deliver(request, Kind.LABELS, params, len(params["figures"]))


@extend_schema(request=inputs.PostedCardsInput, responses=_job_or_pdf(), tags=["printing"])
class PostedCardsView(APIView):
    """POST /api/print/cards.pdf: cards for figures in the request body (a preview)."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> HttpResponse:
        params = valid(inputs.PostedCardsInput, request.data, request)
        return deliver(request, Kind.CARDS, params, len(params["figures"]) + params["blanks"])


@extend_schema(request=inputs.StickersInput, responses=_job_or_pdf(), tags=["printing"])
class StickersView(APIView):
    """POST /api/print/stickers.pdf: wound stickers; by default one sheet shared by the codes."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> HttpResponse:
        params = valid(inputs.StickersInput, request.data, request)
        if not params.get("counts"):
            params["counts"] = _one_sheet_of_codes(params, request)
        return deliver(request, Kind.STICKERS, params, sum(params["counts"].values()))


def _one_sheet_of_codes(params: dict[str, Any], request: Request) -> dict[str, int]:
    from printing.documents import sticker_codes
    from printing.selectors import label_preset_for

    codes = sticker_codes(params.get("system", "rencounter"))
    free = label_preset_for(params["preset"], request.user).slots_per_sheet - params["start"] + 1
    share, extra = divmod(free, len(codes))
    return {code: share + (i < extra) for i, (code, _, _) in enumerate(codes)}


def _packet_items(forces: list[Force]) -> int:
    # A card and (at most) a label per figure: the figures count twice toward the threshold.
    return 2 * Character.objects.filter(force__in=forces).count()


@extend_schema(parameters=[inputs.PacketInput], responses=_job_or_pdf(), tags=["printing"])
class BattlePacketView(APIView):
    """/api/battles/{id}/packet.pdf: both rosters, cards, the reference sheet, new labels."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> HttpResponse:
        """Render the battle's game-night packet (a big one: a print job, 202)."""
        battle = get_object_or_404(battles_visible_to(request.user), pk=pk)
        params = valid(inputs.PacketInput, request.query_params, request)
        forces = battle_forces(battle)
        params.update(battle=battle.pk, system=battle.system, version=packet_version(forces))
        return deliver(request, Kind.PACKET, params, _packet_items(forces))


@extend_schema(parameters=[inputs.PacketInput], responses=_job_or_pdf(), tags=["printing"])
class PairingPacketView(APIView):
    """/api/pairings/{id}/packet.pdf: the same packet for a league pairing's two players."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> HttpResponse:
        """Render the pairing's game-night packet (a big one: a print job, 202)."""
        visible = campaigns_visible_to(request.user).values("pk")
        pairings = Pairing.objects.filter(round__campaign__in=visible).select_related(
            "round__campaign", "home", "away", "battle"
        )
        pairing = get_object_or_404(pairings, pk=pk)
        params = valid(inputs.PacketInput, request.query_params, request)
        forces = pairing_forces(pairing)
        campaign = pairing.round.campaign
        params.update(pairing=pairing.pk, system=campaign.system, version=packet_version(forces))
        if pairing.battle is None:  # a fought pairing's packet is under its battle's rules
            params["house_rules"] = house_rules_number(campaign)
        return deliver(request, Kind.PACKET, params, _packet_items(forces))


@extend_schema(parameters=[inputs.ReportInput], responses=_job_or_pdf(), tags=["printing"])
class CampaignReportView(APIView):
    """/api/campaigns/{id}/report.pdf[?all=1]: standings, the latest round, battle reports."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> HttpResponse:
        """Render the report; every battle of a long campaign becomes a print job (202)."""
        campaign = get_object_or_404(campaigns_visible_to(request.user), pk=pk)
        params = valid(inputs.ReportInput, request.query_params, request)
        params.update(campaign=campaign.pk, version=report_version(campaign))
        battles = campaign.battles.count() if params["all"] else 0
        return deliver(
            request, Kind.REPORT, params, battles, big=battles > REPORT_BATTLES_IN_REQUEST
        )


def _own_job(request: Request, pk: int) -> PrintJob:
    jobs = PrintJob.objects.all()
    if not request.user.is_superuser:
        jobs = jobs.filter(created_by_id=request.user.pk)
    return get_object_or_404(jobs, pk=pk)


@extend_schema(responses=PrintJobSerializer, tags=["printing"])
class PrintJobView(APIView):
    """GET /api/print-jobs/{id}/: status, progress and (when done) the download link."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        job = _own_job(request, pk)
        return Response(PrintJobSerializer(job, context={"request": request}).data)


@extend_schema(
    responses={AS_PDF: PDF, 409: OpenApiResponse(description="Not done yet.")}, tags=["printing"]
)
class PrintJobDownloadView(APIView):
    """GET /api/print-jobs/{id}/download: the PDF once the job is done (409 before)."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response | FileResponse:
        job = _own_job(request, pk)
        if job.status != PrintJob.Status.DONE:
            return Response(
                {"detail": f"the job is {job.get_status_display().lower()}"},
                status=status.HTTP_409_CONFLICT,
            )
        name = job.file.name.rsplit("/", 1)[-1]
        return FileResponse(job.file.open("rb"), content_type="application/pdf", filename=name)
