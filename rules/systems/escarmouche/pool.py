"""Escarmouche's dice pool: active dice score, every die can cost the initiative.

A pool is rolled as its active dice, then its passive dice (the order given dice are typed in).
The score is the highest active die; each six after the first adds one, so 6-6-2-1 scores 7.
Passive dice never score (a passive six is worth nothing) but a 1 on *any* die of the acting
figure counts against its initiative. The opponent's defence dice never cost anyone initiative.

Exact odds come from a closed form over counts (sixes, ones, the highest of the rest) with
integer weights out of 6**dice, so a 20-die pool costs microseconds, not an enumeration.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb
from typing import NamedTuple

from rules.dice import D6, Dice

SIX = 6
#: Ones are only ever told apart as none, one, two, three or more (marshal's triple 1).
ONES_CAP = 3
#: The largest pool a check accepts: ten of each colour is the text's kit, doubled for volleys.
MAX_POOL = 20

KEEPS_INITIATIVE = "keeps_initiative"
FIGURE_ENDS = "figure_ends"
SIDE_ENDS = "side_ends"
INITIATIVE_OUTCOMES = (KEEPS_INITIATIVE, FIGURE_ENDS, SIDE_ENDS)

#: (score, ones capped at ONES_CAP) -> number of the 6**dice equally likely rolls.
Weights = tuple[tuple[tuple[int, int], int], ...]


class PoolRoll(NamedTuple):
    """One rolled pool: its active and passive dice, score and 1s (a tuple: a hot path)."""

    active: tuple[int, ...]
    passive: tuple[int, ...]
    score: int
    ones: int

    @classmethod
    def of(cls, active: tuple[int, ...], passive: tuple[int, ...]) -> PoolRoll:
        return cls(active, passive, score_of(active), active.count(1) + passive.count(1))

    def as_json(self) -> dict[str, object]:
        return {
            "active": list(self.active),
            "passive": list(self.passive),
            "score": self.score,
            "ones": self.ones,
        }


def score_of(active: Sequence[int]) -> int:
    """Score active dice: the highest, or 6 plus one for each six after the first."""
    if not active:
        return 0
    sixes = active.count(SIX)
    return SIX + sixes - 1 if sixes else max(active)


def initiative(ones: int, ones_before: int = 0) -> str:
    """Say what a pool's ones do: none keep it, one ends the figure, a second ends the side."""
    if ones == 0:
        return KEEPS_INITIATIVE
    return FIGURE_ENDS if ones == 1 and ones_before == 0 else SIDE_ENDS


def roll_pool(dice: Dice, active: int, passive: int, who: str = "") -> PoolRoll:
    """Roll `active` then `passive` d6s, labelled by colour (and by whose pool, if given).

    Every check rolls a pool, so this is kept flat: no prefix built for an anonymous pool, and
    no call for an empty passive pool (it would roll and record nothing).
    """
    active_label, passive_label = (f"{who} active", f"{who} passive") if who else _LABELS
    rolled = dice.roll_many(active, D6, active_label)
    penalty = dice.roll_many(passive, D6, passive_label) if passive else ()
    return PoolRoll(rolled, penalty, score_of(rolled), rolled.count(1) + penalty.count(1))


_LABELS = ("active", "passive")


@lru_cache(maxsize=4096)
def pool_weights(active: int, passive: int) -> Weights:
    """Return how many of the 6**(active+passive) rolls give each (score, ones)."""
    counts: dict[tuple[int, int], int] = {}
    for (score, active_ones), weight in _active_weights(active):
        for passive_ones in range(passive + 1):
            ways = comb(passive, passive_ones) * 5 ** (passive - passive_ones)
            key = (score, min(active_ones + passive_ones, ONES_CAP))
            counts[key] = counts.get(key, 0) + weight * ways
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=64)
def score_weights(dice: int) -> tuple[tuple[int, int], ...]:
    """Return how many of the 6**dice rolls give each score (ones ignored)."""
    counts: dict[int, int] = {}
    for (score, _), weight in _active_weights(dice):
        counts[score] = counts.get(score, 0) + weight
    return tuple(sorted(counts.items()))


def _active_weights(n: int) -> list[tuple[tuple[int, int], int]]:
    """Count rolls of n active dice by (score, ones), ones uncapped."""
    if n == 0:
        return [((0, 0), 1)]
    rows: list[tuple[tuple[int, int], int]] = []
    for sixes in range(1, n + 1):
        rest = n - sixes
        for ones in range(rest + 1):
            # The non-six, non-one dice show any of 2..5.
            ways = comb(n, sixes) * comb(rest, ones) * 4 ** (rest - ones)
            rows.append(((SIX + sixes - 1, ones), ways))
    rows.extend(_no_six_weights(n))
    return rows


def _no_six_weights(n: int) -> list[tuple[tuple[int, int], int]]:
    """Count rolls of n dice with no six by (highest die, ones)."""
    rows = [((1, n), 1)]  # every die a 1
    for ones in range(n):
        others = n - ones
        for top in range(2, SIX):
            # The others show 2..top with at least one `top`.
            ways = comb(n, ones) * ((top - 1) ** others - (top - 2) ** others)
            rows.append(((top, ones), ways))
    return rows
