"""Pairings: round robin by the circle method, the next Swiss round, late joiners, drop-outs,
and the checks an organiser's hand-made pairings get.

Everything here is deterministic: the same players in the same order give the same schedule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from league.core.errors import PairingError
from league.core.records import Adjustment, Pairing, PlayerId, Result, Round
from league.core.settings import LeagueSettings
from league.core.swiss import Entrant, Ranked, next_swiss_round

__all__ = [
    "Entrant",
    "Forfeit",
    "PairingWarning",
    "Ranked",
    "check_manual_round",
    "dropout_forfeits",
    "join_round_robin",
    "late_joiner_adjustment",
    "next_swiss_round",
    "round_robin",
    "swap_players",
]


# --- round robin -----------------------------------------------------------------------------


def round_robin(
    players: Sequence[PlayerId], *, legs: int = 1, first_round: int = 1
) -> tuple[Round, ...]:
    """Schedule every pair to meet once per leg (circle method), a bye each round if odd.

    The first player listed stays put while the others rotate. With an odd count a bye takes
    the fixed seat, so each player sits out exactly once per leg. Home and away alternate so
    each player's home and away counts differ by at most one; a second leg swaps every side.
    """
    _check_entry(players, legs)
    seats: list[PlayerId | None] = [None, *players] if len(players) % 2 else list(players)
    leg = [_circle_round(seats, turn) for turn in range(len(seats) - 1)]
    rounds = [
        pairings if n % 2 == 0 else _mirrored(pairings) for n in range(legs) for pairings in leg
    ]
    return tuple(Round(first_round + i, pairings) for i, pairings in enumerate(rounds))


def _check_entry(players: Sequence[PlayerId], legs: int) -> None:
    if len(players) < 2:
        raise PairingError(f"a round robin needs at least 2 players, not {len(players)}")
    if len(set(players)) != len(players):
        repeated = sorted({str(p) for p, n in Counter(players).items() if n > 1})
        raise PairingError(f"a player is entered twice: {', '.join(repeated)}")
    if legs < 1:
        raise PairingError(f"a round robin needs at least 1 leg, not {legs}")


def _circle_round(seats: Sequence[PlayerId | None], turn: int) -> tuple[Pairing, ...]:
    """Pair seat i with seat n-1-i after rotating every seat but the first by `turn`."""
    rest = list(seats[1:])
    cut = len(rest) - turn
    circle = [seats[0], *rest[cut:], *rest[:cut]]
    size = len(circle)
    pairings = []
    for i in range(size // 2):
        first, second = circle[i], circle[size - 1 - i]
        # The fixed seat swaps sides every round; the rotating pairs alternate by table, which
        # (as the seats turn) gives every player the same number of home and away games.
        home_first = turn % 2 == 0 if i == 0 else i % 2 == 1
        pairings.append(_pairing(first, second) if home_first else _pairing(second, first))
    return tuple(pairings)


def _pairing(home: PlayerId | None, away: PlayerId | None) -> Pairing:
    """Build a pairing where a None seat is the bye (the real player is listed as home)."""
    if home is None:
        assert away is not None  # only one seat is ever empty
        return Pairing(away, None)
    return Pairing(home, away)


def _mirrored(pairings: tuple[Pairing, ...]) -> tuple[Pairing, ...]:
    return tuple(p if p.away is None else Pairing(p.away, p.home) for p in pairings)


def join_round_robin(
    rounds: Sequence[Round], newcomer: PlayerId, *, from_round: int
) -> tuple[tuple[Round, ...], tuple[Pairing, ...]]:
    """Fit a late joiner into a round robin from round `from_round` on.

    In each remaining round the newcomer plays whoever had that round's bye (or takes a bye if
    nobody had one). Returns the new schedule and the catch-up games still needed against the
    players the newcomer does not meet that way, to be played when the organiser arranges.
    """
    if newcomer in {p for r in rounds for p in r.players}:
        raise PairingError(f"{newcomer} is already in the schedule")
    schedule = tuple(r if r.number < from_round else _seat_newcomer(r, newcomer) for r in rounds)
    met = {p for r in schedule for g in r.games if newcomer in g.players for p in g.players}
    others = sorted({p for r in rounds for p in r.players} - met, key=_order_of(rounds).__getitem__)
    catch_up = tuple(
        Pairing(newcomer, p) if i % 2 == 0 else Pairing(p, newcomer) for i, p in enumerate(others)
    )
    return schedule, catch_up


def _seat_newcomer(round_: Round, newcomer: PlayerId) -> Round:
    if not round_.byes:
        return Round(round_.number, (*round_.pairings, Pairing(newcomer, None)))
    waiting = round_.byes[0]
    pairings = tuple(
        Pairing(waiting, newcomer) if p.is_bye and p.home == waiting else p for p in round_.pairings
    )
    return Round(round_.number, pairings)


def _order_of(rounds: Sequence[Round]) -> dict[PlayerId, int]:
    """Return first-appearance order, so catch-up games come out in a stable order."""
    order: dict[PlayerId, int] = {}
    for player in (p for r in rounds for p in r.players):
        order.setdefault(player, len(order))
    return order


# --- drop-outs and late joiners --------------------------------------------------------------


@dataclass(frozen=True)
class Forfeit:
    """A scheduled game a withdrawn player will not play: the opponent is awarded the win."""

    round_number: int
    pairing: Pairing
    withdrawn: PlayerId
    awarded_to: PlayerId

    def as_result(self) -> Result:
        """Return the forfeit result to record (no victory points, no figures lost)."""
        return Result(
            self.round_number,
            self.pairing.home,
            self.pairing.away,
            winner=self.awarded_to,
            forfeit=True,
        )


def dropout_forfeits(
    rounds: Iterable[Round], player: PlayerId, *, from_round: int
) -> tuple[Forfeit, ...]:
    """Return the games of `player` from round `from_round` on that become forfeits.

    The withdrawn player's future byes simply lapse; Swiss rounds leave them out through
    `next_swiss_round(withdrawn=...)`.
    """
    return tuple(
        Forfeit(r.number, game, player, opponent)
        for r in rounds
        if r.number >= from_round
        for game in r.games  # games, not byes: each has an opponent
        if player in game.players and (opponent := game.opponent_of(player)) is not None
    )


def late_joiner_adjustment(
    player: PlayerId, *, first_round: int, settings: LeagueSettings, points: int | None = None
) -> Adjustment | None:
    """Return the starting score for a player who joins in `first_round`, if any.

    `points` overrides the league's `late_joiner_points` for this player. A player who joins in
    round 1 is not late, and a starting score of 0 needs no adjustment.
    """
    score = settings.late_joiner_points if points is None else points
    if score < 0:
        raise PairingError(f"a late joiner's starting score cannot be negative ({score})")
    if first_round <= 1 or score == 0:
        return None
    return Adjustment(player, score, f"late joiner: entered in round {first_round}")


# --- organiser's manual pairings -------------------------------------------------------------


@dataclass(frozen=True)
class PairingWarning:
    """Something an organiser should look at twice in a hand-made round (never blocking).

    `kind` is one of: rematch, over_max_games, second_bye, withdrawn, unpaired.
    """

    kind: str
    players: tuple[PlayerId, ...]
    message: str


def check_manual_round(
    round_: Round,
    *,
    players: Collection[PlayerId],
    history: Iterable[Round],
    settings: LeagueSettings,
    withdrawn: Collection[PlayerId] = (),
) -> tuple[PairingWarning, ...]:
    """Return warnings for a hand-made round; raise `PairingError` only if it is malformed.

    Malformed: a player listed twice in the round, or a player who is not in the league.
    """
    _check_well_formed(round_, players)
    earlier = tuple(r for r in history if r.number != round_.number)
    warnings = [w for game in round_.games for w in _game_warnings(game, earlier, settings)]
    warnings += [_bye_warning(p, earlier) for p in round_.byes if _had_bye(p, earlier)]
    warnings += [
        PairingWarning("withdrawn", (p,), f"{p} has withdrawn from the league")
        for p in round_.players
        if p in withdrawn
    ]
    seated = set(round_.players)
    warnings += [
        PairingWarning("unpaired", (p,), f"{p} has no game and no bye this round")
        for p in players
        if p not in seated and p not in withdrawn
    ]
    return tuple(warnings)


def _check_well_formed(round_: Round, players: Collection[PlayerId]) -> None:
    counts = Counter(round_.players)
    twice = sorted(str(p) for p, n in counts.items() if n > 1)
    if twice:
        raise PairingError(f"round {round_.number}: {', '.join(twice)} listed more than once")
    strangers = sorted(str(p) for p in counts if p not in players)
    if strangers:
        raise PairingError(f"round {round_.number}: {', '.join(strangers)} not in the league")


def _game_warnings(
    game: Pairing, earlier: Sequence[Round], settings: LeagueSettings
) -> list[PairingWarning]:
    pair = frozenset(game.players)
    met_in = [r.number for r in earlier for g in r.games if frozenset(g.players) == pair]
    if not met_in:
        return []
    rounds = ", ".join(str(n) for n in met_in)
    names = f"{game.home} and {game.away}"
    warnings = [PairingWarning("rematch", game.players, f"{names} already met in round {rounds}")]
    if len(met_in) >= settings.max_games_per_pair:
        warnings.append(
            PairingWarning(
                "over_max_games",
                game.players,
                f"{names} would meet {len(met_in) + 1} times; the league allows "
                f"{settings.max_games_per_pair}",
            )
        )
    return warnings


def _had_bye(player: PlayerId, earlier: Sequence[Round]) -> bool:
    return any(player in r.byes for r in earlier)


def _bye_warning(player: PlayerId, earlier: Sequence[Round]) -> PairingWarning:
    rounds = ", ".join(str(r.number) for r in earlier if player in r.byes)
    return PairingWarning("second_bye", (player,), f"{player} already had a bye in round {rounds}")


def swap_players(round_: Round, first: PlayerId, second: PlayerId) -> Round:
    """Swap two players' places in a round (each takes the other's opponent and side)."""
    seated = set(round_.players)
    missing = [str(p) for p in (first, second) if p not in seated]
    if missing:
        raise PairingError(f"round {round_.number}: {', '.join(missing)} not in this round")
    swap = {first: second, second: first}
    pairings = tuple(
        Pairing(swap.get(p.home, p.home), None if p.away is None else swap.get(p.away, p.away))
        for p in round_.pairings
    )
    return Round(round_.number, pairings)
