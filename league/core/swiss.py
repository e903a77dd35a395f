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
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from league.core.errors import PairingError
from league.core.matching import augment, is_perfect, maximum_matching
from league.core.records import Pairing, PlayerId, Round
from league.core.settings import LeagueSettings
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


class _Graph:
    """The players still to pair (best first) as indices, with what `allowed` needs to know.

    Score groups are contiguous in ranking order, so the players within `reach` groups of one
    player are one index range; earlier games are a sparse map. Adjacency lists are built from
    those ranges, so a round costs what its edges cost, not a Python call per pair.
    """

    def __init__(self, players: tuple[PlayerId, ...], field: _Field) -> None:
        self.players = players
        self.group = [field.group[p] for p in players]
        index = {p: i for i, p in enumerate(players)}
        self.met: dict[tuple[int, int], int] = {}
        for pair, games in field.met.items():
            if len(pair) == 2:
                a, b = (index.get(p) for p in pair)
                if a is not None and b is not None:
                    self.met[(a, b)] = self.met[(b, a)] = games
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        for i, g in enumerate(self.group):
            self.starts.setdefault(g, i)
            self.ends[g] = i + 1

    def games(self, a: int, b: int) -> int:
        return self.met.get((a, b), 0)

    def span(self, i: int, reach: int | None) -> tuple[int, int]:
        """Return the index range of the players within `reach` score groups of player i."""
        if reach is None:
            return 0, len(self.players)
        g = self.group[i]
        low = min((k for k in self.starts if k >= g - reach), default=g)
        high = max((k for k in self.ends if k <= g + reach), default=g)
        return self.starts[low], self.ends[high]

    def adjacency(self, tier: int, reach: int | None) -> list[list[int]]:
        too_often: dict[int, set[int]] = {}
        for (a, b), games in self.met.items():
            if games > tier:
                too_often.setdefault(a, set()).add(b)
        rows = []
        for i in range(len(self.players)):
            low, high = self.span(i, reach)
            cuts = sorted(j for j in too_often.get(i, ()) if low <= j < high)
            row: list[int] = []
            for cut in sorted({i, *cuts}):  # the ranges between the players i may not meet
                row.extend(range(low, cut))
                low = cut + 1
            row.extend(range(low, high))
            rows.append(row)
        return rows


def _pair_closest(
    players: tuple[PlayerId, ...], field: _Field, tier: int
) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pair with the shortest possible floats: no pair further apart than it must be."""
    graph = _Graph(players, field)
    groups = max(field.group.values()) + 1
    for reach in range(groups):
        adjacency = graph.adjacency(tier, reach)
        mate = maximum_matching(adjacency)
        if is_perfect(mate):
            return _pair_by_preference(graph, adjacency, mate, tier)
        if reach == 0 and not is_perfect(maximum_matching(graph.adjacency(tier, reach=None))):
            return None  # not even with floats across the whole table
    return None


def _bye_levels(order: Sequence[PlayerId], byes: Counter[PlayerId]) -> list[list[PlayerId | None]]:
    if len(order) % 2 == 0:
        return [[None]]
    bottom_up = list(reversed(order))
    levels = sorted({byes[p] for p in order})
    return [[p for p in bottom_up if byes[p] == level] for level in levels]


def _pair_by_preference(
    graph: _Graph, adjacency: list[list[int]], mate: list[int], tier: int
) -> list[tuple[PlayerId, PlayerId]]:
    """Pair the highest-ranked player left with their most preferred partner that keeps the
    rest pairable (decided exactly: an augmenting path in the rest of the perfect matching)."""
    size = len(graph.players)
    alive = [True] * size
    allowed = [set(row) for row in adjacency]
    pairs = []
    for top in range(size):
        if not alive[top]:
            continue
        partner, mate = _best_partner(top, alive, adjacency, allowed, mate, graph, tier)
        pairs.append((graph.players[top], graph.players[partner]))
        alive[top] = alive[partner] = False
    return pairs


def _best_partner(
    top: int,
    alive: list[bool],
    adjacency: list[list[int]],
    allowed: list[set[int]],
    mate: list[int],
    graph: _Graph,
    tier: int,
) -> tuple[int, list[int]]:
    """Return the most preferred partner of `top` that leaves the others pairable."""
    for partner in _preferred(top, alive, allowed[top], graph, tier):
        completed = _complete_with(top, partner, alive, adjacency, allowed, mate)
        if completed is not None:
            return partner, completed
    # The current matching pairs `top` already, so its partner always passes the test above.
    raise AssertionError("a perfect matching lost its pairing")


def _complete_with(
    top: int,
    partner: int,
    alive: list[bool],
    adjacency: list[list[int]],
    allowed: list[set[int]],
    mate: list[int],
) -> list[int] | None:
    """Return a perfect matching of the alive players that pairs top with partner, or None.

    Taking top and partner from their matched partners frees two players, who must be joined
    by an augmenting path through the rest. On the dense graphs of a Swiss round that path is
    nearly always one edge (the two are allowed to meet) or three (through one matched pair),
    found without the general search, whose blossom shrinking costs O(n) a step.
    """
    if mate[top] == partner:
        return mate
    trial = list(mate)
    first, second = mate[top], mate[partner]
    trial[top], trial[partner] = partner, top
    if second in allowed[first]:
        trial[first], trial[second] = second, first
        return trial
    for x in adjacency[first]:
        y = mate[x]
        if alive[x] and x not in (top, partner) and second in allowed[y]:
            trial[first], trial[x], trial[y], trial[second] = x, first, second, y
            return trial
    trial[first] = trial[second] = -1
    rest = list(alive)
    rest[top] = rest[partner] = False
    return trial if augment(adjacency, trial, first, rest) else None


def _preferred(
    top: int, alive: list[bool], neighbours: set[int], graph: _Graph, tier: int
) -> Iterator[int]:
    """Yield top's possible partners, most preferred first.

    Fewest earlier games first; then, for each number of games, the same score group (its
    bottom half first, then its top half, in ranking order), then lower groups in ranking
    order. `top` is the best player left, so everyone alive ranks below them.
    """
    g = graph.group[top]
    own = [i for i in range(top, graph.ends[g]) if alive[i]]  # top itself is own[0]
    half = len(own) // 2
    below = range(graph.ends[g], len(graph.players))
    order = (*own[half:], *own[1:half])
    for games in range(tier + 1):
        for i in (*order, *(j for j in below if alive[j])):
            if i != top and i in neighbours and graph.games(top, i) == games:
                yield i


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
