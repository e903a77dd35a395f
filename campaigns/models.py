"""Clubs, their campaigns and who plays in them.

A campaign is played under one rule system from the rules registry; the key is stored as text
(not a Django `choices` list) so that registering a new system needs no migration. Services and
forms check the key against the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


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
    invite_only = models.BooleanField(
        default=False,
        help_text="Sign-up needs an invitation link to one of the club's campaigns.",
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
    approve_joiners = models.BooleanField(
        default=False,
        help_text="A player who opens an invitation link waits for an organiser's approval.",
    )
    # A copy restored from a backup under a new slug: its games were rated with the original,
    # so the club rating leaves them out (they would count twice). Nullable so that SQLite adds
    # the column in place: rebuilding the table breaks the rosters' triggers that read it.
    copy_of = models.CharField(  # noqa: DJ001 (nullable on purpose, see above)
        max_length=120,
        null=True,
        blank=True,
        editable=False,
        help_text="The slug of the campaign this one was restored from as a copy.",
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
    withdrawn_from_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The first league round this player no longer plays."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="membership_unique"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        # Short: the admin shows memberships inside their campaign, where "alice" is enough.
        return self.player_name

    @property
    def player_name(self) -> str:
        return display_name(self.user)


def display_name(user: AbstractBaseUser) -> str:
    """Return the name a player chose to be shown by (their profile), else their username.

    The display name is kept in the user's `first_name`: every page that loads the user
    already has it, so showing it costs no query.
    """
    return (getattr(user, "first_name", "") or "").strip() or user.get_username()


class Invitation(models.Model):
    """A link that lets whoever opens it join a campaign as a player (and sign up, where the
    club is invite-only). Organisers revoke it; it may expire."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=32, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0, help_text="Players who joined with it.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(code=""), name="invitation_has_code"),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign_id}"


class JoinRequest(models.Model):
    """A player waiting for an organiser to let them into a campaign that approves joiners."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests"
    )
    invitation = models.ForeignKey(
        Invitation, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="join_request_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.campaign_id}"


class HouseRules(models.Model):
    """One version of a campaign's house-rules pack (rules.house): the tables the club edited.

    Versions are append-only: an edit saves a new version, so a battle played under version 1
    (`battles.Battle.house_rules`) keeps re-deriving its odds and rolls after the club edits the
    pack again. The campaign plays under its newest version. `document` is the validated pack
    as JSON; `digest` identifies its content (equal packs have equal digests).
    """

    # PROTECT: battles were played under these rules; a change is a new version.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.PROTECT, related_name="house_rules_versions"
    )
    number = models.PositiveIntegerField(help_text="1, 2, 3 ... in the order they were saved.")
    document = models.JSONField(help_text="The pack, validated by the rule system.")
    digest = models.CharField(max_length=16)
    note = models.CharField(max_length=200, blank=True, help_text="What changed, in a line.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("campaign", "-number")
        verbose_name = "house rules version"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"], name="house_rules_number_unique_in_campaign"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="house_rules_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} house rules v{self.number}"
