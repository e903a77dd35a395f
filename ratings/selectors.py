"""Club rating reads: a player's rating, a campaign's ratings, a player's history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from campaigns.models import Campaign, Membership
from league.core import PlayerId
from league.core.swiss import Entrant, Ranked
from ratings.models import START_RATING, PlayerRating, RatingPoint


def ratings_by_user(campaign: Campaign, user_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """Return the club ratings of these players, keyed by user id (unrated players absent)."""
    rows = PlayerRating.objects.filter(club_id=campaign.club_id, user_id__in=list(user_ids))
    return {row.user_id: row for row in rows}


def campaign_ratings(campaign: Campaign) -> list[PlayerRating]:
    """Return the club ratings of a campaign's players, best first."""
    players = campaign.memberships.filter(role="PLAYER").values_list("user_id", flat=True)
    return list(
        PlayerRating.objects.filter(club_id=campaign.club_id, user_id__in=players)
        .select_related("user")
        .order_by("-rating", "user__username")
    )


def rating_history(club_id: int, user_id: int) -> list[RatingPoint]:
    """Return a player's rating after each of their rated games, oldest first."""
    return list(
        RatingPoint.objects.filter(game__club_id=club_id, user_id=user_id).order_by("game_id")
    )


def seeded_by_rating(campaign: Campaign, rows: Sequence[Ranked]) -> list[Entrant]:
    """Return the table re-ordered by club rating, best first (an unrated player counts as a
    new player's 1500); equal ratings keep the table's order."""
    members: dict[PlayerId, int] = dict(
        Membership.objects.filter(pk__in=[row.player for row in rows]).values_list("pk", "user_id")
    )
    ratings = ratings_by_user(campaign, members.values())

    def rating(row: Ranked) -> float:
        user_id = members.get(row.player)
        found = ratings.get(user_id) if user_id is not None else None
        return found.rating if found is not None else START_RATING

    ordered = sorted(rows, key=lambda row: (-row.points, -rating(row)))
    return [Entrant(row.player, row.points) for row in ordered]
