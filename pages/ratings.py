"""The club rating on the player pages: the campaign's card, the standings column, and a page
of each player's rating history as a server-rendered step chart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from campaigns.models import Campaign, Membership, Role, display_name
from campaigns.selectors import campaigns_visible_to
from league.selectors import league_of
from pages.charts import StepChart, step_chart
from ratings.models import PlayerRating
from ratings.selectors import campaign_ratings, rating_history, ratings_by_user

#: Room left of the chart for a four-digit rating on the scale.
RATING_LABEL_ROOM = 44


@dataclass(frozen=True)
class CampaignRatings:
    """What the campaign page shows: the best-rated players, and the standings column."""

    top: tuple[PlayerRating, ...]
    show_column: bool
    by_member: dict[int, PlayerRating]


def campaign_ratings_context(campaign: Campaign, members: Sequence[Membership]) -> CampaignRatings:
    """The club ratings of a campaign's players (`members`, already loaded for the page),
    keyed by membership for the standings: two queries, the ratings and the league setting."""
    players = {m.user_id: m.pk for m in members if m.role == Role.PLAYER}
    rows = sorted(ratings_by_user(campaign, players).values(), key=lambda r: (-r.rating, r.user_id))
    users = {m.user_id: m.user for m in members}
    for row in rows:
        row.user = users[row.user_id]  # already loaded with the members: no query per row
    by_member = {players[row.user_id]: row for row in rows}
    return CampaignRatings(tuple(rows[:5]), league_of(campaign).show_rating, by_member)


@dataclass(frozen=True)
class PlayerHistory:
    name: str
    rating: PlayerRating
    chart: StepChart
    chart_id: str


def _history(rating: PlayerRating) -> PlayerHistory:
    points = rating_history(rating.club_id, rating.user_id)
    labelled = [("Start", 1500.0)] + [
        (f"Game {n}", round(p.rating)) for n, p in enumerate(points, start=1)
    ]
    name = display_name(rating.user)
    chart = step_chart(
        labelled, title=f"{name}'s club rating", low=1400, high=1600, left=RATING_LABEL_ROOM
    )
    return PlayerHistory(name, rating, chart, f"rating-{rating.user_id}")


@login_required
def campaign_ratings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every rated player of the campaign: rating, games, and the rating after each game."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    players = [_history(row) for row in campaign_ratings(campaign)]
    context: dict[str, object] = {"campaign": campaign, "players": players}
    return render(request, "pages/ratings/campaign_ratings.html", context)
