"""Backups from the campaign's admin page: download the whole campaign as a `muster.campaign`
document, or restore one as a copy (a new name and slug) into this club or another.

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
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from campaign_backup.campaign import campaign_export, campaign_import
from campaigns.models import Campaign, Club
from campaigns.selectors import clubs_administered_by
from league.admin.campaign import LeagueCampaignAdmin


class RestoreForm(forms.Form):
    """A backup to restore as a copy: the file, the copy's name and slug, and its club."""

    document = forms.FileField(label="Backup file (.json)")
    name = forms.CharField(max_length=120, label="Name of the copy")
    slug = forms.SlugField(max_length=120, label="Slug of the copy")
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label="Into the club")

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean_document(self) -> Any:
        try:
            return json.load(self.cleaned_data["document"])
        except (ValueError, UnicodeDecodeError):
            raise ValidationError("This file is not a Muster backup (not JSON).") from None


class BackupCampaignAdmin(LeagueCampaignAdmin):
    def get_urls(self) -> list:
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
            *super().get_urls(),
        ]

    def _clubs(self, request: HttpRequest, campaign: Campaign) -> Any:
        """The campaign's own club and every club the user administers (a superuser: all)."""
        if request.user.is_superuser:
            return Club.objects.order_by("name")
        administered = clubs_administered_by(request.user).values("pk")
        return Club.objects.filter(Q(pk=campaign.club_id) | Q(pk__in=administered)).order_by("name")

    def export_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        body = json.dumps(campaign_export(campaign=campaign), indent=1, sort_keys=True)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.json"'
        return response

    def backup_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        clubs = self._clubs(request, campaign)
        data = (request.POST, request.FILES) if request.method == "POST" else (None, None)
        initial = {"name": f"{campaign.name} (copy)", "slug": f"{campaign.slug}-copy"}
        initial["club"] = campaign.club
        form = RestoreForm(*data, clubs=clubs, initial=initial)
        if request.method == "POST" and form.is_valid():
            restored = self._restore(request, form)
            if restored is not None:
                return HttpResponseRedirect(
                    reverse("admin:campaigns_campaign_change", args=[restored.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{campaign}: backup and copy",
            "campaign": campaign,
            "form": form,
            "export_url": reverse("admin:campaigns_campaign_export", args=[campaign.pk]),
        }
        return TemplateResponse(request, "admin/campaign_backup/backup.html", context)

    def _restore(self, request: HttpRequest, form: RestoreForm) -> Campaign | None:
        data = form.cleaned_data  # the club is one of the form's choices, so one the user may use
        try:
            restored = campaign_import(
                document=data["document"],
                club_slug=data["club"].slug,
                name=data["name"],
                slug=data["slug"],
            )
        except ValidationError as exc:
            form.add_error(None, "; ".join(exc.messages))
            return None
        messages.success(request, f"{restored} restored into {restored.club} as a copy.")
        return restored


admin.site.unregister(Campaign)
admin.site.register(Campaign, BackupCampaignAdmin)
