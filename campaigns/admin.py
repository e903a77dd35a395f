"""Campaign admin: clubs, and campaigns with their memberships inline. House-rule options
are typed fields from the system's option schema, like stats on a character."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from campaigns import services
from campaigns.models import Campaign, Club, Membership
from rosters.forms import SchemaFormMixin, schema_form_class
from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system, system_choices


class CampaignAdminForm(SchemaFormMixin, forms.ModelForm):
    prefix_name = "option_"
    json_field = "options"
    system = forms.ChoiceField(choices=system_choices, help_text="The rule system it plays.")

    class Meta:
        model = Campaign
        fields = ["club", "name", "slug", "system", "status", "calendar_date"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields.pop("system", None)  # fixed once created; shown read-only


def campaign_form(system: RuleSystem | None) -> type[CampaignAdminForm]:
    return schema_form_class(CampaignAdminForm, system.options if system else None, "CampaignForm")


def _system(key: str | None) -> RuleSystem | None:
    try:
        return get_system(key) if key else None
    except UnknownSystem:
        return None


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["admins"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "system", "status", "calendar_date"]
    list_filter = ["system", "status", "club"]
    list_select_related = ["club"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def _system_of(self, request: HttpRequest, obj: Campaign | None) -> RuleSystem | None:
        return _system(
            obj.system if obj else request.POST.get("system") or request.GET.get("system")
        )

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        kwargs["form"] = campaign_form(self._system_of(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["system"] if obj else []  # forces' stats depend on it

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list:
        system = self._system_of(request, obj)
        options = campaign_form(system)().schema_names()
        note = "" if system else "Pick the system and save to set house rules; defaults apply."
        return [
            (None, {"fields": ["club", "name", "slug", "system", "status", "calendar_date"]}),
            ("House rules and options", {"fields": options, "description": note}),
        ]

    def save_model(self, request: HttpRequest, obj: Campaign, form: Any, change: bool) -> None:
        options = getattr(form, "schema_values", None)
        if not change:
            obj.pk = services.campaign_create(
                club=obj.club,
                name=obj.name,
                slug=obj.slug,
                system=form.cleaned_data["system"],
                status=obj.status,
                options=options,
                calendar_date=obj.calendar_date,
            ).pk
            return
        stored = Campaign.objects.get(pk=obj.pk)
        changes = {
            n: getattr(obj, n)
            for n in ("name", "status", "calendar_date")
            if n in form.changed_data
        }
        if options is not None:
            changes["options"] = options
        services.campaign_update(campaign=stored, **changes)
