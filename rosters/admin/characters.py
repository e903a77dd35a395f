"""The character admin page (typed stats, history, retiring) and the read-only service record."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from campaigns.admin import CampaignScoped
from campaigns.models import Campaign
from campaigns.selectors import system_name
from common.django_bases import ModelAdmin
from common.users import signed_in
from rosters import services
from rosters.admin.common import (
    ServiceRecordInline,
    SystemFilter,
    character_form,
    entry_changes,
    force_from_request,
    force_rules,
    object_id_of,
    save_character,
)
from rosters.models import Character, ServiceRecordEntry, Unit
from rules.system import RuleSystem


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
        force = obj.force if obj else force_from_request(request)
        return force_rules(force)

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
            object_id = object_id_of(request)
            force = force_from_request(request)
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
