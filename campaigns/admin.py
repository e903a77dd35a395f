"""Campaign admin: clubs; campaigns with their league settings, memberships and adjustments
inline, the standings and the current round on the page; rounds with their pairings.

House-rule options are typed fields from the system's option schema, like stats on a
character. Organisers (the "Organisers" group) see and change only the campaigns they run:
every admin here scopes its queryset, its object permissions and its foreign-key choices.
Every save goes through the services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from campaigns import (
    admin_users,  # noqa: F401  (the user admin, dates of record read-only)
    selectors,
    services,
)
from campaigns.admin_history import (
    KeepsHistory,
    PairingFormSet,
    pairing_kept_because,
    round_kept_because,
)
from campaigns.dashboard import pairing_state as dash_state
from campaigns.dashboard import system_name
from campaigns.desk import dashboard as desk_dashboard
from campaigns.desk import house_rules as desk_house_rules
from campaigns.desk import results as desk_results
from campaigns.desk import season as desk_season
from campaigns.desk.results import forces_by_player
from campaigns.desk.words import reports, winner_name
from campaigns.errors import LeagueConflict
from campaigns.forms import PLACE_FIELDS, LeagueForm, PairingForm, tie_breaker_slot
from campaigns.house_rules_forms import version_history, version_tables
from campaigns.league import TIE_BREAKERS, LeagueError
from campaigns.models import (
    Campaign,
    Club,
    HouseRules,
    League,
    LeagueAdjustment,
    Membership,
    Pairing,
    Role,
    Round,
    RoundStatus,
)
from campaigns.selectors import campaigns_managed_by, clubs_administered_by
from campaigns.services.clubs import CAMPAIGN_FIELDS
from common.schema_forms import SchemaFormMixin, schema_form_class
from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system, system_choices


class CampaignAdminForm(SchemaFormMixin, forms.ModelForm):
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
        slug = self.cleaned_data["slug"]
        club_id = self.instance.club_id if self.instance.pk else None
        taken = Campaign.objects.filter(club_id=club_id, slug=slug).exclude(pk=self.instance.pk)
        if club_id is not None and taken.exists():
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


def managed_ids(request: HttpRequest) -> QuerySet:
    """Return (once per request) the ids of the campaigns the user may run."""
    if not hasattr(request, "_managed_campaign_ids"):
        request._managed_campaign_ids = set(  # type: ignore[attr-defined]
            campaigns_managed_by(request.user).values_list("pk", flat=True)
        )
    return request._managed_campaign_ids  # type: ignore[attr-defined]


def runs(request: HttpRequest, campaign_id: int | None) -> bool:
    return request.user.is_superuser or campaign_id in managed_ids(request)


#: Selects in the league admins that show no related-object widgets (edit, add, delete).
PLAIN_SELECTS = (Membership, get_user_model(), Round)


class CampaignScoped:
    """Mixin for admins and inlines of rows that belong to a campaign through `campaign_path`."""

    campaign_path = "campaign"

    def campaign_id_of(self, obj: Any) -> int | None:
        """Return the campaign of a row, or of the parent row an inline is asked about."""
        if isinstance(obj, Campaign):
            return obj.pk
        if isinstance(obj, Pairing):
            obj = obj.round
        return obj.campaign_id

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)  # type: ignore[misc]
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.campaign_path}__in": managed_ids(request)})

    def _allowed(self, request: HttpRequest, obj: Any) -> bool:
        return obj is None or runs(request, self.campaign_id_of(obj))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and self._allowed(  # type: ignore[misc]
            request, obj
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and self._allowed(  # type: ignore[misc]
            request, obj
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._allowed(  # type: ignore[misc]
            request, obj
        )

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        scoped = _scoped_choices(db_field.related_model, request)
        if scoped is not None:
            kwargs["queryset"] = scoped
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None and db_field.related_model is Membership:
            field.label_from_instance = _player_label  # "alice", not "alice in ... (Player)"
        return field

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]
        if db_field.is_relation and db_field.related_model in PLAIN_SELECTS and field is not None:
            _plain_select(field)
        return field


def _player_label(membership: Membership) -> str:
    return membership.player_name


def _plain_select(field: Any) -> None:
    """Drop the related-object widgets (edit, add, delete, view) from a select: on a player
    select the red cross deleted the membership itself, not the choice."""
    widget = field.widget
    if isinstance(widget, RelatedFieldWidgetWrapper):
        widget.can_add_related = widget.can_change_related = False
        widget.can_delete_related = widget.can_view_related = False


def _scoped_choices(model: Any, request: HttpRequest) -> QuerySet | None:
    """Return the choices an organiser may pick for a foreign key to `model` (None: as is)."""
    if request.user.is_superuser:
        return None
    ids = managed_ids(request)
    if model is Campaign:
        return Campaign.objects.filter(pk__in=ids)
    if model is Membership:
        return Membership.objects.filter(campaign_id__in=ids).select_related("user")
    if model is Round:
        return Round.objects.filter(campaign_id__in=ids)
    if model is Club:
        return clubs_administered_by(request.user)
    if model._meta.label == "battles.Battle":
        return model.objects.filter(campaign_id__in=ids)
    return None


class SystemListFilter(admin.SimpleListFilter):
    """Filter by rule system, listed by the system's name rather than its key."""

    title = "rule system"
    parameter_name = "system"
    field = "system"

    def lookups(self, request: HttpRequest, model_admin: Any) -> Any:
        return system_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


