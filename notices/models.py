"""Notifications: a campaign's webhooks and their delivery ledger, and players' in-site notices.

Exactly once per (event, hook): an `Event` is written once per happening (its `key` is unique),
each hook it goes to gets one `Delivery` row (unique per event and hook), and a worker sends a
delivery only after claiming it with a conditional UPDATE (see `notices.delivery`).
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


class EventKind(models.TextChoices):
    RESULT_REPORTED = "result_reported", "A result is reported"
    RESULT_CONFIRMED = "result_confirmed", "A result is confirmed"
    BATTLE_PROCESSED = "battle_processed", "A battle's aftermath is rolled"
    ROUND_PAIRED = "round_paired", "A round is paired"


class HookFormat(models.TextChoices):
    DISCORD = "discord", "Discord (or a Discord-compatible chat)"
    JSON = "json", "JSON, signed with HMAC-SHA256"


def validate_hook_url(url: str) -> None:
    """Only http and https URLs with a host; production should point at public hosts."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https"):
        raise ValidationError("a webhook address starts with https:// (or http://)")
    if not parts.hostname:
        raise ValidationError("a webhook address needs a host name")
    if parts.username or parts.password:
        raise ValidationError("put no user name or password in a webhook address")
    if _names_an_internal_address(parts.hostname):
        raise ValidationError(
            "a webhook address must be a public host: loopback, private, link-local and "
            "metadata addresses are refused (NOTIFY_INTERNAL_HOSTS names allowed internal hosts)"
        )


def _names_an_internal_address(host: str) -> bool:
    """A literal internal address or localhost (names are resolved again at each delivery)."""
    from notices.outbound import host_is_allowed, is_public

    if host_is_allowed(host):
        return False
    if host.lower().rstrip(".") == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return not is_public(host)
    except ValueError:
        return False  # a name, not an address


def validate_event_kinds(value: object) -> None:
    """A hook's events: a list of known event names (anything else broke every event record)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError("events must be a list of event names")
    unknown = sorted(set(value) - set(EventKind.values))
    if unknown:
        raise ValidationError(
            f"unknown events: {', '.join(unknown)}; known: {', '.join(EventKind.values)}"
        )


def new_secret() -> str:
    return secrets.token_hex(32)


def all_event_kinds() -> list[str]:
    return list(EventKind.values)


class Webhook(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="webhooks"
    )
    name = models.CharField(max_length=80, help_text="Where it posts, e.g. “Club Discord”.")
    url = models.URLField(max_length=500, validators=[validate_hook_url])
    format = models.CharField(max_length=10, choices=HookFormat.choices, default=HookFormat.DISCORD)
    secret = models.CharField(
        max_length=128,
        default=new_secret,
        help_text="Signs each JSON delivery (X-Muster-Signature: sha256=HMAC of the body).",
    )
    events = models.JSONField(
        default=all_event_kinds,
        blank=True,
        validators=[validate_event_kinds],
        help_text="The events this hook receives.",
    )
    active = models.BooleanField(default=True)
    failures_in_row = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when repeated failures switched the hook off."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=HookFormat.values), name="webhook_format_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if not isinstance(self.events, list):
            return  # the field's own validator names it
        unknown = sorted({str(e) for e in self.events} - set(EventKind.values))
        if unknown:
            raise ValidationError({"events": f"unknown events: {', '.join(unknown)}"})


class Event(models.Model):
    """Something that happened in a campaign, written once (`key` names the happening)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="notice_events"
    )
    kind = models.CharField(max_length=20, choices=EventKind.choices)
    key = models.CharField(max_length=120, unique=True)
    title = models.CharField(max_length=200)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=EventKind.values), name="event_kind_valid")
        ]

    def __str__(self) -> str:
        return self.title


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting"
    SENDING = "sending", "Being sent"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Gave up"


class Delivery(models.Model):
    """The ledger: one row per (event, hook); `claim` is the worker that is sending it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    claim = models.CharField(max_length=32, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(fields=["event", "webhook"], name="delivery_once_per_hook"),
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values), name="delivery_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook}"


class Notice(models.Model):
    """An in-site notification for one player (a pairing for you, a result to confirm)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="notices"
    )
    key = models.CharField(max_length=160)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_user"),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class NoticeSettings(models.Model):
    """A player's choice to have their notices e-mailed too."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    email = models.BooleanField(
        default=False, help_text="Also send my notifications to my e-mail address."
    )

    def __str__(self) -> str:
        return f"Notification settings of {self.user}"
