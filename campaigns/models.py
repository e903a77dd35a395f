"""Clubs, their campaigns and who plays in them.

A campaign is played under one rule system from the rules registry; the key is stored as text
(not a Django `choices` list) so that registering a new system needs no migration. Services and
forms check the key against the registry.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaigns.league import DEFAULT_TIE_BREAKERS


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


def display_name(user: Any) -> str:
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


# --- the league --------------------------------------------------------------------------------


class PairingMethod(models.TextChoices):
    SWISS = "SWISS", "Swiss, one round at a time"
    ROUND_ROBIN = "ROUND_ROBIN", "Round robin, the whole season at once"
    MANUAL = "MANUAL", "By hand"


def default_tie_breakers() -> list[str]:
    return list(DEFAULT_TIE_BREAKERS)


class League(models.Model):
    """A campaign's league scoring: typed columns the core's `LeagueSettings` is built from.

    One row per campaign, created with defaults on first use. Integrity is in constraints;
    the cross-field rules (win >= draw >= loss, known tie-breakers) are the core's, checked by
    the service through `LeagueSettings.from_mapping` before anything is saved.
    """

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="league"
    )
    win_points = models.PositiveSmallIntegerField(default=3)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    bye_points = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: a bye is worth a win."
    )
    major_victory_bonus = models.PositiveSmallIntegerField(
        default=0, help_text="Extra points for a win recorded as a major victory."
    )
    tie_breakers = models.JSONField(
        default=default_tie_breakers,
        blank=True,
        help_text="Tie-breaker names, in the order they apply.",
    )
    max_games_per_pair = models.PositiveSmallIntegerField(default=1)
    late_joiner_points = models.PositiveSmallIntegerField(
        default=0, help_text="Starting score of a player who joins after round 1."
    )
    season_start = models.DateField(null=True, blank=True)
    season_end = models.DateField(null=True, blank=True)
    pairing_method = models.CharField(
        max_length=12,
        choices=PairingMethod.choices,
        default=PairingMethod.SWISS,
        help_text="How the dashboard pairs the next round.",
    )
    show_rating = models.BooleanField(
        default=False, help_text="Show each player's club rating as a column of the standings."
    )
    seed_by_rating = models.BooleanField(
        default=False,
        help_text="Pair the first Swiss round by club rating (best against next best).",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(max_games_per_pair__gte=1), name="league_max_games_at_least_one"
            ),
            models.CheckConstraint(
                condition=Q(pairing_method__in=PairingMethod.values),
                name="league_pairing_method_valid",
            ),
            models.CheckConstraint(
                condition=Q(season_start__isnull=True)
                | Q(season_end__isnull=True)
                | Q(season_end__gte=models.F("season_start")),
                name="league_season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"League settings of {self.campaign_id}"


class LeagueAdjustment(models.Model):
    """Points given or taken by hand, always with a reason the table shows."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adjustments")
    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="adjustments")
    points = models.SmallIntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.points:+d} {self.reason}"


class RoundStatus(models.TextChoices):
    OPEN = "OPEN", "Open"
    LOCKED = "LOCKED", "Locked"


class RoundKind(models.TextChoices):
    ROUND_ROBIN = "ROUND_ROBIN", "Round robin"
    SWISS = "SWISS", "Swiss"
    MANUAL = "MANUAL", "Paired by hand"


class Round(models.Model):
    Status = RoundStatus
    Kind = RoundKind

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=RoundKind.choices, default=RoundKind.MANUAL)
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateField(
        null=True, blank=True, help_text="The last day to play and report this round's games."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(kind__in=RoundKind.values), name="round_kind_valid"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Winner(models.TextChoices):
    NONE = "", "Not played yet"
    HOME = "HOME", "Home"
    AWAY = "AWAY", "Away"
    DRAW = "DRAW", "Draw"


class Pairing(models.Model):
    """Two players meeting in a round (away empty: home has the bye), and the game's result.

    The result fields hold the latest claim. It counts in the standings once it is settled:
    confirmed by an organiser, or reported alike by both players. `version` grows with every
    write so two people confirming the same screen cannot both win.
    """

    Winner = Winner

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    home = models.ForeignKey(Membership, on_delete=models.PROTECT, related_name="home_pairings")
    away = models.ForeignKey(
        Membership, on_delete=models.PROTECT, null=True, blank=True, related_name="away_pairings"
    )
    table = models.PositiveSmallIntegerField(default=1)
    # PROTECT: the battle that settled a league game is its history (an unfinished one is
    # unlinked by the service that abandons it).
    battle = models.OneToOneField(
        "battles.Battle",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_pairing",
    )
    winner = models.CharField(max_length=4, choices=Winner.choices, default="", blank=True)
    home_vp = models.PositiveIntegerField(default=0)
    away_vp = models.PositiveIntegerField(default=0)
    home_figures_lost = models.PositiveIntegerField(default=0)
    away_figures_lost = models.PositiveIntegerField(default=0)
    major_victory = models.BooleanField(default=False)
    home_no_show = models.BooleanField(default=False)
    away_no_show = models.BooleanField(default=False)
    reported_by_home = models.BooleanField(default=False)
    reported_by_away = models.BooleanField(default=False)
    confirmed_by_organiser = models.BooleanField(default=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    disputed = models.BooleanField(default=False)
    disputed_claim = models.JSONField(
        default=dict, blank=True, help_text="The other player's differing report, if any."
    )
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "home"], name="pairing_home_once_per_round"),
            models.UniqueConstraint(fields=["round", "away"], name="pairing_away_once_per_round"),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="pairing_two_players"),
            models.CheckConstraint(
                condition=Q(winner__in=Winner.values), name="pairing_winner_valid"
            ),
            # A bye has nothing to report: no winner, no major victory, no no-show.
            models.CheckConstraint(
                condition=Q(away__isnull=False)
                | Q(winner="", major_victory=False, home_no_show=False, away_no_show=False),
                name="pairing_bye_has_no_result",
            ),
            models.CheckConstraint(
                condition=Q(major_victory=False) | Q(winner__in=[Winner.HOME, Winner.AWAY]),
                name="pairing_major_victory_has_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.round.number}, table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def is_settled(self) -> bool:
        """Return whether the result counts: a bye, organiser-confirmed, or agreed by both."""
        return (
            self.is_bye
            or self.confirmed_by_organiser
            or (self.reported_by_home and self.reported_by_away and not self.disputed)
        )


class PairingReport(models.Model):
    """What one player wrote with their result: a link to the battle and a few lines.

    The result itself (winner, victory points) lives on the pairing, as the league's
    services record it; this is the story beside it, one per side.
    """

    class Side(models.TextChoices):
        HOME = "HOME", "Home"
        AWAY = "AWAY", "Away"

    # PROTECT: a reported game is history; it is corrected by a new report or the organiser.
    pairing = models.ForeignKey(Pairing, on_delete=models.PROTECT, related_name="reports")
    side = models.CharField(max_length=4, choices=Side.choices)
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    link = models.URLField(blank=True, max_length=500)
    text = models.TextField(blank=True, max_length=2000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pairing", "side"], name="pairing_report_once_a_side"),
            models.CheckConstraint(
                condition=Q(side__in=["HOME", "AWAY"]), name="pairing_report_side_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_side_display()} report on {self.pairing_id}"


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
