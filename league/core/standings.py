"""Standings computed from results: points, bonus points, adjustments, then tie-breakers.

How the table is ordered:

1. Points (results + bonus points + adjustments) decide first.
2. Players level on points are split by the league's tie-breakers, in the league's order:

   - `head_to_head`: a mini-league of only the games among the tied players, scored with the
     league's win/draw/loss points (no bonuses). It applies only when every tied player has met
     every other one at least once; otherwise it cannot compare them fairly and is skipped. When
     it splits a group, it is recomputed among whoever is still level (so two players left level
     out of three are compared on their own games with each other).
   - `vp_difference`: victory points scored minus conceded, higher first.
   - `strength_of_schedule`: the sum of the current points of every opponent played (once per
     game), higher first; a bye adds nothing.
   - `fewest_figures_lost`: figures lost over all games, fewer first.

3. Players still level after every tie-breaker share a rank (1, 2, 2, 4) and are listed by id.

Each row says which step put it below the row above (`separated_by`: "points" or a tie-breaker
name), or None when it shares the rank.

A bye scores `bye_points` (default: a win's points), counts as neither played nor won, and brings
no victory points, figures lost or strength of schedule. A forfeit is a played game: the winner
scores a win (no major-victory bonus), the other a loss; a double forfeit is a loss for both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from league.core.errors import ResultError
from league.core.records import Adjustment, PlayerId, Result, current_results, player_key
from league.core.settings import (
    FEWEST_FIGURES_LOST,
    HEAD_TO_HEAD,
    STRENGTH_OF_SCHEDULE,
    VP_DIFFERENCE,
    LeagueSettings,
)

POINTS = "points"
WON, DRAWN, LOST, BYE = "won", "drawn", "lost", "bye"


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the table."""

    player: PlayerId
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    result_points: int = 0
    bonus_points: int = 0
    adjustment_points: int = 0
    adjustments: tuple[Adjustment, ...] = ()
    vp_for: int = 0
    vp_against: int = 0
    figures_lost: int = 0
    strength_of_schedule: int = 0
    separated_by: str | None = None

    @property
    def points(self) -> int:
        return self.result_points + self.bonus_points + self.adjustment_points

    @property
    def vp_difference(self) -> int:
        return self.vp_for - self.vp_against


@dataclass(frozen=True)
class _Game:
    """One result seen from one player's side."""

    opponent: PlayerId | None
    outcome: str
    vp_for: int
    vp_against: int
    figures_lost: int
    major: bool


def compute_standings(
    players: Sequence[PlayerId],
    results: Iterable[Result],
    settings: LeagueSettings,
    adjustments: Iterable[Adjustment] = (),
) -> tuple[StandingRow, ...]:
    """Return the ordered table for `players` from results in the order they were recorded.

    A later result for the same pairing corrects the earlier one (see `current_results`).
    """
    settled = current_results(results)
    given = tuple(adjustments)
    _check_known(players, settled, given)
    games = _games_by_player(players, settled)
    own = _adjustments_by_player(given)
    rows = {p: _tally(p, games[p], own.get(p, ()), settings) for p in players}
    rows = {
        p: replace(row, strength_of_schedule=_schedule_strength(games[p], rows))
        for p, row in rows.items()
    }
    ordered = _order(sorted(players, key=player_key), _levels(rows, games, settings))
    return _ranked(ordered, rows)


def _check_known(
    players: Sequence[PlayerId], results: Sequence[Result], adjustments: Sequence[Adjustment]
) -> None:
    known = set(players)
    if len(known) != len(players):
        raise ResultError("a player is listed twice in the league")
    mentioned = [p for r in results for p in r.players] + [a.player for a in adjustments]
    strangers = sorted({str(p) for p in mentioned if p not in known})
    if strangers:
        raise ResultError(
            f"results or adjustments name players not in the league: {', '.join(strangers)}"
        )


def _games_by_player(
    players: Sequence[PlayerId], results: Sequence[Result]
) -> dict[PlayerId, list[_Game]]:
    """Return each player's games in result order, in one pass over the results."""
    games: dict[PlayerId, list[_Game]] = {p: [] for p in players}
    for result in results:
        for player in result.players:
            games[player].append(_side(result, player))
    return games


def _adjustments_by_player(
    adjustments: Sequence[Adjustment],
) -> dict[PlayerId, tuple[Adjustment, ...]]:
    own: dict[PlayerId, list[Adjustment]] = {}
    for adjustment in adjustments:
        own.setdefault(adjustment.player, []).append(adjustment)
    return {p: tuple(found) for p, found in own.items()}


def _side(result: Result, player: PlayerId) -> _Game:
    home = player == result.home
    opponent = result.away if home else result.home
    vp_for, vp_against = (
        (result.home_vp, result.away_vp) if home else (result.away_vp, result.home_vp)
    )
    lost_figures = result.home_figures_lost if home else result.away_figures_lost
    major = result.major_victory and result.winner == player
    return _Game(opponent, _outcome(result, player), vp_for, vp_against, lost_figures, major)


