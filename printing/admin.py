"""Admin for printing: users' label stock (checked like the built-in presets) and print jobs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from common.json_types import JSONObject
from common.throttling import PageRateThrottle, too_many
from common.users import signed_in
from printing.models import LabelPreset, LabelPrint, PrintJob
from printing.selectors import force_version
from printing.services import label_prints_record, print_job_request
from rosters.models import Force

# Django's ModelAdmin is generic only to the type checker (django-stubs).
if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
else:
    ModelAdmin = admin.ModelAdmin


@admin.register(LabelPreset)
class LabelPresetAdmin(ModelAdmin):
    # ModelAdmin forms call the model's clean(): overlapping or off-page stock is refused.
    list_display = ("name", "owner", "page", "shape", "width", "height", "columns", "rows")
    list_filter = ("page", "shape")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)


@admin.register(PrintJob)
class PrintJobAdmin(ModelAdmin):
    list_display = ("id", "kind", "status", "progress", "pages_done", "created_by", "created_at")
    list_filter = ("kind", "status")
    readonly_fields = (
        "kind",
        "parameters",
        "idempotency_key",
        "status",
        "progress",
        "pages_done",
        "file",
        "error",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )
    actions = ["retry_failed"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # jobs come from print requests, never typed in

    def get_queryset(self, request: HttpRequest) -> QuerySet[PrintJob]:
        # A job's parameters name forces and campaigns: staff see only the jobs they asked for.
        jobs = super().get_queryset(request)
        return jobs if request.user.is_superuser else jobs.filter(created_by=request.user)

    @admin.action(description="Queue the selected failed jobs again")
    def retry_failed(self, request: HttpRequest, queryset: QuerySet[PrintJob]) -> None:
        failed = list(queryset.filter(status=PrintJob.Status.FAILED).select_related("created_by"))
        for job in failed:
            print_job_request(kind=job.kind, parameters=job.parameters, user=job.created_by)
        self.message_user(request, f"{len(failed)} job(s) queued again.", messages.SUCCESS)


@admin.register(LabelPrint)
class LabelPrintAdmin(ModelAdmin):
    list_display = ("character", "printed_at", "printed_by", "job")
    raw_id_fields = ("character", "printed_by", "job")
    date_hierarchy = "printed_at"


# --- print actions on the force admin ----------------------------------------------------------
# The force admin lives in rosters/admin/forces.py; printing adds its actions from
# PrintingConfig.ready() (see `add_force_print_actions`) so that rosters never imports printing:
# data flows one way.

FORCE_DOCUMENTS: dict[str, tuple[str, JSONObject]] = {
    PrintJob.Kind.LABELS: (
        "labels",
        {
            "preset": "OL1575",
            "start": 1,
            "calibration_x": 0.0,
            "calibration_y": 0.0,
            "guides": False,
            "qr": False,
        },
    ),
    PrintJob.Kind.CARDS: ("cards", {"size": "poker", "page": "A4", "blanks": 0}),
    PrintJob.Kind.ROSTER: ("roster", {}),
}
ADMIN_JOB_THRESHOLD = 200  # figures: the same line the API draws between a request and a job


def print_forces(request: HttpRequest, forces: QuerySet[Force], kind: str) -> HttpResponse | None:
    """Print one document for the selected forces: a PDF now, or print jobs when it is big."""
    from printing.apis import pdf_response
    from printing.jobs import build_document
    from printing.render import render_sections

    throttle = PageRateThrottle("pdfs")
    if not throttle.allow_request(request, None):
        return too_many(request, throttle.wait())
    name, defaults = FORCE_DOCUMENTS[kind]
    chosen = list(forces.order_by("pk"))
    params = [{**defaults, "force": f.pk, "version": force_version(f)} for f in chosen]
    if sum(f.characters.count() for f in chosen) > ADMIN_JOB_THRESHOLD:
        jobs = [
            print_job_request(kind=kind, parameters=p, user=signed_in(request.user)) for p in params
        ]
        ids = ", ".join(f"#{job.pk}" for job in jobs)
        messages.info(request, f"Big print: queued as print job(s) {ids} (see Print jobs).")
        return None
    documents = [build_document(kind, p, request.user) for p in params]
    sections = [section for document in documents for section in document.sections()]
    pdf = render_sections(sections, len(sections))
    label_prints_record(
        character_ids=[pk for d in documents for pk in d.labelled], user=signed_in(request.user)
    )
    return pdf_response(pdf, f"forces-{name}.pdf")


def _force_action(kind: str, description: str) -> Callable[..., HttpResponse | None]:
    def action(
        modeladmin: ModelAdmin, request: HttpRequest, queryset: QuerySet[Force]
    ) -> HttpResponse | None:
        return print_forces(request, queryset, kind)

    action.__name__ = f"print_{FORCE_DOCUMENTS[kind][0]}"
    return admin.action(description=description)(action)


FORCE_ACTIONS = (
    _force_action(PrintJob.Kind.LABELS, 'Print base labels (5/8" sheet)'),
    _force_action(PrintJob.Kind.CARDS, "Print unit cards (poker, A4)"),
    _force_action(PrintJob.Kind.ROSTER, "Print rosters"),
)


def add_force_print_actions(site: admin.AdminSite = admin.site) -> None:
    """Add the print actions to whatever ModelAdmin the site registered for Force."""
    force_admin = site.get_model_admin(Force)
    known = {getattr(a, "__name__", a) for a in force_admin.actions or ()}
    force_admin.actions = [
        *(force_admin.actions or ()),
        *(a for a in FORCE_ACTIONS if a.__name__ not in known),
    ]