def _report(request: HttpRequest, exc: Exception) -> None:
    """Show a service's refusal as an admin error message."""
    text = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
    messages.error(request, text)


# --- inlines on the campaign page ----------------------------------------------------------------


class LeagueInline(CampaignScoped, admin.StackedInline):
    model = League
    form = LeagueForm
    can_delete = False
    max_num = 1
    verbose_name = verbose_name_plural = "League settings"

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list:
        return [
            (
                "Scoring",
                {
                    "fields": [
                        ("win_points", "draw_points", "loss_points"),
                        ("bye_points", "major_victory_bonus", "late_joiner_points"),
                        "max_games_per_pair",
                    ]
                },
            ),
            (
                "Tie-breakers, in order",
                {"fields": [tuple(tie_breaker_slot(i) for i in range(len(TIE_BREAKERS)))]},
            ),
            ("Season", {"fields": [("season_start", "season_end")]}),
        ]


class MembershipInline(CampaignScoped, admin.TabularInline):
    model = Membership
    extra = 1
    fields = ["user", "role", "withdrawn_from_round", "joined_at"]
    readonly_fields = ["joined_at"]

    def get_autocomplete_fields(self, request: HttpRequest) -> list[str]:
        # The user admin is the superuser's; organisers pick from a plain list of usernames.
        return ["user"] if request.user.is_superuser else []