def _outcome(result: Result, player: PlayerId) -> str:
    if result.is_bye:
        return BYE
    if result.winner == player:
        return WON
    return DRAWN if result.is_draw else LOST


def _points_for(outcome: str, settings: LeagueSettings) -> int:
    return {
        WON: settings.win_points,
        DRAWN: settings.draw_points,
        LOST: settings.loss_points,
        BYE: settings.points_for_bye,
    }[outcome]


def _tally(
    player: PlayerId,
    games: Sequence[_Game],
    own: tuple[Adjustment, ...],
    settings: LeagueSettings,
) -> StandingRow:
    played = [g for g in games if g.outcome != BYE]
    return StandingRow(
        player=player,
        played=len(played),
        won=sum(g.outcome == WON for g in games),
        drawn=sum(g.outcome == DRAWN for g in games),
        lost=sum(g.outcome == LOST for g in games),
        byes=len(games) - len(played),
        result_points=sum(_points_for(g.outcome, settings) for g in games),
        bonus_points=settings.major_victory_bonus * sum(g.major for g in games),
        adjustment_points=sum(a.points for a in own),
        adjustments=own,
        vp_for=sum(g.vp_for for g in played),
        vp_against=sum(g.vp_against for g in played),
        figures_lost=sum(g.figures_lost for g in played),
    )


def _schedule_strength(games: Sequence[_Game], rows: Mapping[PlayerId, StandingRow]) -> int:
    return sum(rows[g.opponent].points for g in games if g.opponent is not None)


# --- ordering --------------------------------------------------------------------------------

Group = list[PlayerId]
Splitter = Callable[[Group], list[Group]]


def _levels(
    rows: Mapping[PlayerId, StandingRow],
    games: Mapping[PlayerId, Sequence[_Game]],
    settings: LeagueSettings,
) -> list[tuple[str, Splitter]]:
    """Return the ordering steps: points, then the league's tie-breakers in its order."""
    splitters: dict[str, Splitter] = {
        POINTS: _by(lambda p: rows[p].points),
        HEAD_TO_HEAD: lambda group: _head_to_head(group, games, settings),
        VP_DIFFERENCE: _by(lambda p: rows[p].vp_difference),
        STRENGTH_OF_SCHEDULE: _by(lambda p: rows[p].strength_of_schedule),
        FEWEST_FIGURES_LOST: _by(lambda p: -rows[p].figures_lost),
    }
    return [(name, splitters[name]) for name in (POINTS, *settings.tie_breakers)]


def _by(score: Callable[[PlayerId], int]) -> Splitter:
    """Return a splitter into groups of equal score, highest score first."""

    def split(group: Group) -> list[Group]:
        parts: dict[int, Group] = {}
        for p in group:  # one pass: a big table has as many levels as players, nearly
            parts.setdefault(score(p), []).append(p)
        return [parts[value] for value in sorted(parts, reverse=True)]

    return split


def _head_to_head(
    group: Group, games: Mapping[PlayerId, Sequence[_Game]], settings: LeagueSettings
) -> list[Group]:
    """Split by a mini-league of the games among `group`, if all of them have met each other."""
    inside = set(group)
    # Everyone met everyone else in the group: each has len(group) - 1 distinct opponents in it.
    for p in group:
        if len({g.opponent for g in games[p] if g.opponent in inside}) < len(group) - 1:
            return [group]
    mini = {
        p: sum(_points_for(g.outcome, settings) for g in games[p] if g.opponent in inside)
        for p in group
    }
    return _by(mini.__getitem__)(group)


def _order(
    group: Group, levels: Sequence[tuple[str, Splitter]]
) -> list[tuple[PlayerId, str | None]]:
    """Order `group`, labelling each player with the step that put them below the one above.

    When a step splits a group, each part starts again at the same step: for head to head that
    recomputes the mini-league among the players still level; for the other steps it changes
    nothing and falls through to the next step.
    """
    if len(group) == 1 or not levels:
        return [(p, None) for p in group]
    name, split = levels[0]
    parts = split(group)
    if len(parts) == 1:
        return _order(group, levels[1:])
    ordered: list[tuple[PlayerId, str | None]] = []
    for index, part in enumerate(parts):
        inner = _order(part, levels)
        if index:
            inner[0] = (inner[0][0], name)
        ordered.extend(inner)
    return ordered


def _ranked(
    ordered: Sequence[tuple[PlayerId, str | None]], rows: Mapping[PlayerId, StandingRow]
) -> tuple[StandingRow, ...]:
    """Number the rows, sharing a rank between rows nothing separated (1, 2, 2, 4)."""
    ranked: list[StandingRow] = []
    for position, (player, separated_by) in enumerate(ordered, start=1):
        rank = ranked[-1].rank if ranked and separated_by is None else position
        ranked.append(replace(rows[player], rank=rank, separated_by=separated_by))
    return tuple(ranked)
