"""Campaign admin: clubs; campaigns with their memberships inline and their house rules;
memberships; the house-rules versions.

House-rule options are typed fields from the system's option schema, like stats on a
character. Organisers (the "Organisers" group) see and change only the campaigns they run:
every admin here scopes its queryset, its object permissions and its foreign-key choices with
the selectors the API uses (`campaigns.selectors`). Every save goes through the services.

The league (`league.admin`) registers a subclass of `CampaignAdmin` in its place that adds the
league settings, the adjustments, the standings and the organiser's desk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Model, Q, QuerySet
from django.db.models import Field as DbField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse

from campaigns import (
    admin_users,  # noqa: F401  (the user admin, dates of record read-only)
    services,
)
from campaigns import house_rules_desk as desk_house_rules
from campaigns.house_rules_forms import version_history, version_tables
from campaigns.models import Campaign, Club, HouseRules, Membership, Role
from campaigns.selectors import campaigns_managed_by, clubs_administered_by, system_name
from campaigns.services.clubs import CAMPAIGN_FIELDS
from common.django_bases import ModelAdmin, ModelForm, RowFormSet, TabularInline
from common.schema_forms import SchemaFormMixin, schema_form_class
from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system, system_choices

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec  # the stubs' name for fieldsets


class CampaignAdminForm(SchemaFormMixin, ModelForm):
    prefix_name = "option_"
    json_field = "options"
    system = forms.ChoiceField(choices=system_choices, help_text="The rule system it plays.")

    class Meta:
        model = Campaign
        fields = ["club", "name", "slug", "system", "status", "calendar_date", "approve_joiners"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields.pop("system", None)  # fixed once created; shown read-only

    def clean_slug(self) -> str:
        # The club is read-only on a change, so the form's own unique check skips (club, slug).
        slug: str = self.cleaned_data["slug"]
        club_id: int | None = self.instance.club_id if self.instance.pk else None
        if club_id is None:
            return slug
        taken = Campaign.objects.filter(club_id=club_id, slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            raise ValidationError("Another campaign of this club already has this slug.")
        return slug


def campaign_form(system: RuleSystem | None) -> type[CampaignAdminForm]:
    return schema_form_class(CampaignAdminForm, system.options if system else None, "CampaignForm")


def _system(key: str | None) -> RuleSystem | None:
    try:
        return get_system(key) if key else None
    except UnknownSystem:
        return None


# --- scoping: organisers see their own campaigns only --------------------------------------------


def managed_ids(request: HttpRequest) -> set[int]:
    """Return (once per request) the ids of the campaigns the user may run."""
    ids: set[int] | None = getattr(request, "_managed_campaign_ids", None)
    if ids is None:
        ids = set(campaigns_managed_by(request.user).values_list("pk", flat=True))
        request._managed_campaign_ids = ids  # type: ignore[attr-defined]  # a per-request cache
    return ids


def runs(request: HttpRequest, campaign_id: int | None) -> bool:
    return request.user.is_superuser or campaign_id in managed_ids(request)


class CampaignScoped:
    """Mixin for admins and inlines of rows that belong to a campaign through `campaign_path`.

    The rows an organiser sees are those of `campaigns_managed_by`, the selector the API's
    permissions use; so are the choices of every foreign key to a campaign's rows.
    """

    campaign_path = "campaign"
    #: Related models whose selects show no edit, add or delete widgets.
    plain_selects: tuple[type[Model], ...] = (Membership, get_user_model())

    def campaign_id_of(self, obj: Any) -> int | None:
        """Return the campaign of a row, or of the parent row an inline is asked about."""
        if isinstance(obj, Campaign):
            return obj.pk
        if hasattr(obj, "campaign_id"):
            own: int | None = obj.campaign_id
            return own
        *hops, last = self.campaign_path.split("__")
        for hop in hops:
            obj = getattr(obj, hop)
        found: int | None = getattr(obj, f"{last}_id")
        return found

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset: QuerySet[Any] = super().get_queryset(request)  # type: ignore[misc]  # mixin
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.campaign_path}__in": managed_ids(request)})

    def _allowed(self, request: HttpRequest, obj: Any) -> bool:
        return obj is None or runs(request, self.campaign_id_of(obj))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed: bool = super().has_view_permission(request, obj)  # type: ignore[misc]  # mixin
        return allowed and self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed: bool = super().has_change_permission(request, obj)  # type: ignore[misc]  # mixin
        return allowed and self._allowed(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed: bool = super().has_delete_permission(request, obj)  # type: ignore[misc]  # mixin
        return allowed and self._allowed(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        scoped = _scoped_choices(db_field.related_model, request)
        if scoped is not None:
            kwargs["queryset"] = scoped
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]  # mixin
        if field is not None and db_field.related_model is Membership:
            field.label_from_instance = _player_label  # "alice", not "alice in ... (Player)"
        return field

    def formfield_for_dbfield(
        self, db_field: DbField[Any, Any], request: HttpRequest, **kwargs: object
    ) -> forms.Field | None:
        field: forms.Field | None = super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]  # mixin
        plain = db_field.is_relation and db_field.related_model in self.plain_selects
        if plain and field is not None:
            _plain_select(field)
        return field


def _player_label(membership: Membership) -> str:
    return membership.player_name


def _plain_select(field: forms.Field) -> None:
    """Drop the related-object widgets (edit, add, delete, view) from a select: on a player
    select the red cross deleted the membership itself, not the choice."""
    widget = field.widget
    if isinstance(widget, RelatedFieldWidgetWrapper):
        widget.can_add_related = widget.can_change_related = False
        widget.can_delete_related = widget.can_view_related = False


def _scoped_choices(model: type[Model] | None, request: HttpRequest) -> QuerySet[Any] | None:
    """Return the choices an organiser may pick for a foreign key to `model` (None: as is):
    a campaign they run, a club they administer, or a row of a campaign they run."""
    if request.user.is_superuser:
        return None
    ids = managed_ids(request)
    if model is Campaign:
        return Campaign.objects.filter(pk__in=ids)
    if model is Club:
        return clubs_administered_by(request.user)
    if model is None:
        return None
    if any(field.name == "campaign" for field in model._meta.get_fields()):
        rows = model._default_manager.filter(campaign_id__in=ids)
        return rows.select_related("user") if model is Membership else rows
    return None


class SystemListFilter(admin.SimpleListFilter):
    """Filter by rule system, listed by the system's name rather than its key."""

    title = "rule system"
    parameter_name = "system"
    field = "system"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Campaign]
    ) -> tuple[tuple[str, str], ...]:
        return system_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> QuerySet[Campaign]:
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


