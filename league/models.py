"""The league: a campaign's scoring settings, its rounds, their pairings, the players' reports
and the points given by hand.

These rows were born in `campaigns` and moved here when the league became an app of its own,
above `battles` (a pairing is settled by a battle). The tables kept their names
(`Meta.db_table`), so the move touched no row: see migrations/0001_initial.py.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.models import Battle
from campaigns.models import Campaign, Membership
from league.core import DEFAULT_TIE_BREAKERS

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
        db_table = "campaigns_league"  # the table's name from before the move
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
        db_table = "campaigns_leagueadjustment"  # the table's name from before the move
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
        db_table = "campaigns_round"  # the table's name from before the move
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
        Battle,
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
        db_table = "campaigns_pairing"  # the table's name from before the move
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


class ResultEntry(models.Model):
    """One write of a pairing's result, kept: the `version` it made, the result it left and who
    wrote it (a report, a confirmation, a correction, a no-show, a withdrawal).

    The league's own record of how a result came to be. PROTECT, in the database as well as the
    ORM: a pairing with a result on record cannot be deleted, even one reported without a
    written report or a rated game. A mistake is corrected by a new version, which adds a row.
    """

    pairing = models.ForeignKey(Pairing, on_delete=models.PROTECT, related_name="result_entries")
    version = models.PositiveIntegerField()
    result = models.JSONField(help_text="The pairing's result fields after this write.")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pairing", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["pairing", "version"], name="result_entry_once_a_version"
            ),
        ]

    def __str__(self) -> str:
        return f"Result version {self.version} of pairing {self.pairing_id}"


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
        db_table = "campaigns_pairingreport"  # the table's name from before the move
        constraints = [
            models.UniqueConstraint(fields=["pairing", "side"], name="pairing_report_once_a_side"),
            models.CheckConstraint(
                condition=Q(side__in=["HOME", "AWAY"]), name="pairing_report_side_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_side_display()} report on {self.pairing_id}"
