"""What the roster admin pages share: the rules a force is kept by, typed stat forms, saving a
character through the services, the system filter and the service record in words."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import BaseInlineFormSet, ModelChoiceField
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from common.django_bases import TabularInline
from common.schema_forms import schema_form_class
from common.users import signed_in
from rosters import services
from rosters.forms import CharacterAdminForm, UnitAdminForm
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


def force_rules(force: Force | None) -> RuleSystem | None:
    """The rules a force's figures are kept by: its campaign's house rules apply (a weapon the
    club added is a choice in the admin too)."""
    if force is None or _system(force.system) is None:
        return None
    return rules_for_force(force)


def object_id_of(request: HttpRequest) -> str | None:
    """The id of the object an admin change page edits (None on an add page)."""
    match = request.resolver_match
    return match.kwargs.get("object_id") if match is not None else None


def force_from_request(request: HttpRequest) -> Force | None:
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
        kwargs["form"] = character_form(force_rules(obj))
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Force | None = None) -> tuple[str, ...]:
        form = character_form(force_rules(obj))
        return ("name", "rank", "unit", "status", *form().schema_names())


class UnitInline(TabularInline):
    model = Unit
    fk_name = "force"
    extra = 0

    def get_formset(
        self, request: HttpRequest, obj: Force | None = None, **kwargs: Any
    ) -> type[BaseInlineFormSet[Any, Any, Any]]:
        kwargs["form"] = unit_form(force_rules(obj))
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Force | None = None) -> tuple[str, ...]:
        form = unit_form(force_rules(obj))
        return ("name", "order", "leader", *form().schema_names())

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "leader":
            force_id = object_id_of(request)
            kwargs["queryset"] = Character.objects.filter(force_id=force_id or 0)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
