"""Backups from the campaign's admin page: download the whole campaign as a `muster.campaign`
document, or restore one as a copy (a new name and slug) into this club or another.

The upload is read and checked in the request (`uploads.backup_read`, then the whole document
by `services.restore_job_request`), stored as a `RestoreJob` and restored by the worker; the
page it redirects to follows the job until it links to the copy or says what went wrong.

The campaign admin lives in `campaigns` (with the league's subclass in `league`), below this
app; the backup views are added here, on
a subclass registered in its place, so `campaigns` never imports what sits above it.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from campaign_backup.campaign import campaign_export
from campaign_backup.models import RestoreJob
from campaign_backup.selectors import restore_clubs, restore_jobs_visible_to
from campaign_backup.services import restore_job_request
from campaign_backup.uploads import backup_read
from campaigns.models import Campaign, Club
from common.django_bases import ModelAdmin
from common.form_fields import field_of
from common.json_types import JSON
from common.users import signed_in
from league.admin.campaign import LeagueCampaignAdmin

#: Seconds between two looks at a running job (htmx; the meta refresh without JavaScript).
POLL_SECONDS = 1


class RestoreForm(forms.Form):
    """A backup to restore as a copy: the file, the copy's name and slug, and its club."""

    document = forms.FileField(
        label="Backup file (.json)",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    name = forms.CharField(max_length=120, label="Name of the copy")
    slug = forms.SlugField(max_length=120, label="Slug of the copy")
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label="Into the club")

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "club", forms.ModelChoiceField).queryset = clubs

    def clean_document(self) -> JSON:
        return backup_read(self.cleaned_data["document"])

    def refused(self, error: ValidationError) -> None:
        """Show the service's refusal beside the field it names (the document's, by default)."""
        for message in error.messages:
            field = "slug" if message.startswith(("campaign.slug:", "slug:")) else "document"
            self.add_error(field, message)


class BackupCampaignAdmin(LeagueCampaignAdmin):
    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:campaign_id>/backup/",
                view(self.backup_view),
                name="campaigns_campaign_backup",
            ),
            path(
                "<int:campaign_id>/backup.json",
                view(self.export_view),
                name="campaigns_campaign_export",
            ),
            path(
                "restores/<int:job_id>/",
                view(self.restore_job_view),
                name="campaigns_campaign_restore_job",
            ),
            path(
                "restores/<int:job_id>/progress/",
                view(self.restore_progress_view),
                name="campaigns_campaign_restore_progress",
            ),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        body = json.dumps(campaign_export(campaign=campaign), indent=1, sort_keys=True)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.json"'
        return response

    def backup_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        clubs = restore_clubs(request.user, campaign)
        data = (request.POST, request.FILES) if request.method == "POST" else (None, None)
        initial: dict[str, object] = {
            "name": f"{campaign.name} (copy)",
            "slug": f"{campaign.slug}-copy",
        }
        initial["club"] = campaign.club
        form = RestoreForm(*data, clubs=clubs, initial=initial)
        if request.method == "POST" and form.is_valid():
            job = self._queue(request, form, campaign)
            if job is not None:
                return HttpResponseRedirect(job_url(job))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{campaign}: backup and copy",
            "campaign": campaign,
            "form": form,
            "export_url": reverse("admin:campaigns_campaign_export", args=[campaign.pk]),
        }
        return TemplateResponse(request, "admin/campaign_backup/backup.html", context)

    def _queue(
        self, request: HttpRequest, form: RestoreForm, campaign: Campaign
    ) -> RestoreJob | None:
        data = form.cleaned_data  # the club is one of the form's choices, so one the user may use
        try:
            job = restore_job_request(
                document=data["document"],
                club=data["club"],
                name=data["name"],
                slug=data["slug"],
                user=signed_in(request.user),
                source=campaign,
                filename=_filename(request.FILES.get("document")),
            )
        except ValidationError as refusal:
            form.refused(refusal)
            return None
        messages.info(request, f"The backup passed its checks: restore #{job.pk} is below.")
        return job

    def _job(self, request: HttpRequest, job_id: int) -> RestoreJob:
        """Return a job the user may follow; anyone else's is a 404, as if it did not exist."""
        return get_object_or_404(restore_jobs_visible_to(request.user), pk=job_id)

    def restore_job_view(self, request: HttpRequest, job_id: int) -> HttpResponse:
        job = self._job(request, job_id)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Restore #{job.pk}: {job.name}",
            **job_context(job),
        }
        return TemplateResponse(request, "admin/campaign_backup/restore_job.html", context)

    def restore_progress_view(self, request: HttpRequest, job_id: int) -> HttpResponse:
        context = job_context(self._job(request, job_id))
        return TemplateResponse(request, "admin/campaign_backup/_restore_progress.html", context)


def job_url(job: RestoreJob) -> str:
    return reverse("admin:campaigns_campaign_restore_job", args=[job.pk])


def job_context(job: RestoreJob) -> dict[str, object]:
    """What the job page and its polled fragment show."""
    progress = getattr(job, "progress", None)
    live = job.status in (RestoreJob.Status.QUEUED, RestoreJob.Status.RUNNING)
    return {
        "job": job,
        "progress": progress,
        "percent": 100
        if job.status == RestoreJob.Status.DONE
        else (progress.percent if progress else 0),
        "live": live,
        "poll_seconds": POLL_SECONDS,
        "progress_url": reverse("admin:campaigns_campaign_restore_progress", args=[job.pk]),
    }


@admin.register(RestoreJob)
class RestoreJobAdmin(ModelAdmin):
    """Restores asked for, newest first; each opens its job page (nothing here is edited)."""

    list_display = ("__str__", "club", "slug", "status", "created_by", "created_at", "page")
    list_filter = ("status",)
    list_select_related = ("club", "created_by")
    ordering = ("-created_at",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[RestoreJob]:
        return restore_jobs_visible_to(request.user)

    @admin.display(description="progress")
    def page(self, job: RestoreJob) -> str:
        return format_html('<a href="{}">Show</a>', job_url(job))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: RestoreJob | None = None) -> bool:
        # Rows are scoped by restore_jobs_visible_to: organisers need no permission of their own.
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a job comes from a backup uploaded on a campaign's page

    def has_change_permission(self, request: HttpRequest, obj: RestoreJob | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: RestoreJob | None = None) -> bool:
        return False  # the record of who restored what, and when

    def change_view(
        self, request: HttpRequest, object_id: str, *args: object, **kwargs: object
    ) -> HttpResponse:
        job = self.get_object(request, object_id)
        if job is None:
            raise Http404("No such restore job.")
        return HttpResponseRedirect(job_url(job))


admin.site.unregister(Campaign)
admin.site.register(Campaign, BackupCampaignAdmin)


def _filename(upload: UploadedFile | None) -> str:
    """The uploaded backup's file name, as the job lists it ("" if the browser sent none)."""
    return (upload.name if upload is not None else None) or ""
