"""The next round of a Swiss league.

Players are taken in ranking order (points, then the table's own tie-breaks) and split into score
groups of equal points. The bye (odd count) goes to the lowest-ranked player with the fewest
byes who can sit out and leave a valid round. Floats are kept as short as they can be: if the
round can be paired with nobody more than one score group from their opponent, it is; if not,
two groups; and so on. Within that limit the highest-ranked unpaired player is paired first, with
the opponent they prefer most among those who keep the rest of the round pairable:

- fewest earlier games together (a rematch only when nothing else works),
- the same score group before a lower one (an odd player out floats down to the next group),
- inside a group, top half against bottom half (1st v middle, 2nd v middle+1, ...).

"Keeps the rest pairable" is decided exactly with a maximum-matching test (Edmonds' blossom), so
the search finds a rematch-free round whenever one exists and never dead-ends; when no round
within `max_games_per_pair` exists, `PairingError` says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from campaigns.league.errors import PairingError
from campaigns.league.matching import augment, is_perfect, maximum_matching
from campaigns.league.records import Pairing, PlayerId, Round
from campaigns.league.settings import LeagueSettings
from rules.activation import shuffle
from rules.dice import Dice


class Ranked(Protocol):
    """Anything with a player and their points (a `StandingRow` qualifies)."""

    @property
    def player(self) -> PlayerId: ...

    @property
    def points(self) -> int: ...


@dataclass(frozen=True)
class Entrant:
    """A player and their current points, for a ranking built by hand."""

    player: PlayerId
    points: int


@dataclass(frozen=True)
class _Field:
    """What the search knows about this round: players in order and their shared history."""

    order: tuple[PlayerId, ...]
    group: dict[PlayerId, int]
    met: Counter[frozenset[PlayerId]]

    def games_between(self, a: PlayerId, b: PlayerId) -> int:
        return self.met[frozenset((a, b))]


def next_swiss_round(
    ranking: Sequence[Ranked],
    history: Iterable[Round],
    settings: LeagueSettings,
    *,
    number: int,
    withdrawn: Collection[PlayerId] = (),
    dice: Dice | None = None,
) -> Round:
    """Pair round `number` from `ranking` (best first) and the rounds already played.

    Withdrawn players are left out. With `dice`, players on equal points are shuffled before
    pairing (a random draw inside each score group); without it the ranking order decides.
    """
    rounds = tuple(history)
    order = _score_order(ranking, withdrawn, dice)
    if len(order) < 2:
        raise PairingError(f"round {number} needs at least 2 active players, not {len(order)}")
    field = _Field(order, _score_groups(ranking, order), _games_met(rounds))
    bye, pairs = _choose_round(field, _bye_counts(rounds), settings.max_games_per_pair, number)
    return Round(number, _with_sides(pairs, rounds) + _bye_pairing(bye))


def _score_order(
    ranking: Sequence[Ranked], withdrawn: Collection[PlayerId], dice: Dice | None
) -> tuple[PlayerId, ...]:
    active = [row for row in ranking if row.player not in withdrawn]
    if len({row.player for row in active}) != len(active):
        raise PairingError("a player appears twice in the ranking")
    ordered = sorted(active, key=lambda row: -row.points)  # stable: keeps the table's order
    if dice is None:
        return tuple(row.player for row in ordered)
    shuffled: list[PlayerId] = []
    for points in sorted({row.points for row in ordered}, reverse=True):
        group = [row.player for row in ordered if row.points == points]
        shuffled.extend(shuffle(group, dice, label=f"draw in the {points}-point group"))
    return tuple(shuffled)


def _score_groups(ranking: Sequence[Ranked], order: Sequence[PlayerId]) -> dict[PlayerId, int]:
    points = {row.player: row.points for row in ranking}
    levels = sorted({points[p] for p in order}, reverse=True)
    return {p: levels.index(points[p]) for p in order}


def _games_met(rounds: Sequence[Round]) -> Counter[frozenset[PlayerId]]:
    return Counter(frozenset(game.players) for r in rounds for game in r.games)


def _bye_counts(rounds: Sequence[Round]) -> Counter[PlayerId]:
    return Counter(player for r in rounds for player in r.byes)


def _choose_round(
    field: _Field, byes: Counter[PlayerId], max_games: int, number: int
) -> tuple[PlayerId | None, list[tuple[PlayerId, PlayerId]]]:
    """Try byes (fewest byes, lowest rank first) and rematch tiers until a round pairs."""
    for candidates in _bye_levels(field.order, byes):
        for tier in range(max_games):  # tier = most earlier games any pair may have had
            for bye in candidates:
                pairs = _pair_closest(tuple(p for p in field.order if p != bye), field, tier)
                if pairs is not None:
                    return bye, pairs
    raise PairingError(_no_pairing_message(field, max_games, number))


def _pair_closest(
    players: tuple[PlayerId, ...], field: _Field, tier: int
) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pair with the shortest possible floats: no pair further apart than it must be."""
    if _pair_players(players, field, _allowed(field, tier, reach=None)) is None:
        return None
    for reach in range(max(field.group.values()) + 1):
        pairs = _pair_players(players, field, _allowed(field, tier, reach))
        if pairs is not None:
            return pairs
    raise AssertionError("unlimited reach was pairable")


