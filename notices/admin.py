"""Webhooks in the admin: organisers add them to their own campaigns and see which fail.

A failing endpoint shows its last error and its failures in a row in the list; one switched
off after repeated failures is switched back on with the "Switch back on" action.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from campaigns.admin import CampaignScoped
from common.django_bases import ModelAdmin, ModelForm, TabularInline
from notices.delivery import webhook_enable
from notices.models import Delivery, EventKind, Webhook


class DeliveryInline(TabularInline):
    model = Delivery
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ["-pk"]
    fields = readonly_fields = (
        "event",
        "status",
        "attempts",
        "response_status",
        "delivered_at",
        "last_error",
    )


class WebhookForm(ModelForm):
    """The events as tick boxes of the known events, never a raw JSON box."""

    events = forms.MultipleChoiceField(
        choices=EventKind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="The events this hook receives.",
    )

    class Meta:
        model = Webhook
        fields = ["campaign", "name", "url", "format", "events", "secret", "active"]


@admin.register(Webhook)
class WebhookAdmin(CampaignScoped, ModelAdmin):
    form = WebhookForm
    list_display = ["name", "campaign", "format", "active", "failures_in_row", "last_error_short"]
    list_filter = ["active", "format"]
    list_select_related = ["campaign"]
    search_fields = ["name", "campaign__name"]
    fields = [
        "campaign",
        "name",
        "url",
        "format",
        "events",
        "secret",
        "active",
        "failures_in_row",
        "last_error",
        "last_failure_at",
        "last_success_at",
        "disabled_at",
    ]
    readonly_fields = [
        "failures_in_row",
        "last_error",
        "last_failure_at",
        "last_success_at",
        "disabled_at",
    ]
    inlines = [DeliveryInline]
    actions = ["switch_back_on"]

    @admin.display(description="last error")
    def last_error_short(self, hook: Webhook) -> str:
        return hook.last_error[:80] if hook.failures_in_row else ""

    @admin.action(description="Switch back on (the receiver is fixed)")
    def switch_back_on(self, request: HttpRequest, queryset: QuerySet[Webhook]) -> None:
        for hook in queryset:
            webhook_enable(webhook=hook)
        self.message_user(request, f"{queryset.count()} webhook(s) on again.", messages.SUCCESS)
