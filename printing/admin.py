"""Admin for printing: users' label stock (checked like the built-in presets) and print jobs."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from printing.models import LabelPreset, PrintJob
from printing.services import print_job_request


@admin.register(LabelPreset)
class LabelPresetAdmin(admin.ModelAdmin):
    # ModelAdmin forms call the model's clean(): overlapping or off-page stock is refused.
    list_display = ("name", "owner", "page", "shape", "width", "height", "columns", "rows")
    list_filter = ("page", "shape")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "progress", "pages_done", "created_by", "created_at")
    list_filter = ("kind", "status")
    readonly_fields = ("kind", "parameters", "idempotency_key", "status", "progress",
                       "pages_done", "file", "error", "created_by", "created_at", "started_at",
                       "finished_at")
    actions = ["retry_failed"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # jobs come from print requests, never typed in

    @admin.action(description="Queue the selected failed jobs again")
    def retry_failed(self, request: HttpRequest, queryset: QuerySet[PrintJob]) -> None:
        failed = list(queryset.filter(status=PrintJob.Status.FAILED).select_related("created_by"))
        for job in failed:
            print_job_request(kind=job.kind, parameters=job.parameters, user=job.created_by)
        self.message_user(request, f"{len(failed)} job(s) queued again.", messages.SUCCESS)