def _bye_levels(order: Sequence[PlayerId], byes: Counter[PlayerId]) -> list[list[PlayerId | None]]:
    if len(order) % 2 == 0:
        return [[None]]
    bottom_up = list(reversed(order))
    levels = sorted({byes[p] for p in order})
    return [[p for p in bottom_up if byes[p] == level] for level in levels]


def _allowed(field: _Field, tier: int, reach: int | None) -> Callable[[PlayerId, PlayerId], bool]:
    """Allow pairs with at most `tier` earlier games, at most `reach` score groups apart."""

    def allowed(a: PlayerId, b: PlayerId) -> bool:
        near = reach is None or abs(field.group[a] - field.group[b]) <= reach
        return near and field.games_between(a, b) <= tier

    return allowed


def _pair_players(
    players: Sequence[PlayerId], field: _Field, allowed: Callable[[PlayerId, PlayerId], bool]
) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pair `players` (best first) by preference, or return None if no full pairing exists."""
    size = len(players)
    adjacency = [
        [j for j in range(size) if j != i and allowed(players[i], players[j])] for i in range(size)
    ]
    mate = maximum_matching(adjacency)
    if not is_perfect(mate):
        return None
    alive = set(range(size))
    pairs = []
    while alive:
        top = min(alive)
        partner, mate = _best_partner(top, alive, adjacency, mate, _preference(players, field))
        pairs.append((players[top], players[partner]))
        alive -= {top, partner}
    return pairs


def _best_partner(
    top: int,
    alive: set[int],
    adjacency: list[list[int]],
    mate: list[int],
    preference: Callable[[int, set[int], list[int]], list[int]],
) -> tuple[int, list[int]]:
    """Return the most preferred partner of `top` that leaves the others pairable."""
    for partner in preference(top, alive, adjacency[top]):
        completed = _complete_with(top, partner, alive, adjacency, mate)
        if completed is not None:
            return partner, completed
    # The current matching pairs `top` already, so its partner always passes the test above.
    raise AssertionError("a perfect matching lost its pairing")


def _complete_with(
    top: int, partner: int, alive: set[int], adjacency: list[list[int]], mate: list[int]
) -> list[int] | None:
    """Return a perfect matching of `alive` that pairs top with partner, or None."""
    if mate[top] == partner:
        return mate
    rest = alive - {top, partner}
    trimmed = [
        [w for w in adjacency[v] if w in rest] if v in rest else [] for v in range(len(mate))
    ]
    trial = list(mate)
    freed = (mate[top], mate[partner])
    trial[freed[0]] = trial[freed[1]] = -1
    trial[top], trial[partner] = partner, top
    return trial if augment(trimmed, trial, freed[0]) else None


def _preference(
    players: Sequence[PlayerId], field: _Field
) -> Callable[[int, set[int], list[int]], list[int]]:
    def order(top: int, alive: set[int], neighbours: list[int]) -> list[int]:
        me = players[top]
        own_group = sorted(i for i in alive if field.group[players[i]] == field.group[me])
        half = len(own_group) // 2
        bottom_half = set(own_group[half:])

        def key(i: int) -> tuple[int, int, int, int]:
            them = players[i]
            distance = field.group[them] - field.group[me]
            return (field.games_between(me, them), distance, i not in bottom_half, i)

        return sorted((i for i in neighbours if i in alive), key=key)

    return order


def _no_pairing_message(field: _Field, max_games: int, number: int) -> str:
    times = "once" if max_games == 1 else f"{max_games} times"
    stuck = [
        p
        for p in field.order
        if all(field.games_between(p, q) >= max_games for q in field.order if q != p)
    ]
    if stuck:
        names = ", ".join(str(p) for p in stuck)
        return (
            f"cannot pair round {number}: {names} already played every other active player "
            f"{times} (the most a pair may meet); raise the maximum games per pair, "
            "or pair this round by hand"
        )
    return (
        f"cannot pair round {number}: no way to pair all {len(field.order)} active players "
        f"without a pair meeting more than {times}; raise the maximum games per pair, "
        "or pair this round by hand"
    )


def _home_balance(rounds: Sequence[Round]) -> Counter[PlayerId]:
    balance: Counter[PlayerId] = Counter()
    for game in (g for r in rounds for g in r.games):
        balance[game.home] += 1
        balance[game.away] -= 1  # type: ignore[index]  # games always have an away player
    return balance


def _with_sides(
    pairs: Sequence[tuple[PlayerId, PlayerId]], rounds: Sequence[Round]
) -> tuple[Pairing, ...]:
    """Give home to whoever has been home less often (the higher-ranked player on a tie)."""
    balance = _home_balance(rounds)
    return tuple(
        Pairing(high, low) if balance[high] <= balance[low] else Pairing(low, high)
        for high, low in pairs
    )


def _bye_pairing(bye: PlayerId | None) -> tuple[Pairing, ...]:
    return () if bye is None else (Pairing(bye, None),)
