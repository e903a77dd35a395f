"""Battle admin: sides, figures, the event log and the ledger read-only; result entry through
the services; actions to settle a disputed or unanswered result (organisers, the consent rule of
battles.services.consent) and to (re)queue the post-battle processing."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse

from battles import services
from battles.errors import BattleConflict
from battles.forms import FigureResultForm, SideResultForm, figure_initial
from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, PostBattleRoll
from battles.selectors import battle_kept_because, rules_for_battle
from campaigns.admin import CampaignScoped, SystemListFilter
from campaigns.selectors import system_name
from common.django_bases import ModelAdmin, TabularInline
from common.users import signed_in
from rules.system import RuleSystem


def options_sentence(system: RuleSystem, options: Mapping[str, object]) -> str:
    fields = {f.name: f for f in system.options.fields} if system.options else {}
    parts = []
    for name, value in options.items():
        field = fields.get(name)
        words = dict(field.choices).get(value, value) if field and field.choices else value
        if isinstance(words, bool):
            words = "yes" if words else "no"
        elif isinstance(words, list | tuple):
            words = ", ".join(map(str, words)) or "none"
        parts.append(f"{field.title if field else name.replace('_', ' ')}: {words}")
    return "; ".join(parts) or "the campaign's defaults"


class ReadOnlyInline(TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> list[str]:
        return [name for name in self.fields or () if isinstance(name, str)]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SideInline(ReadOnlyInline):
    model = BattleSide
    fields = [
        "index",
        "force",
        "result",
        "victory_points",
        "broke_at_seq",
        "agreed_at",
        "agreed_by",
    ]


class FigureInline(ReadOnlyInline):
    model = BattleFigure
    fields = [
        "side",
        "name",
        "character",
        "unit_name",
        "state",
        "skills_used",
        "kills",
        "final_status",
    ]


class EventInline(ReadOnlyInline):
    model = BattleEvent
    fields = [
        "seq",
        "kind",
        "actor",
        "target",
        "check_name",
        "params",
        "dice",
        "dice_given",
        "outcome",
        "effects",
        "created_by",
        "created_at",
        "voided",
    ]
    ordering = ["seq"]


class LedgerInline(ReadOnlyInline):
    model = PostBattleRoll
    fields = ["character", "procedure", "index", "subject", "outcome", "dice", "house_rule"]
    ordering = ["character_id", "procedure", "index"]


@admin.register(Battle)
class BattleAdmin(CampaignScoped, ModelAdmin):
    list_display = ["__str__", "campaign", "rule_system", "campaign_date", "status", "created_at"]
    list_filter = ["status", SystemListFilter, ("campaign", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["scenario"]
    readonly_fields = [
        "campaign",
        "rule_system",
        "house_rules",
        "status",
        "seed_sha256",
        "revealed_seed",
        "activation_method",
        "activation_state",
        "auto_resolved",
        "created_by",
        "created_at",
        "reported_at",
        "disputed_by",
        "dispute_note",
        "finished_at",
        "claimed_at",
        "processed_at",
        "options_in_words",
    ]
    fields = ["scenario", "campaign_date", *readonly_fields]
    inlines = [SideInline, FigureInline, EventInline, LedgerInline]
    actions = ["settle_results", "requeue_processing"]
    change_form_template = "admin/battles/battle/change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # battles start from forces: the API or the table assistant

    def has_delete_permission(self, request: HttpRequest, obj: Battle | None = None) -> bool:
        # A finished battle is history (also on "Delete selected", which asks row by row).
        if obj is not None and battle_kept_because(obj):
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="rule system", ordering="system")
    def rule_system(self, battle: Battle) -> str:
        return system_name(battle.system)

    @admin.display(description="options")
    def options_in_words(self, battle: Battle) -> str:
        """The battle's campaign options as "Label: value" sentences, never JSON."""
        return options_sentence(rules_for_battle(battle), battle.options or {})

    @admin.display(description="Seed (revealed once processed)")
    def revealed_seed(self, battle: Battle) -> str:
        return battle.seed if battle.status == Battle.Status.PROCESSED else "(secret)"

    @admin.action(description="Settle the result as organiser (disputed, or unanswered in time)")
    def settle_results(self, request: HttpRequest, queryset: QuerySet[Battle]) -> None:
        # The same rule as the pages and the API: battle_settle checks the user organises
        # every waiting side's campaign and that a report's time to answer has passed.
        for battle in queryset:
            try:
                services.battle_settle(battle=battle, user=signed_in(request.user))
                self.message_user(request, f"{battle}: settled", messages.SUCCESS)
            except (ValidationError, BattleConflict) as exc:
                self.message_user(request, f"{battle}: {'; '.join(_messages(exc))}", messages.ERROR)

    @admin.action(description="(Re)queue the post-battle processing")
    def requeue_processing(self, request: HttpRequest, queryset: QuerySet[Battle]) -> None:
        for battle in queryset:
            try:
                services.battle_requeue(battle=battle)
                self.message_user(request, f"{battle}: queued", messages.SUCCESS)
            except BattleConflict as exc:
                self.message_user(request, f"{battle}: {exc}", messages.ERROR)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.result_view)
        return [path("<int:pk>/result/", view, name="battles_battle_result"), *super().get_urls()]

    def result_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Enter a battle's result after the fact: per figure and per side."""
        battle = get_object_or_404(Battle, pk=pk)
        figure_forms, side_forms = _result_forms(battle, request.POST or None)
        if request.method == "POST" and all(f.is_valid() for f in figure_forms + side_forms):
            try:
                services.battle_record_result(
                    battle=battle,
                    figures=[f.entry() for f in figure_forms],
                    sides=[f.cleaned_data for f in side_forms],
                    user=signed_in(request.user),
                )
                self.message_user(request, "Result entered.", messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:battles_battle_change", args=[pk]))
            except (ValidationError, BattleConflict) as exc:
                self.message_user(request, "; ".join(_messages(exc)), messages.ERROR)
        context = {
            **self.admin_site.each_context(request),
            "battle": battle,
            "figure_forms": figure_forms,
            "side_forms": side_forms,
            "opts": self.model._meta,
            "title": f"Result of {battle}",
        }
        return render(request, "admin/battles/battle/result.html", context)


def _result_forms(
    battle: Battle, data: QueryDict | None
) -> tuple[list[FigureResultForm], list[SideResultForm]]:
    system = rules_for_battle(battle)
    figures = battle.figures.select_related("side").order_by("side__index", "pk")
    sides = battle.sides.select_related("force").order_by("index")
    return (
        [
            FigureResultForm(
                data, prefix=f"f{f.pk}", system=system, figure=f, initial=figure_initial(system, f)
            )
            for f in figures
        ],
        [
            SideResultForm(
                data,
                prefix=f"s{s.pk}",
                side=s,
                initial={
                    "side": s.pk,
                    # no result yet: none chosen, so saving the page unchanged records nothing
                    "result": s.result,
                    "victory_points": s.victory_points,
                },
            )
            for s in sides
        ],
    )


def _messages(exc: Exception) -> list[str]:
    return getattr(exc, "messages", None) or [str(exc)]


@admin.register(PostBattleRoll)
class PostBattleRollAdmin(ModelAdmin):
    """The ledger, filterable per battle and per character; never edited by hand."""

    list_display = [
        "battle",
        "character",
        "procedure",
        "index",
        "subject",
        "outcome",
        "house_rule",
        "created_at",
    ]
    list_filter = ["procedure", "house_rule"]
    search_fields = ["character__name", "battle__scenario"]
    list_select_related = ["battle", "character"]
    raw_id_fields = ["battle", "character"]

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
