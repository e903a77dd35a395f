"""The player's home page: their next game, what needs their attention, their campaigns, their
forces and the battles they are playing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from common.users import Visitor, signed_in
from league.models import Pairing, Round
from pages.league import MyGame, my_game
from pages.notifications import recent_notices
from pages.selectors import home_overview, recovery_dates
from rosters.models import Character, CharacterStatus

#: Game states that ask something of the player (see pages.league.MyGame.state).
TO_DO = {"report": "to report", "confirm": "to confirm"}


@dataclass(frozen=True)
class Recovering:
    character: Character
    recovers_on: date | None


@dataclass(frozen=True)
class Attention:
    """What the player should look at: games to report or confirm, figures recovering."""

    games: tuple[MyGame, ...]
    recovering: tuple[Recovering, ...]

    def __bool__(self) -> bool:
        return bool(self.games or self.recovering)


def open_games(user: Visitor) -> tuple[MyGame, ...]:
    """Return the user's games in open rounds, oldest round first (1 query)."""
    pairings = (
        Pairing.objects.filter(Q(home__user_id=user.pk) | Q(away__user_id=user.pk))
        .filter(round__status=Round.Status.OPEN, away__isnull=False)
        .select_related("round__campaign", "home__user", "away__user")
        .order_by("round__number", "pk")
    )
    games = (my_game([p], user) for p in pairings)
    return tuple(g for g in games if g is not None and g.state not in ("agreed", "confirmed"))


def recovering_figures(user: Visitor) -> tuple[Recovering, ...]:
    """Return the user's characters recovering from wounds, with when (1 query; 2 if any)."""
    characters = list(
        Character.objects.filter(force__owner_id=user.pk, status=CharacterStatus.RECOVERING)
        .select_related("force")
        .order_by("force__name", "name", "pk")
    )
    healing = recovery_dates(c.pk for c in characters) if characters else {}
    return tuple(Recovering(c, healing.get(c.pk)) for c in characters)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Show the next game, what needs attention, campaigns, forces and battles under way."""
    user = signed_in(request.user)
    games = open_games(user)
    attention = Attention(tuple(g for g in games if g.state in TO_DO), recovering_figures(user))
    context = {
        "home": home_overview(user),
        "next_game": games[0] if games else None,
        "open_games": games,
        "attention": attention,
        "to_do": TO_DO,
        "notices": recent_notices(user),
    }
    return render(request, "pages/home.html", context)
