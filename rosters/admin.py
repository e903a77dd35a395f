"""Roster admin: forces with their units and characters inline, characters with their
service record and history. Stats are typed fields from the rule system's schema; every save
goes through the services, so hand edits land in the service record."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import BaseInlineFormSet, ModelChoiceField
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from campaigns.admin import CampaignScoped
from campaigns.models import Campaign
from campaigns.selectors import system_name
from common import strict_json
from common.django_bases import ModelAdmin, TabularInline
from common.form_fields import field_of
from common.schema_forms import schema_form_class
from common.throttling import PageRateThrottle, too_many
from common.users import User, signed_in
from rosters import interchange, services
from rosters.forms import CharacterAdminForm, ForceAdminForm, UnitAdminForm
from rosters.history_text import change_lines
from rosters.house_rules import rules_for_force
from rosters.models import Character, EntryCause, Force, ServiceRecordEntry, Unit
from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system, system_choices

EDITABLE = ("name", "rank", "status", "unit", "permanent_wounds", "notes", "photo")


def _system(key: str | None) -> RuleSystem | None:
    try:
        return get_system(key) if key else None
    except UnknownSystem:
        return None


def _force_rules(force: Force | None) -> RuleSystem | None:
    """The rules a force's figures are kept by: its campaign's house rules apply (a weapon the
    club added is a choice in the admin too)."""
    if force is None or _system(force.system) is None:
        return None
    return rules_for_force(force)


def _object_id(request: HttpRequest) -> str | None:
    """The id of the object an admin change page edits (None on an add page)."""
    match = request.resolver_match
    return match.kwargs.get("object_id") if match is not None else None


def _force_from_request(request: HttpRequest) -> Force | None:
    raw = request.POST.get("force") or request.GET.get("force")
    return Force.objects.filter(pk=raw).first() if raw and raw.isdigit() else None


def character_form(system: RuleSystem | None) -> type[CharacterAdminForm]:
    name = f"{system.key.title().replace('_', '')}CharacterForm" if system else "CharacterForm"
    return schema_form_class(CharacterAdminForm, system.stats if system else None, name)


def unit_form(system: RuleSystem | None) -> type[UnitAdminForm]:
    schema = system.stats if system and system.piece == "unit" else None
    return schema_form_class(UnitAdminForm, schema, "UnitForm")


def save_character(
    request: HttpRequest, obj: Character, form: forms.BaseForm, change: bool
) -> Character:
    """Create or hand-edit a character through the services (one service-record entry)."""
    stats = getattr(form, "schema_values", None)
    if not change:
        return _create_character(request, obj, stats)
    stored = Character.objects.select_related("force", "unit").get(pk=obj.pk)
    changes = {name: getattr(obj, name) for name in EDITABLE if name in form.changed_data}
    if stats is not None:
        changes["stats"] = stats
    return services.character_update(
        character=stored,
        user=signed_in(request.user),
        cause=EntryCause.HAND_EDIT,
        note="edited in the admin",
        **changes,
    )


def _create_character(
    request: HttpRequest, obj: Character, stats: dict[str, object] | None
) -> Character:
    created = services.character_create(
        force=obj.force,
        name=obj.name,
        stats=stats,
        unit=obj.unit,
        rank=obj.rank,
        status=obj.status,
        permanent_wounds=obj.permanent_wounds,
        notes=obj.notes,
        photo=obj.photo,
        user=signed_in(request.user),
    )
    obj.pk = created.pk  # the admin redirects and logs by the object it holds
    return created


class SystemFilter(admin.SimpleListFilter):
    title = "rule system"
    parameter_name = "system"
    field = "force__system"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Model]
    ) -> tuple[tuple[str, str], ...]:
        return system_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet[Model]) -> QuerySet[Model]:
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


class ForceSystemFilter(SystemFilter):
    field = "system"


@admin.display(description="changes")
def entry_changes(entry: ServiceRecordEntry) -> str:
    """Show an entry's changes as "Fire skill: 6 → 7" lines, in the system's own words."""
    lines = change_lines(entry.character.force.system, entry.before or {}, entry.after or {})
    if not lines:
        return "—"
    return format_html(
        '<ul class="changes">{}</ul>',
        format_html_join("", "<li>{}: {} → {}</li>", lines),
    )


class ServiceRecordInline(TabularInline):
    model = ServiceRecordEntry
    fields = readonly_fields = ("created_at", "cause", "changes", "note", "user", "battle_id")
    ordering = ["-created_at", "-id"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[ServiceRecordEntry]:
        return super().get_queryset(request).select_related("character__force", "user")

    @admin.display(description="changes")
    def changes(self, entry: ServiceRecordEntry) -> str:
        return entry_changes(entry)


class CharacterInline(TabularInline):
    model = Character
    extra = 0
    show_change_link = True
    can_delete = False  # characters retire or die; deleting one is a deliberate act elsewhere

    def get_formset(
        self, request: HttpRequest, obj: Force | None = None, **kwargs: Any
    ) -> type[BaseInlineFormSet[Any, Any, Any]]:
        kwargs["form"] = character_form(_force_rules(obj))
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Force | None = None) -> tuple[str, ...]:
        form = character_form(_force_rules(obj))
        return ("name", "rank", "unit", "status", *form().schema_names())


class UnitInline(TabularInline):
    model = Unit
    fk_name = "force"
    extra = 0

    def get_formset(
        self, request: HttpRequest, obj: Force | None = None, **kwargs: Any
    ) -> type[BaseInlineFormSet[Any, Any, Any]]:
        kwargs["form"] = unit_form(_force_rules(obj))
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Force | None = None) -> tuple[str, ...]:
        form = unit_form(_force_rules(obj))
        return ("name", "order", "leader", *form().schema_names())

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "leader":
            force_id = _object_id(request)
            kwargs["queryset"] = Character.objects.filter(force_id=force_id or 0)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


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


@admin.register(Character)
class CharacterAdmin(CampaignScoped, SimpleHistoryAdmin):
    campaign_path = "force__campaign"

    def campaign_id_of(self, obj: Model) -> int | None:
        return obj.force.campaign_id if isinstance(obj, Character) else super().campaign_id_of(obj)

    list_display = ["name", "rank", "force", "unit", "status", "system", "campaign"]
    list_filter = [
        ("force__campaign", admin.RelatedOnlyFieldListFilter),
        ("force", admin.RelatedOnlyFieldListFilter),
        "status",
        SystemFilter,
    ]
    list_select_related = ["force__campaign", "unit"]
    search_fields = ["name", "rank"]
    inlines = [ServiceRecordInline]
    actions = ["retire"]

    @admin.display(description="rule system", ordering="force__system")
    def system(self, obj: Character) -> str:
        return system_name(obj.force.system)

    @admin.display(ordering="force__campaign__name")
    def campaign(self, obj: Character) -> Campaign | None:
        return obj.force.campaign

    def _system_of(self, request: HttpRequest, obj: Character | None) -> RuleSystem | None:
        force = obj.force if obj else _force_from_request(request)
        return _force_rules(force)

    def get_form(
        self,
        request: HttpRequest,
        obj: Character | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> type[forms.ModelForm[Character]]:
        kwargs["form"] = character_form(self._system_of(request, obj))
        # SimpleHistoryAdmin is untyped: name what its ModelAdmin.get_form returns.
        form: type[forms.ModelForm[Character]] = super().get_form(
            request, obj, change=change, **kwargs
        )
        return form

    def get_fieldsets(
        self, request: HttpRequest, obj: Character | None = None
    ) -> list[tuple[str | None, dict[str, object]]]:
        system = self._system_of(request, obj)
        stats = character_form(system)().schema_names()
        heading = f"Stats ({system.name})" if system else "Stats"
        note = "" if system else "Pick the force and save to edit stats; defaults are used."
        return [
            (None, {"fields": ["name", "rank", "force", "unit", "status"]}),
            (heading, {"fields": stats, "description": note}),
            ("Wounds and notes", {"fields": ["permanent_wounds", "photo", "notes"]}),
        ]

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "unit":  # offer only the units of the character's force
            object_id = _object_id(request)
            force = _force_from_request(request)
            if object_id:
                kwargs["queryset"] = Unit.objects.filter(force__characters__pk=object_id)
            elif force is not None:
                kwargs["queryset"] = force.units.all()
        field: ModelChoiceField[Any] | None = super().formfield_for_foreignkey(
            db_field, request, **kwargs
        )
        return field

    def save_model(
        self, request: HttpRequest, obj: Character, form: forms.ModelForm[Character], change: bool
    ) -> None:
        save_character(request, obj, form, change)

    @admin.action(description="Retire selected characters")
    def retire(self, request: HttpRequest, queryset: QuerySet[Character]) -> None:
        retired = 0
        for character in queryset.select_related("force", "unit"):
            try:
                services.character_retire(character=character, user=signed_in(request.user))
                retired += 1
            except ValidationError as exc:
                self.message_user(request, "; ".join(exc.messages), messages.WARNING)
        self.message_user(request, f"Retired {retired} characters.")


@admin.register(ServiceRecordEntry)
class ServiceRecordEntryAdmin(ModelAdmin):
    """The whole service record, read-only: entries are written by the services alone."""

    list_display = ["created_at", "character", "cause", "user", "battle_id", "note"]
    list_filter = ["cause"]
    list_select_related = ["character", "user"]
    search_fields = ["character__name", "note"]
    fields = readonly_fields = (
        "character",
        "created_at",
        "cause",
        "changes",
        "note",
        "user",
        "battle_id",
    )

    @admin.display(description="changes")
    def changes(self, entry: ServiceRecordEntry) -> str:
        return entry_changes(entry)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
