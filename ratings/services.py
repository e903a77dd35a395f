"""Club rating writes: rate a settled league game, rebuild every rating of a club from scratch.

Each game is its own Glicko-2 rating period (the `glicko2` library's `Player.update_player`
with one opponent), both players updated from their ratings before the game. Replaying the
`RatedGame` rows in order therefore gives exactly the ratings the incremental updates gave.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import glicko2
from django.db import transaction

from campaigns.models import Club
from league.models import Pairing, Winner
from ratings.models import (
    START_DEVIATION,
    START_RATING,
    START_VOLATILITY,
    PlayerRating,
    RatedGame,
    RatingPoint,
)

SCORES: dict[str, float] = {Winner.HOME: 1.0, Winner.DRAW: 0.5, Winner.AWAY: 0.0}


def game_score(pairing: Pairing) -> float | None:
    """Return home's score if the game counts for the rating, else None.

    Only a game played on the table and settled counts: not a bye, not a no-show, not a
    game the rules engine fought by simulation for players who could not play it.
    """
    if pairing.is_bye or not pairing.is_settled:
        return None
    if pairing.home_no_show or pairing.away_no_show:
        return None
    if pairing.battle is not None and pairing.battle.auto_resolved:
        return None
    if pairing.round.campaign.copy_of:  # a restored copy: the original's games already count
        return None
    return SCORES.get(pairing.winner)


def _away_player(pairing: Pairing) -> int:
    """The away player's user id of a game that counts (a bye has none: game_score skips it)."""
    if pairing.away is None:
        raise ValueError(f"pairing {pairing.pk} is a bye: it has no away player to rate")
    return pairing.away.user_id


Values = tuple[float, float, float]  # rating, deviation, volatility


def glicko_period(player: Values, games: Sequence[tuple[Values, float]]) -> Values:
    """Return a player's (rating, deviation, volatility) after one rating period of `games`
    (each an opponent's values before the period and the player's score, 1, ½ or 0)."""
    rated = glicko2.Player(rating=player[0], rd=player[1], vol=player[2])
    rated.update_player(
        [opponent[0] for opponent, _ in games],
        [opponent[1] for opponent, _ in games],
        [score for _, score in games],
    )
    return rated.rating, rated.rd, rated.vol


def glicko_update(player: Values, opponent: Values, score: float) -> Values:
    """Return (rating, deviation, volatility) after one game against `opponent`."""
    return glicko_period(player, [(opponent, score)])


def _values(row: PlayerRating) -> Values:
    return row.rating, row.deviation, row.volatility


def _apply(game: RatedGame, home: PlayerRating, away: PlayerRating) -> None:
    before_home, before_away = _values(home), _values(away)
    for row, mine, theirs, score in (
        (home, before_home, before_away, game.score),
        (away, before_away, before_home, 1.0 - game.score),
    ):
        row.rating, row.deviation, row.volatility = glicko_update(mine, theirs, score)
        row.games += 1
        row.save()
        RatingPoint.objects.update_or_create(
            game=game,
            user_id=row.user_id,
            defaults={
                "rating": row.rating,
                "deviation": row.deviation,
                "volatility": row.volatility,
            },
        )


def _rating_row(club_id: int, user_id: int) -> PlayerRating:
    row, _ = PlayerRating.objects.select_for_update().get_or_create(
        club_id=club_id, user_id=user_id
    )
    return row


@transaction.atomic
def rating_record_game(*, pairing: Pairing) -> RatedGame | None:
    """Rate a league game once it is settled; a corrected result rebuilds the club's ratings.

    Called after every result write (a receiver of league.signals.result_written); a game
    that does not (or no longer) count is left out, and the ratings are rebuilt if it had
    counted before.
    """
    pairing = Pairing.objects.select_related("round__campaign", "home", "away").get(pk=pairing.pk)
    club_id = pairing.round.campaign.club_id
    Club.objects.select_for_update().get(pk=club_id)  # one rating writer per club at a time
    score = game_score(pairing)
    existing = RatedGame.objects.filter(pairing=pairing).first()
    if existing is not None:
        if score == existing.score:
            return existing
        if score is None:
            existing.delete()
        else:
            existing.score = score
            existing.save(update_fields=["score"])
        _replay(club_id)
        return None if score is None else existing
    if score is None:
        return None
    game = RatedGame.objects.create(
        club_id=club_id,
        pairing=pairing,
        home_id=pairing.home.user_id,
        away_id=_away_player(pairing),
        score=score,
    )
    _apply(game, _rating_row(club_id, game.home_id), _rating_row(club_id, game.away_id))
    return game


@transaction.atomic
def ratings_recompute(*, club: Club) -> int:
    """Rebuild a club's ratings from its settled league games; return how many were rated.

    Games already rated keep their place in the order; settled games never rated (a result
    settled before the rating existed) follow, by campaign, round and table. Deterministic:
    the same games give the same ratings, to the last bit.
    """
    Club.objects.select_for_update().get(pk=club.pk)
    kept = set()
    for game in RatedGame.objects.filter(club=club).select_related("pairing__round__campaign"):
        pairing = game.pairing
        score = game_score(pairing)
        if score is None or pairing.round.campaign.club_id != club.pk:
            game.delete()
            continue
        if score != game.score:
            game.score = score
            game.save(update_fields=["score"])
        kept.add(pairing.pk)
    for pairing in _settled_unrated(club, kept):
        score = game_score(pairing)
        if score is not None:
            RatedGame.objects.create(
                club=club,
                pairing=pairing,
                home_id=pairing.home.user_id,
                away_id=_away_player(pairing),
                score=score,
            )
    return _replay(club.pk)


def _settled_unrated(club: Club, rated: set[int]) -> Iterable[Pairing]:
    return (
        Pairing.objects.filter(round__campaign__club=club, away__isnull=False)
        .exclude(pk__in=rated)
        .select_related("round__campaign", "home", "away", "battle")
        .order_by("round__campaign_id", "round__number", "table", "pk")
    )


def _replay(club_id: int) -> int:
    PlayerRating.objects.filter(club_id=club_id).delete()
    RatingPoint.objects.filter(game__club_id=club_id).delete()
    rows: dict[int, PlayerRating] = {}

    def row(user_id: int) -> PlayerRating:
        if user_id not in rows:
            rows[user_id] = PlayerRating.objects.create(
                club_id=club_id,
                user_id=user_id,
                rating=START_RATING,
                deviation=START_DEVIATION,
                volatility=START_VOLATILITY,
            )
        return rows[user_id]

    games = list(RatedGame.objects.filter(club_id=club_id).order_by("pk"))
    for game in games:
        _apply(game, row(game.home_id), row(game.away_id))
    return len(games)