class AdjustmentInline(CampaignScoped, admin.TabularInline):
    model = LeagueAdjustment
    fk_name = "campaign"
    extra = 0
    fields = ["player", "points", "reason", "created_by", "created_at"]
    readonly_fields = ["created_by", "created_at"]
    verbose_name_plural = "Points adjustments (each with its reason)"

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "player" and request.resolver_match:
            campaign_id = request.resolver_match.kwargs.get("object_id")
            field.queryset = field.queryset.filter(campaign_id=campaign_id, role=Role.PLAYER)
        return field


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "invite_only"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["admins"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(
            Q(pk__in=clubs_administered_by(request.user).values("pk"))
            | Q(campaigns__in=managed_ids(request))
        ).distinct()


@admin.register(Campaign)
class CampaignAdmin(CampaignScoped, admin.ModelAdmin):
    campaign_path = "pk"
    list_display = ["name", "club", "rule_system", "status", "calendar_date", "player_count"]
    list_filter = ["status", SystemListFilter, ("club", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["club"]
    search_fields = ["name", "slug", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [LeagueInline, MembershipInline, AdjustmentInline]
    change_form_template = "admin/campaigns/campaign/change_form.html"
    actions = [
        "generate_round_robin",
        "generate_swiss_round",
        "lock_current_round",
        "export_standings",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        return queryset.annotate(
            player_count=Count("memberships", filter=Q(memberships__role=Role.PLAYER))
        )

    @admin.display(description="rule system", ordering="system")
    def rule_system(self, obj: Campaign) -> str:
        return system_name(obj.system)

    @admin.display(description="players", ordering="player_count")
    def player_count(self, obj: Campaign) -> int:
        return obj.player_count  # type: ignore[attr-defined]

    def _system_of(self, request: HttpRequest, obj: Campaign | None) -> RuleSystem | None:
        return _system(
            obj.system if obj else request.POST.get("system") or request.GET.get("system")
        )

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        kwargs["form"] = campaign_form(self._system_of(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        # the system: forces' stats depend on it; the club: its games count in the club's
        # rating (a backup restores a copy into another club)
        return ["rule_system", "club"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list:
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
                approve_joiners=obj.approve_joiners,
            ).pk
            return
        stored = Campaign.objects.get(pk=obj.pk)
        # Every changed field of the form goes to the service, which saves it or refuses it.
        changes = {n: getattr(obj, n) for n in form.changed_data if n in CAMPAIGN_FIELDS}
        if options is not None:
            changes["options"] = options
        services.campaign_update(campaign=stored, **changes)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        campaign = form.instance
        _untracked(formset)
        savers = {
            League: _save_league,
            Membership: _save_memberships,
            LeagueAdjustment: _save_adjustments,
        }
        savers[formset.model](request, campaign, formset)

    # --- the standings and the current round on the page ---------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> HttpResponse:
        campaign = Campaign.objects.filter(pk=object_id).first()
        context = dict(extra_context or {})
        if campaign is not None and self.has_view_permission(request, campaign):
            context.update(league_context(campaign))
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list:
        view = self.admin_site.admin_view
        return [
            path("dashboard/", view(self.dashboard_view), name="campaigns_dashboard"),
            path("<int:campaign_id>/act/", view(self.act_view), name="campaigns_campaign_act"),
            path(
                "<int:campaign_id>/season/",
                view(self.season_view),
                name="campaigns_campaign_season",
            ),
            path(
                "<int:campaign_id>/season/preview/",
                view(self.season_preview_view),
                name="campaigns_campaign_season_preview",
            ),
            path(
                "<int:campaign_id>/house-rules/",
                view(self.house_rules_view),
                name="campaigns_campaign_house_rules",
            ),
            path(
                "<int:campaign_id>/standings/",
                view(self.standings_view),
                name="campaigns_campaign_standings",
            ),
            path(
                "<int:campaign_id>/standings.csv",
                view(self.standings_csv_view),
                name="campaigns_campaign_standings_csv",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request: HttpRequest, campaign_id: int) -> Campaign:
        campaign = get_object_or_404(self.get_queryset(request), pk=campaign_id)
        if not self.has_view_permission(request, campaign):
            raise PermissionDenied
        return campaign

    def standings_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._viewable(request, campaign_id)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{campaign}: standings",
            "campaign": campaign,
            **league_context(campaign),
        }
        return TemplateResponse(request, "admin/campaigns/campaign/standings.html", context)

    def standings_csv_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return standings_response(self._viewable(request, campaign_id))

    # --- the organiser's desk: dashboard and season settings -------------------------------------

    def _run(self, request: HttpRequest, campaign_id: int) -> Campaign:
        """Return a campaign the user runs; anyone else's is a 404, as if it did not exist."""
        campaign = get_object_or_404(self.get_queryset(request), pk=campaign_id)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        return campaign

    def _desk_context(self, request: HttpRequest) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "opts": self.model._meta}

    def dashboard_view(self, request: HttpRequest) -> HttpResponse:
        return desk_dashboard.dashboard_view(request, self._desk_context(request))

    def act_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return desk_dashboard.act_view(request, self._run(request, campaign_id))

    def season_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        return desk_season.season_view(request, campaign, self._desk_context(request))

    def season_preview_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        return desk_season.preview_view(request, self._run(request, campaign_id))

    def house_rules_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = self._run(request, campaign_id)
        return desk_house_rules.house_rules_view(request, campaign, self._desk_context(request))

    # --- actions ---------------------------------------------------------------------------------

    def _each(self, request: HttpRequest, queryset: QuerySet, act: Any, done: str) -> None:
        for campaign in queryset:
            if not self.has_change_permission(request, campaign):
                messages.error(request, f"{campaign}: you do not run this campaign")
                continue
            try:
                result = act(campaign)
            except (ValidationError, LeagueConflict, LeagueError) as exc:
                _report(request, exc)
                continue
            messages.success(request, f"{campaign}: {done.format(result=result)}")

    @admin.action(description="Generate a round-robin schedule", permissions=["change"])
    def generate_round_robin(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._each(
            request,
            queryset,
            lambda c: len(services.round_robin_generate(campaign=c)),
            "{result} rounds scheduled",
        )

    @admin.action(description="Generate the next Swiss round", permissions=["change"])
    def generate_swiss_round(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._each(
            request,
            queryset,
            lambda c: services.swiss_round_generate(campaign=c).number,
            "round {result} paired",
        )

    @admin.action(description="Lock the current round", permissions=["change"])
    def lock_current_round(self, request: HttpRequest, queryset: QuerySet) -> None:
        def lock(campaign: Campaign) -> int:
            round_ = selectors.current_round(campaign)
            if round_ is None:
                raise ValidationError("the league has no rounds yet")
            return services.round_lock(round_=round_).number

        self._each(request, queryset, lock, "round {result} locked")

    @admin.action(description="Export standings as CSV", permissions=["view"])
    def export_standings(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        campaigns = list(queryset)
        if len(campaigns) != 1:
            messages.error(request, "Select exactly one campaign to export its standings.")
            return None
        return standings_response(campaigns[0])


def _untracked(formset: Any) -> None:
    """Satisfy the admin's change message: the services, not `formset.save()`, write rows."""
    formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


def league_context(campaign: Campaign) -> dict[str, Any]:
    """Return what the standings section shows: the table and the current round's games."""
    standings = selectors.league_standings(campaign)
    round_ = selectors.current_round(campaign)
    pairings = list(selectors.round_pairings(round_)) if round_ else []
    rows = [(row, standings.names[row.player]) for row in standings.rows]
    return {
        "standings_rows": rows,
        "current_round": round_,
        "round_pairings": [(p, winner_name(p), STATE_WORDS[dash_state(p)]) for p in pairings],
        "separation_labels": {"points": "points", **TIE_BREAKERS},
        "standings_csv_url": reverse("admin:campaigns_campaign_standings_csv", args=[campaign.pk]),
    }


STATE_WORDS = {
    "bye": "bye",
    "confirmed": "confirmed",
    "agreed": "agreed by both players",
    "reported": "reported by one player",
    "disputed": "disputed",
    "missing": "not reported",
}


def standings_response(campaign: Campaign) -> HttpResponse:
    response = HttpResponse(selectors.league_standings(campaign).csv(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}-standings.csv"'
    return response


def _save_league(request: HttpRequest, campaign: Campaign, formset: Any) -> None:
    for form in formset.forms:
        if form.has_changed() and form.is_valid():
            services.league_update(campaign=campaign, **form.league_changes())


def _save_memberships(request: HttpRequest, campaign: Campaign, formset: Any) -> None:
    for form in formset.deleted_forms:
        if form.instance.pk:
            services.membership_delete(membership=form.instance)
    for form in formset.forms:
        if form in formset.deleted_forms or not form.has_changed():
            continue
        _save_membership(request, campaign, form)


def _save_membership(request: HttpRequest, campaign: Campaign, form: Any) -> None:
    data = form.cleaned_data
    if form.instance.pk is None:
        member = _add_member(request, campaign, data)
    else:
        member = Membership.objects.get(pk=form.instance.pk)
        if "role" in form.changed_data:
            member = services.membership_update(membership=member, role=data["role"])
    withdrawn = data.get("withdrawn_from_round")
    if "withdrawn_from_round" in form.changed_data and withdrawn:
        forfeits = services.membership_withdraw(
            membership=member, from_round=withdrawn, user=request.user
        )
        messages.info(
            request,
            f"{member.player_name} withdrawn: {len(forfeits)} game(s) forfeited to their opponents",
        )


def _add_member(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> Membership:
    """Add a member; a player added once rounds exist joins the league late (seat, catch-up)."""
    from_round = selectors.late_join_round(campaign)
    if data["role"] != Membership.Role.PLAYER or from_round is None:
        return services.membership_create(campaign=campaign, user=data["user"], role=data["role"])
    joined = services.league_join(
        campaign=campaign, user=data["user"], from_round=from_round, by=request.user
    )
    messages.info(
        request,
        f"{joined.membership.player_name} joins the league from round {from_round}; "
        f"{len(joined.catch_up)} catch-up game(s) to arrange by hand.",
    )
    return joined.membership


def _save_adjustments(request: HttpRequest, campaign: Campaign, formset: Any) -> None:
    for form in formset.deleted_forms:
        if form.instance.pk:
            form.instance.delete()
    for form in formset.forms:
        if form in formset.deleted_forms or not form.has_changed():
            continue
        data = form.cleaned_data
        if form.instance.pk is None:
            services.adjustment_create(
                player=data["player"],
                points=data["points"],
                reason=data["reason"],
                user=request.user,
            )
        else:
            form.save()


# --- rounds and pairings -------------------------------------------------------------------------


class PairingInline(CampaignScoped, admin.TabularInline):
    model = Pairing
    form = PairingForm
    formset = PairingFormSet
    campaign_path = "round__campaign"
    extra = 0
    fields = [
        *PLACE_FIELDS,
        "winner",
        "home_vp",
        "away_vp",
        "home_figures_lost",
        "away_figures_lost",
        "major_victory",
        "home_no_show",
        "away_no_show",
        "battle",
        "state",
        "version",
    ]
    readonly_fields = ["state"]
    ordering = ["table", "pk"]

    def get_formset(self, request: HttpRequest, obj: Round | None = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None:
            scope_pairing_choices(formset.form.base_fields, obj)
        return formset

    @admin.display(description="state")
    def state(self, obj: Pairing) -> str:
        return pairing_state(obj)


def pairing_state(pairing: Pairing) -> str:
    """Say where a pairing's result stands, in the words the organiser acts on."""
    if pairing.is_bye:
        return "bye"
    if pairing.confirmed_by_organiser:
        return "confirmed"
    if pairing.disputed:
        return f"disputed: {pairing.disputed_claim.get('side', '?')} says otherwise"
    if pairing.reported_by_home and pairing.reported_by_away:
        return "agreed by both players"
    if pairing.reported_by_home or pairing.reported_by_away:
        return "reported by " + ("home" if pairing.reported_by_home else "away")
    return "not played yet"


def scope_pairing_choices(fields: dict[str, Any], round_: Round) -> None:
    """Offer only the round's campaign's players ("alice — Gridley's Own") and battles: a
    player of another campaign is then an invalid choice, a form error, never a 500."""
    players = Membership.objects.filter(campaign_id=round_.campaign_id, role=Role.PLAYER)
    forces = forces_by_player(round_)
    for name in ("home", "away"):
        if name in fields:
            fields[name].queryset = players.select_related("user")
            fields[name].label_from_instance = lambda m: player_with_forces(m, forces)
    if "battle" in fields:
        fields["battle"].queryset = fields["battle"].queryset.filter(campaign_id=round_.campaign_id)


def player_with_forces(member: Membership, forces: dict[int, str]) -> str:
    return f"{member.player_name} — {forces.get(member.user_id) or 'no force yet'}"


@admin.register(Round)
class RoundAdmin(KeepsHistory, CampaignScoped, admin.ModelAdmin):
    list_display = ["__str__", "campaign", "kind", "status", "deadline", "games", "settled_games"]
    list_filter = [
        "status",
        "kind",
        ("campaign", admin.RelatedOnlyFieldListFilter),
        ("campaign__club", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["campaign"]
    search_fields = ["campaign__name", "number"]
    inlines = [PairingInline]
    actions = ["lock_rounds"]
    change_form_template = "admin/campaigns/round/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        settled = (
            Q(pairings__confirmed_by_organiser=True)
            | Q(pairings__away__isnull=True)
            | Q(
                pairings__reported_by_home=True,
                pairings__reported_by_away=True,
                pairings__disputed=False,
            )
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                game_count=Count("pairings", distinct=True),
                settled_count=Count("pairings", filter=settled, distinct=True),
            )
        )

    def kept_because(self, obj: Round) -> str:
        return round_kept_because(obj)

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        services.round_delete(round_=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for round_ in queryset:
            services.round_delete(round_=round_)

    @admin.display(description="pairings", ordering="game_count")
    def games(self, obj: Round) -> int:
        return obj.game_count  # type: ignore[attr-defined]

    @admin.display(description="settled")
    def settled_games(self, obj: Round) -> int:
        return obj.settled_count  # type: ignore[attr-defined]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fixed = ["campaign", "number", "kind"] if obj else []
        return [*fixed, "status", "locked_at"]

    def get_inlines(self, request: HttpRequest, obj: Any) -> list:
        # Its players are the campaign's: pair them once the round (and so its campaign) exists.
        return self.inlines if obj is not None else []

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        round_ = form.instance
        _untracked(formset)
        for inline_form in formset.deleted_forms:
            if inline_form.instance.pk:
                _delete_pairing(request, round_, inline_form.instance)
        added = False
        for inline_form in formset.forms:
            if inline_form not in formset.deleted_forms and inline_form.has_changed():
                new = inline_form.instance.pk is None
                added |= _save_pairing(request, round_, inline_form) and new
        if added:  # paired by hand: the players and the hooks hear of it as of any pairing
            services.round_announce(round_=round_)
        for warning in services.round_check(round_=round_):
            messages.warning(request, warning.message)

    def get_urls(self) -> list:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:round_id>/results/",
                view(self.results_view),
                name="campaigns_round_results",
            ),
            path("<int:round_id>/sheet/", view(self.sheet_view), name="campaigns_round_sheet"),
            *super().get_urls(),
        ]

    def _run(self, request: HttpRequest, round_id: int) -> Round:
        round_ = get_object_or_404(
            self.get_queryset(request).select_related("campaign"), pk=round_id
        )
        if not self.has_change_permission(request, round_):
            raise PermissionDenied
        return round_

    def results_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        context = {**self.admin_site.each_context(request), "opts": self.model._meta}
        return desk_results.results_view(request, self._run(request, round_id), context)

    def sheet_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        return desk_results.sheet_view(request, self._run(request, round_id))

    @admin.action(description="Lock selected rounds", permissions=["change"])
    def lock_rounds(self, request: HttpRequest, queryset: QuerySet) -> None:
        for round_ in queryset:
            try:
                services.round_lock(round_=round_)
            except (ValidationError, LeagueConflict) as exc:
                _report(request, exc)
            else:
                messages.success(request, f"{round_.campaign}: round {round_.number} locked")


def _delete_pairing(request: HttpRequest, round_: Round, pairing: Pairing) -> None:
    try:
        services.pairing_delete(pairing=pairing)
    except ValidationError as exc:
        messages.error(request, f"table {pairing.table}: {'; '.join(exc.messages)}")


def _save_pairing(request: HttpRequest, round_: Round, form: PairingForm) -> bool:
    """Save a pairing's place directly; a result or battle goes through the result services.
    Return whether it was saved (a refusal is shown as an error message)."""
    try:
        pairing = _save_place(round_, form)
        if "battle" in form.changed_data and form.cleaned_data.get("battle"):
            services.pairing_link_battle(
                pairing=pairing,
                battle=form.cleaned_data["battle"],
                user=request.user,
                expected_version=form.seen_version(),
            )
        elif form.result_changed():
            services.pairing_confirm(
                pairing=pairing,
                user=request.user,
                claim=services.claim_from(form.result_data()),
                expected_version=form.seen_version(),
            )
    except (ValidationError, LeagueConflict) as exc:
        messages.error(
            request,
            f"table {form.instance.table}: "
            + ("; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)),
        )
        return False
    return True


def _save_place(round_: Round, form: PairingForm) -> Pairing:
    moved = [n for n in PLACE_FIELDS if n in form.changed_data]
    if form.instance.pk is not None and not moved:
        return Pairing.objects.get(pk=form.instance.pk)
    if round_.status == RoundStatus.LOCKED:
        raise LeagueConflict(f"round {round_.number} is locked")
    if form.instance.pk is not None and Pairing.objects.get(pk=form.instance.pk).version:
        raise ValidationError("a result was already reported for this game; it keeps its players")
    pairing = form.instance if form.instance.pk else Pairing(round=round_)
    for name in PLACE_FIELDS:
        setattr(pairing, name, form.cleaned_data.get(name))
    pairing.save()
    return pairing


@admin.register(Pairing)
class PairingAdmin(KeepsHistory, CampaignScoped, admin.ModelAdmin):
    campaign_path = "round__campaign"
    form = PairingForm
    list_display = ["__str__", "campaign", "home_player", "away_player", "score", "result_state"]
    list_filter = [
        "disputed",
        "confirmed_by_organiser",
        "winner",
        "round__status",
        "round__kind",
        ("round__campaign", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["round__campaign", "home__user", "away__user"]
    search_fields = ["home__user__username", "away__user__username", "round__campaign__name"]
    readonly_fields = [
        "round",
        "reported_by_home",
        "reported_by_away",
        "confirmed_by",
        "the_reports",
        "result_state",
    ]
    actions = ["confirm_reported", "auto_resolve"]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None:
            scope_pairing_choices(form.base_fields, obj.round)
        return form

    @admin.display(description="the players' reports")
    def the_reports(self, obj: Pairing) -> str:
        """The two differing reports in words ("alice says alice won 3–1"), never JSON."""
        said = [f"{name} says {sentence}." for _, name, sentence, _ in reports(obj)]
        return " ".join(said) or "—"

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [
            "round",
            *PairingInline.fields[:-2],
            "result_state",
            "reported_by_home",
            "reported_by_away",
            "confirmed_by",
            "the_reports",
            "version",
        ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # pairings are added inside their round

    def kept_because(self, obj: Pairing) -> str:
        return pairing_kept_because(obj)

    def delete_model(self, request: HttpRequest, obj: Pairing) -> None:
        services.pairing_delete(pairing=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for pairing in queryset:
            services.pairing_delete(pairing=pairing)

    @admin.display(description="campaign")
    def campaign(self, obj: Pairing) -> Campaign:
        return obj.round.campaign

    @admin.display(description="home", ordering="home__user__username")
    def home_player(self, obj: Pairing) -> str:
        return obj.home.player_name

    @admin.display(description="away", ordering="away__user__username")
    def away_player(self, obj: Pairing) -> str:
        return obj.away.player_name if obj.away else "Bye"

    @admin.display(description="score")
    def score(self, obj: Pairing) -> str:
        return "Bye" if obj.is_bye else f"{obj.home_vp}–{obj.away_vp} ({winner_name(obj)})"

    @admin.display(description="state")
    def result_state(self, obj: Pairing) -> str:
        return format_html("{}", pairing_state(obj))

    def save_model(self, request: HttpRequest, obj: Pairing, form: Any, change: bool) -> None:
        _save_pairing(request, obj.round, form)

    @admin.action(description="Confirm the reported results", permissions=["change"])
    def confirm_reported(self, request: HttpRequest, queryset: QuerySet) -> None:
        for pairing in queryset.select_related("round"):
            try:
                services.pairing_confirm(pairing=pairing, user=request.user)
            except (ValidationError, LeagueConflict) as exc:
                _report(request, exc)
            else:
                messages.success(request, f"{pairing}: confirmed")

    @admin.action(description="Auto-resolve selected no-show games", permissions=["change"])
    def auto_resolve(self, request: HttpRequest, queryset: QuerySet) -> None:
        for pairing in queryset.select_related("round"):
            try:
                services.pairing_auto_resolve(pairing=pairing, user=request.user)
            except (ValidationError, LeagueConflict) as exc:
                _report(request, exc)
            else:
                messages.success(request, f"{pairing}: auto-resolved by simulation")


@admin.register(LeagueAdjustment)
class LeagueAdjustmentAdmin(CampaignScoped, admin.ModelAdmin):
    list_display = ["player_name", "campaign", "points", "reason", "created_by", "created_at"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["player__user", "campaign", "created_by"]
    search_fields = ["reason", "player__user__username", "campaign__name"]
    fields = ["campaign", "player", "points", "reason"]

    @admin.display(description="player", ordering="player__user__username")
    def player_name(self, obj: LeagueAdjustment) -> str:
        return obj.player.player_name

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            obj.save()
            return
        obj.pk = services.adjustment_create(
            player=obj.player, points=obj.points, reason=obj.reason, user=request.user
        ).pk


@admin.register(Membership)
class MembershipAdmin(CampaignScoped, admin.ModelAdmin):
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


@admin.register(HouseRules)
class HouseRulesAdmin(CampaignScoped, admin.ModelAdmin):
    """The versions of each campaign's house rules, read-only: a version is never edited (a
    battle may have been played under it); the campaign's "Edit house rules" saves a new one."""

    list_display = ["campaign", "number", "note", "created_by", "created_at"]
    list_filter = [("campaign", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["campaign", "created_by"]
    search_fields = ["campaign__name", "note"]
    fields = ["campaign", "number", "note", "created_by", "created_at", "changes", "tables"]
    readonly_fields = fields
    ordering = ["campaign", "-number"]

    class Media:
        css = {"all": ("campaigns/house_rules.css",)}

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Whoever may change a campaign reads its versions: the history belongs to the campaign,
        # so no permission of its own has to be granted to the organisers' group.
        user = request.user
        allowed = user.has_perm("campaigns.view_houserules") or user.has_perm(
            "campaigns.change_campaign"
        )
        return allowed and self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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
