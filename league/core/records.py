"""The records the league core works on: pairings, rounds, results and adjustments.

Players are identified by ids (the Django side passes membership primary keys; tests may use
names). Ids of one league are all ints or all strs; `player_key` gives them a stable order, which
is how every tie in this package is finally broken, so the same input always gives the same
output.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from league.core.errors import ResultError

PlayerId = int | str


def player_key(player: PlayerId) -> tuple[int, int, str]:
    """Return a sort key that orders ids stably (ints numerically, then strs)."""
    if isinstance(player, int):
        return (0, player, "")
    return (1, 0, player)


@dataclass(frozen=True)
class Pairing:
    """Two players meeting in a round; `away` is None when `home` has the bye."""

    home: PlayerId
    away: PlayerId | None

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)

    def opponent_of(self, player: PlayerId) -> PlayerId | None:
        """Return the other player of this pairing (None for a bye)."""
        return self.away if player == self.home else self.home


@dataclass(frozen=True)
class Round:
    """A numbered round: its pairings, byes included."""

    number: int
    pairings: tuple[Pairing, ...]

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(p for pairing in self.pairings for p in pairing.players)

    @property
    def games(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if not p.is_bye)

    @property
    def byes(self) -> tuple[PlayerId, ...]:
        return tuple(p.home for p in self.pairings if p.is_bye)


@dataclass(frozen=True)
class Result:
    """The settled result of one pairing in one round.

    `winner` is None for a draw, for a bye (`away` None) and for a double forfeit (both players
    failed to play: both score a loss). A forfeit with a winner gives the winner a win and the
    other player a loss; victory points and figures lost are taken as recorded (usually 0).
    `pairing_id`, when given, names the pairing so a later result for it corrects this one.
    """

    round_number: int
    home: PlayerId
    away: PlayerId | None
    winner: PlayerId | None = None
    home_vp: int = 0
    away_vp: int = 0
    home_figures_lost: int = 0
    away_figures_lost: int = 0
    major_victory: bool = False
    forfeit: bool = False
    pairing_id: int | str | None = None

    def __post_init__(self) -> None:
        problem = _result_problem(self)
        if problem:
            raise ResultError(f"round {self.round_number}, {self.home} v {self.away}: {problem}")

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def is_draw(self) -> bool:
        return self.winner is None and not self.is_bye and not self.forfeit

    @property
    def identity(self) -> tuple[object, ...]:
        """Return what makes two results the same game (so the later one corrects it)."""
        if self.pairing_id is not None:
            return ("pairing", self.pairing_id)
        return ("round", self.round_number, frozenset((self.home, self.away)))

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)


def _result_problem(result: Result) -> str:
    """Return what is wrong with a result, or '' if it is consistent."""
    if result.home == result.away:
        return "a player cannot play themself"
    if result.winner is not None and result.winner not in (result.home, result.away):
        return f"the winner {result.winner} did not play in this game"
    if result.is_bye and (result.winner is not None or result.forfeit or result.major_victory):
        return "a bye has no winner, forfeit or major victory"
    if result.major_victory and (result.winner is None or result.forfeit):
        return "a major victory needs a winner and cannot be a forfeit"
    counts = (result.home_vp, result.away_vp, result.home_figures_lost, result.away_figures_lost)
    if min(counts) < 0:
        return "victory points and figures lost cannot be negative"
    return ""


def current_results(results: Iterable[Result]) -> tuple[Result, ...]:
    """Keep the latest result for each game: a later result for the same pairing corrects it."""
    latest: dict[tuple[object, ...], Result] = {}
    for result in results:
        latest.pop(result.identity, None)  # re-insert so the corrected game keeps its new place
        latest[result.identity] = result
    return tuple(latest.values())


@dataclass(frozen=True)
class Adjustment:
    """Points given or taken by the organiser, always with a reason (painted force, penalty...)."""

    player: PlayerId
    points: int
    reason: str

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise ResultError(f"an adjustment of {self.points} for {self.player} needs a reason")
