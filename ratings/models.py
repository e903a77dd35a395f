"""One Glicko-2 rating per player per club, across every rule system the club plays.

`RatedGame` is the replay order: one row per rated league game, numbered by its primary key
in the order the games were settled. The ratings and their history (`RatingPoint`) are derived
from it and can always be rebuilt (`ratings.services.ratings_recompute`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models import Pairing

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


class PlayerRating(models.Model):
    club = models.ForeignKey("campaigns.Club", on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_ratings"
    )
    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="rating_once_per_club"),
            models.CheckConstraint(condition=Q(deviation__gt=0), name="rating_deviation_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rating:.0f} ± {2 * self.deviation:.0f}"


class RatedGame(models.Model):
    """A settled league game that counts for the club rating; `score` is home's (1, ½ or 0)."""

    club = models.ForeignKey("campaigns.Club", on_delete=models.CASCADE, related_name="+")
    # PROTECT: a rated game stays with its pairing (the rating replays from these rows).
    pairing = models.OneToOneField(Pairing, on_delete=models.PROTECT, related_name="rated_game")
    home = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    away = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    score = models.FloatField()
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(score__in=[0.0, 0.5, 1.0]), name="rated_game_score"),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="rated_game_two"),
        ]

    def __str__(self) -> str:
        return f"Rated game {self.pk} (pairing {self.pairing_id})"


class RatingPoint(models.Model):
    """A player's rating right after one rated game: the history the chart draws."""

    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="points")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()

    class Meta:
        ordering = ["game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_point_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.rating:.0f} after game {self.game_id}"
