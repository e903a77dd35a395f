"""Clubs, their campaigns and who plays in them.

A campaign is played under one rule system from the rules registry; the key is stored as text
(not a Django `choices` list) so that registering a new system needs no migration. Services and
forms check the key against the registry.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class CampaignStatus(models.TextChoices):
    DRAFT = "DRAFT", "Draft"
    ACTIVE = "ACTIVE", "Active"
    FINISHED = "FINISHED", "Finished"


class Role(models.TextChoices):
    ORGANISER = "ORGANISER", "Organiser"
    PLAYER = "PLAYER", "Player"


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="administered_clubs", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Campaign(models.Model):
    Status = CampaignStatus

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="campaigns")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    system = models.CharField(max_length=40, help_text="Rule system key from the rules registry.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    options = models.JSONField(
        default=dict, blank=True, help_text="House rules, validated by the system's options."
    )
    calendar_date = models.DateField(
        null=True, blank=True, help_text="The date in the campaign's own calendar."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="campaign_slug_unique_in_club"),
            models.CheckConstraint(
                condition=Q(status__in=CampaignStatus.values),
                name="campaign_status_valid",
            ),
            # Target of the forces' composite foreign key (campaign, system): a force in a
            # campaign must be played under the campaign's system (see rosters.db_constraints).
            models.UniqueConstraint(fields=["id", "system"], name="campaign_id_system_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    Role = Role

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="membership_unique"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} ({self.get_role_display()})"