def report(request: HttpRequest, exc: Exception) -> None:
    """Show a service's refusal as an admin error message."""
    text = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
    messages.error(request, text)


# --- the campaign page ------------------------------------------------------------------------


class MembershipInline(CampaignScoped, TabularInline):
    model = Membership
    extra = 1
    fields = ["user", "role", "withdrawn_from_round", "joined_at"]
    readonly_fields = ["joined_at"]

    def get_autocomplete_fields(self, request: HttpRequest) -> list[str]:
        # The user admin is the superuser's; organisers pick from a plain list of usernames.
        return ["user"] if request.user.is_superuser else []


@admin.register(Club)
class ClubAdmin(ModelAdmin):
    list_display = ["name", "slug", "invite_only"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["admins"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        queryset: QuerySet[Club] = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(
            Q(pk__in=clubs_administered_by(request.user).values("pk"))
            | Q(campaigns__in=managed_ids(request))
        ).distinct()


@admin.register(Campaign)
class CampaignAdmin(CampaignScoped, ModelAdmin):
    campaign_path = "pk"
    list_display = ["name", "club", "rule_system", "status", "calendar_date", "player_count"]
    list_filter = ["status", SystemListFilter, ("club", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["club"]
    search_fields = ["name", "slug", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    change_form_template = "admin/campaigns/campaign/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        queryset: QuerySet[Campaign] = super().get_queryset(request)
        return queryset.annotate(
            player_count=Count("memberships", filter=Q(memberships__role=Role.PLAYER))
        )

    @admin.display(description="rule system", ordering="system")
    def rule_system(self, obj: Campaign) -> str:
        return system_name(obj.system)

    @admin.display(description="players", ordering="player_count")
    def player_count(self, obj: Campaign) -> int:
        return int(obj.player_count)  # type: ignore[attr-defined]  # annotated by get_queryset

    def _system_of(self, request: HttpRequest, obj: Campaign | None) -> RuleSystem | None:
        return _system(
            obj.system if obj else request.POST.get("system") or request.GET.get("system")
        )

    def get_form(
        self,
        request: HttpRequest,
        obj: Campaign | None = None,
        change: bool = False,
        **kwargs: object,
    ) -> type[forms.ModelForm[Campaign]]:
        kwargs["form"] = campaign_form(self._system_of(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Campaign | None = None) -> list[str]:
        if obj is None:
            return []
        # the system: forces' stats depend on it; the club: its games count in the club's
        # rating (a backup restores a copy into another club)
        return ["rule_system", "club"]

    def get_fieldsets(self, request: HttpRequest, obj: Campaign | None = None) -> _FieldsetSpec:
        system = self._system_of(request, obj)
        options = campaign_form(system)().schema_names()
        note = "" if system else "Pick the system and save to set house rules; defaults apply."
        system_field = "rule_system" if obj is not None else "system"
        return [
            (
                None,
                {
                    "fields": [
                        "club",
                        "name",
                        "slug",
                        system_field,
                        "status",
                        "calendar_date",
                        "approve_joiners",
                    ]
                },
            ),
            ("House rules and options", {"fields": tuple(options), "description": note}),
        ]

    def save_model(
        self, request: HttpRequest, obj: Campaign, form: CampaignAdminForm, change: bool
    ) -> None:
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
                approve_joiners=obj.approve_joiners,
            ).pk
            return
        stored = Campaign.objects.get(pk=obj.pk)
        # Every changed field of the form goes to the service, which saves it or refuses it.
        changes = {n: getattr(obj, n) for n in form.changed_data if n in CAMPAIGN_FIELDS}
        if options is not None:
            changes["options"] = options
        services.campaign_update(campaign=stored, **changes)

    def save_formset(
        self, request: HttpRequest, form: ModelForm, formset: RowFormSet, change: bool
    ) -> None:
        campaign = form.instance
        untracked(formset)
        if formset.model is Membership:
            self.save_memberships(request, campaign, formset)

    def save_memberships(
        self, request: HttpRequest, campaign: Campaign, formset: RowFormSet
    ) -> None:
        for form in formset.deleted_forms:
            member = form.instance  # the formset's model is Membership (save_formset)
            if isinstance(member, Membership) and member.pk:
                services.membership_delete(membership=member)
        for form in formset.forms:
            if form not in formset.deleted_forms and form.has_changed():
                self.save_membership(request, campaign, form)

    def save_membership(
        self, request: HttpRequest, campaign: Campaign, form: ModelForm
    ) -> Membership:
        """Add a member or change their role (the league's admin adds its own rules)."""
        data = form.cleaned_data
        if form.instance.pk is None:
            return services.membership_create(
                campaign=campaign, user=data["user"], role=data["role"]
            )
        member = Membership.objects.get(pk=form.instance.pk)
        if "role" in form.changed_data:
            member = services.membership_update(membership=member, role=data["role"])
        return member

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:campaign_id>/house-rules/",
                view(self.house_rules_view),
                name="campaigns_campaign_house_rules",
            ),
            *super().get_urls(),
        ]

    def _run(self, request: HttpRequest, campaign_id: int) -> Campaign:
        """Return a campaign the user runs; anyone else's is a 404, as if it did not exist."""
        campaign: Campaign = get_object_or_404(self.get_queryset(request), pk=campaign_id)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        return campaign

    def _desk_context(self, request: HttpRequest) -> dict[str, object]:
        return {**self.admin_site.each_context(request), "opts": self.model._meta}

    def house_rules_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        return desk_house_rules.house_rules_view(request, campaign, self._desk_context(request))


def untracked(formset: RowFormSet) -> None:
    """Satisfy the admin's change message: the services, not `formset.save()`, write rows."""
    formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


@admin.register(Membership)
class MembershipAdmin(CampaignScoped, ModelAdmin):
    list_display = ["user", "campaign", "role", "withdrawn_from_round", "joined_at"]
    list_filter = [
        "role",
        ("campaign", admin.RelatedOnlyFieldListFilter),
        ("campaign__club", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["user", "campaign"]
    search_fields = ["user__username", "user__email", "campaign__name"]
    readonly_fields = ["user", "campaign", "role", "withdrawn_from_round", "joined_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players join on the campaign page, where the services run


#: A house-rules version as the admin shows it, all of it read-only.
VERSION_FIELDS = ("campaign", "number", "note", "created_by", "created_at", "changes", "tables")


@admin.register(HouseRules)
class HouseRulesAdmin(CampaignScoped, ModelAdmin):
    """The versions of each campaign's house rules, read-only: a version is never edited (a
    battle may have been played under it); the campaign's "Edit house rules" saves a new one."""

    list_display = ["campaign", "number", "note", "created_by", "created_at"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["campaign", "created_by"]
    search_fields = ["campaign__name", "note"]
    fields = VERSION_FIELDS
    readonly_fields = VERSION_FIELDS
    ordering = ["campaign", "-number"]

    class Media:
        css = {"all": ("campaigns/house_rules.css",)}

    def has_view_permission(self, request: HttpRequest, obj: HouseRules | None = None) -> bool:
        # Whoever may change a campaign reads its versions: the history belongs to the campaign,
        # so no permission of its own has to be granted to the organisers' group.
        user = request.user
        allowed = user.has_perm("campaigns.view_houserules") or user.has_perm(
            "campaigns.change_campaign"
        )
        return allowed and self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: HouseRules | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: HouseRules | None = None) -> bool:
        return False

    @admin.display(description="changes from the version before")
    def changes(self, obj: HouseRules) -> str:
        entry = next(e for e in version_history(obj.campaign) if e.version.pk == obj.pk)
        return render_to_string(
            "admin/campaigns/houserules/changes.html",
            {"changes": entry.changes, "edit": self._edit_link(obj)},
        )

    @admin.display(description="tables")
    def tables(self, obj: HouseRules) -> str:
        return render_to_string(
            "admin/campaigns/houserules/tables.html", {"tables": version_tables(obj)}
        )

    @staticmethod
    def _edit_link(obj: HouseRules) -> str:
        return reverse("admin:campaigns_campaign_house_rules", args=[obj.campaign_id])
