"""The force admin page: units and characters inline, the CSV and JSON imports and exports.
Every save goes through the services, so hand edits land in the service record."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.forms import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse

from campaigns.admin import CampaignScoped
from campaigns.models import Campaign
from campaigns.selectors import system_name
from common import strict_json
from common.django_bases import ModelAdmin
from common.form_fields import field_of
from common.throttling import PageRateThrottle, too_many
from common.users import User, signed_in
from rosters import interchange, services
from rosters.admin.common import (
    CharacterInline,
    ForceSystemFilter,
    UnitInline,
    save_character,
)
from rosters.forms import ForceAdminForm
from rosters.models import Character, Force, Unit


class CsvUploadForm(forms.Form):
    file = forms.FileField(help_text="UTF-8 CSV, header row first (see docs/import-export.md).")


class JsonUploadForm(forms.Form):
    file = forms.FileField(help_text="A muster.force JSON document.")
    owner: forms.ModelChoiceField[User] = forms.ModelChoiceField(
        queryset=None, help_text="Who will own the imported force."
    )
    campaign: forms.ModelChoiceField[Campaign] = forms.ModelChoiceField(
        queryset=None, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "owner", forms.ModelChoiceField).queryset = User.objects.order_by("username")
        field_of(self, "campaign", forms.ModelChoiceField).queryset = Campaign.objects.order_by(
            "name"
        )


@admin.register(Force)
class ForceAdmin(CampaignScoped, ModelAdmin):
    form = ForceAdminForm
    list_display = ["name", "owner", "campaign", "rule_system", "faction"]
    # Related-only filters: an organiser sees only the campaigns his scoped rows belong to.
    list_filter = [ForceSystemFilter, ("campaign", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["owner", "campaign"]
    search_fields = ["name", "faction", "owner__username"]
    inlines = [UnitInline, CharacterInline]
    actions = ["export_json", "export_csv", "import_csv"]
    change_list_template = "admin/rosters/force/change_list.html"

    def get_readonly_fields(self, request: HttpRequest, obj: Force | None = None) -> list[str]:
        return ["rule_system"] if obj else []  # stats depend on it: a force keeps its system

    def get_fields(self, request: HttpRequest, obj: Force | None = None) -> tuple[str, ...]:
        fields = ("name", "owner", "campaign", "system", "faction", "notes")
        return tuple("rule_system" if f == "system" and obj else f for f in fields)

    @admin.display(description="rule system", ordering="system")
    def rule_system(self, obj: Force) -> str:
        return system_name(obj.system)

    def save_model(
        self, request: HttpRequest, obj: Force, form: forms.ModelForm[Force], change: bool
    ) -> None:
        if not change:
            obj.pk = services.force_create(
                owner=obj.owner,
                name=obj.name,
                system=form.cleaned_data["system"],
                campaign=obj.campaign,
                faction=obj.faction,
                notes=obj.notes,
            ).pk
            return
        stored = Force.objects.get(pk=obj.pk)
        changes = {n: getattr(obj, n) for n in services.FORCE_FIELDS if n in form.changed_data}
        services.force_update(force=stored, **changes)

    def save_formset(
        self,
        request: HttpRequest,
        form: forms.ModelForm[Force],
        formset: BaseInlineFormSet[Model, Force, forms.ModelForm[Model]],
        change: bool,
    ) -> None:
        # The services save each row (and write the record); the admin's change message
        # reads these three lists, which formset.save() would otherwise have filled.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        force = Force.objects.get(pk=form.instance.pk)
        for inline_form in formset.forms:
            if inline_form in formset.deleted_forms:
                self._delete_inline(request, formset, inline_form.instance)
            elif inline_form.has_changed():
                self._save_inline(request, formset, inline_form, force)

    def _delete_inline(
        self,
        request: HttpRequest,
        formset: BaseInlineFormSet[Model, Force, forms.ModelForm[Model]],
        obj: Model,
    ) -> None:
        if obj.pk is not None and isinstance(obj, Unit):
            services.unit_delete(unit=obj, user=signed_in(request.user))
            formset.deleted_objects.append(obj)

    def _save_inline(
        self,
        request: HttpRequest,
        formset: BaseInlineFormSet[Model, Force, forms.ModelForm[Model]],
        form: forms.ModelForm[Model],
        force: Force,
    ) -> None:
        obj, is_new = form.instance, form.instance.pk is None
        if not isinstance(obj, Character | Unit):
            raise TypeError(f"a force's inlines hold characters and units, not {obj!r}")
        obj.force = force
        saved: Character | Unit
        if isinstance(obj, Character):
            saved = save_character(request, obj, form, change=not is_new)
        else:
            saved = self._save_unit(obj, form)
        if is_new:
            formset.new_objects.append(saved)
        else:
            formset.changed_objects.append((saved, form.changed_data))

    def _save_unit(self, obj: Unit, form: forms.BaseForm) -> Unit:
        stats = getattr(form, "schema_values", None)
        data = {"name": obj.name, "order": obj.order, **({"stats": stats} if stats else {})}
        if obj.pk is None:
            return services.unit_create(force=obj.force, **data)
        stored = Unit.objects.select_related("force").get(pk=obj.pk)
        return services.unit_update(unit=stored, leader=obj.leader, **data)

    @admin.action(description="Export selected forces as JSON")
    def export_json(self, request: HttpRequest, queryset: QuerySet[Force]) -> HttpResponse:
        documents = [interchange.force_export_json(force=f) for f in queryset.order_by("pk")]
        body = documents[0] if len(documents) == 1 else documents
        response = HttpResponse(json.dumps(body, indent=2), content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="forces.json"'
        return response

    @admin.action(description="Export the selected force's characters as CSV")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Force]) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one force.", messages.WARNING)
            return None
        force = queryset.get()
        response = HttpResponse(
            interchange.force_export_csv(force=force), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="force-{force.pk}.csv"'
        return response

    @admin.action(description="Import characters from CSV into the selected force")
    def import_csv(self, request: HttpRequest, queryset: QuerySet[Force]) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one force.", messages.WARNING)
            return None
        force = queryset.get()
        form = CsvUploadForm(request.POST, request.FILES) if "apply" in request.POST else None
        if form is not None and form.is_valid():
            throttle = PageRateThrottle("imports")
            if not throttle.allow_request(request, None):
                return too_many(request, throttle.wait())
            text = form.cleaned_data["file"].read()  # the import decodes it strictly
            try:
                created = interchange.force_import_csv(
                    force=force, text=text, user=signed_in(request.user)
                )
            except ValidationError as exc:
                return self._upload_page(request, form, force, interchange.problems_of(exc))
            self.message_user(request, f"Imported {len(created)} characters into {force}.")
            return None
        return self._upload_page(request, form or CsvUploadForm(), force, [])

    def _upload_page(
        self,
        request: HttpRequest,
        form: forms.Form,
        force: Force | None,
        problems: Iterable[interchange.Problem],
        action: str = "import_csv",
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "force": force,
            "problems": list(problems),
            "action": action,
            "title": f"Import characters into {force}" if force else "Import a force",
        }
        return render(request, "admin/rosters/force/upload.html", context)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.import_json_view)
        return [path("import-json/", view, name="rosters_force_import_json"), *super().get_urls()]

    def import_json_view(self, request: HttpRequest) -> HttpResponse:
        form = JsonUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            throttle = PageRateThrottle("imports")
            if not throttle.allow_request(request, None):
                return too_many(request, throttle.wait())
            try:
                force = self._import_documents(request, form)
            except ValidationError as exc:
                return self._upload_page(request, form, None, interchange.problems_of(exc), "")
            self.message_user(request, f"Imported {force}.")
            return HttpResponseRedirect(reverse("admin:rosters_force_change", args=[force.pk]))
        return self._upload_page(request, form, None, [], "")

    def _import_documents(self, request: HttpRequest, form: JsonUploadForm) -> Force:
        # The same strict reader as the API's bodies: 1e400, NaN, lone surrogates, NUL and deep
        # nesting are refused in words, not met later as a 500.
        try:
            document = strict_json.loads(form.cleaned_data["file"].read().decode("utf-8-sig"))
        except strict_json.HostileJson as exc:
            raise interchange.ImportRejected([{"path": "", "message": str(exc)}]) from exc
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise interchange.ImportRejected([{"path": "", "message": f"not JSON: {exc}"}]) from exc
        return interchange.force_import_json(
            document=document,
            owner=form.cleaned_data["owner"],
            campaign=form.cleaned_data["campaign"],
            user=signed_in(request.user),
        )
