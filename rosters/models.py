"""Forces, their units and named characters, and each character's service record.

Stats are JSON validated by the rule system's schema (`common.stats`), never free-form: the
admin and the API render typed fields from the same schema. Invariants that span two tables (a
character's unit is in the character's force; a force in a campaign plays the campaign's
system) are composite foreign keys or triggers installed by `rosters.db_constraints`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords


class CharacterStatus(models.TextChoices):
    ACTIVE = "ACTIVE", "Active"
    RECOVERING = "RECOVERING", "Recovering"
    DEAD = "DEAD", "Dead"
    RETIRED = "RETIRED", "Retired"
    CAPTURED = "CAPTURED", "Captured"


class EntryCause(models.TextChoices):
    """Why a character changed; BATTLE and ROLL entries come from the battles app."""

    CREATED = "CREATED", "Created"
    HAND_EDIT = "HAND_EDIT", "Edited by hand"
    MOVED = "MOVED", "Moved to another unit"
    RETIRED = "RETIRED", "Retired"
    BATTLE = "BATTLE", "Battle"
    ROLL = "ROLL", "Post-battle roll"
    IMPORT = "IMPORT", "Imported"


class Force(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="forces"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="forces",
        help_text="Optional: a force can exist outside any campaign.",
    )
    system = models.CharField(max_length=40, help_text="Rule system key; the campaign's if any.")
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Set when the owner put the force away; it keeps its battles and records.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["campaign", "owner"], name="force_campaign_owner")]

    def __str__(self) -> str:
        return self.name


class Unit(models.Model):
    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(max_length=120)
    order = models.PositiveSmallIntegerField(default=0, help_text="Position in the roster.")
    leader = models.ForeignKey(
        "Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    stats = models.JSONField(
        default=dict, blank=True, help_text="Unit stats, for systems whose piece is the unit."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["force", "name"], name="unit_name_unique_in_force"),
            # Target of the characters' composite foreign key (unit, force).
            models.UniqueConstraint(fields=["id", "force"], name="unit_id_force_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Character(models.Model):
    Status = CharacterStatus

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="characters")
    unit = models.ForeignKey(
        Unit, on_delete=models.SET_NULL, null=True, blank=True, related_name="characters"
    )
    name = models.CharField(max_length=120)
    rank = models.CharField(max_length=80, blank=True, help_text="Rank or title.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    stats = models.JSONField(default=dict, help_text="Validated by the rule system's schema.")
    permanent_wounds = models.JSONField(default=list, blank=True)
    photo = models.ImageField(upload_to="characters/", blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["force", "name"], name="character_name_unique_in_force"
            ),
            models.CheckConstraint(
                condition=Q(status__in=CharacterStatus.values),
                name="character_status_valid",
            ),
        ]
        # The characters list's default order: a page is read off this index instead of
        # sorting every visible character first (bench/characters.py).
        indexes = [models.Index(fields=["name", "id"], name="character_by_name")]

    def __str__(self) -> str:
        return self.name


class ServiceRecordEntry(models.Model):
    """One change to a character: what it was, what it became, why and who did it.

    Append-only: a trigger refuses updates (see `rosters.db_constraints`). `before`/`after` hold
    only the fields that changed. `battle_id` is a plain integer until the battles app owns a
    Battle model; it will become a foreign key then.
    """

    Cause = EntryCause

    # PROTECT: the record is history; only `force_delete` (a force that never fought)
    # removes a record, deliberately and entry by entry.
    character = models.ForeignKey(
        Character, on_delete=models.PROTECT, related_name="service_record"
    )
    cause = models.CharField(max_length=10, choices=Cause.choices)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    note = models.CharField(max_length=300, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    battle_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "service record entry"
        verbose_name_plural = "service record"
        constraints = [
            models.CheckConstraint(
                condition=Q(cause__in=EntryCause.values),
                name="service_record_cause_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["character", "created_at"], name="service_record_by_character"),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.get_cause_display()}"
