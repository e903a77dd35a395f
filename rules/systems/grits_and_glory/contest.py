"""Exact odds of one aced roll against another (opposed rolls).

A side's total is the best of its aced dice (a trait die, maybe a Wild Die) plus a modifier, so
P(total >= x) = 1 - prod(1 - T_i(x - m)) with T_i one die's tail (`ace_tail`). Multiplying the
product out gives a signed sum, over the non-empty subsets of the dice, of products of tails.

An opposed roll asks for sum over b of P(B = b) * P(A >= b + c): a sum without end, but each
term of the multiplied-out sum is a product of tails T(s, t + r), and for t >= 1 a tail only
shrinks by 1/s each time t grows by s. So the product repeats, scaled by one fixed ratio, every
L = lcm(its sides) steps, and its infinitely many periods add up to one period / (1 - ratio):
a finite Fraction. The few low totals where some tail is still 1 are added one by one.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import lcm, prod
from typing import NamedTuple

from rules.systems.grits_and_glory.aces import ONE, ZERO, ace_tail


class Side(NamedTuple):
    """One side of an opposed roll: its aced dice (trait die, then Wild Dice) and modifier."""

    dice: tuple[int, ...]
    modifier: int

    @property
    def lowest(self) -> int:
        return 1 + self.modifier

    def tail(self, x: int) -> Fraction:
        """Return P(this side's total >= x)."""
        miss = ONE
        for sides in self.dice:
            miss *= ONE - ace_tail(sides, x - self.modifier)
        return ONE - miss


def over(a: Side, b: Side, c: int, floor: int | None = None) -> Fraction:
    """Return P(A >= B + c), and A >= `floor` as well when a floor is given."""
    return _over(a, b, c, floor)


@lru_cache(maxsize=4096)
def _over(a: Side, b: Side, c: int, floor: int | None) -> Fraction:
    first, head = b.lowest, ZERO
    if floor is not None and floor - c + 1 > first:
        # Every B below floor - c + 1 leaves A needing only the floor.
        first = floor - c + 1
        head = (ONE - b.tail(first)) * a.tail(floor)
    certain = a.lowest - c  # up to here A >= b + c cannot fail
    if certain > first:
        head += b.tail(first) - b.tail(certain)
        first = certain
    return head + _endless_tail(a, b, c, first)


def _endless_tail(a: Side, b: Side, c: int, start: int) -> Fraction:
    """Return the sum over b >= start of P(B = b) * P(A >= b + c), every tail argument >= 1."""
    total = ZERO
    for sign_a, dice_a in _subsets(a.dice):
        for sign_b, dice_b in _subsets(b.dice):
            # P(B = b) = P(B >= b) - P(B >= b + 1): one sum per shift.
            for shift, sign in ((0, 1), (1, -1)):
                factors = tuple((s, start + c - a.modifier) for s in dice_a) + tuple(
                    (s, start + shift - b.modifier) for s in dice_b
                )
                total += sign_a * sign_b * sign * _repeating_sum(_canonical(factors))
    return total


@lru_cache(maxsize=64)
def _subsets(dice: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return (sign, sides) for each non-empty subset: 1 - prod(1 - T) multiplied out."""
    return tuple(
        (1 if size % 2 else -1, subset)
        for size in range(1, len(dice) + 1)
        for subset in combinations(dice, size)
    )


def _canonical(
    factors: tuple[tuple[int, int], ...],
) -> tuple[Fraction, tuple[tuple[int, int], ...]]:
    """Pull whole aces out of each tail: T(s, t) = T(s, t - k*s) / s**k, leaving 1 <= t <= s."""
    scale, reduced = 1, []
    for sides, t in factors:
        aces = (t - 1) // sides
        scale *= sides**aces
        reduced.append((sides, t - aces * sides))
    return Fraction(1, scale), tuple(sorted(reduced))


def _repeating_sum(canonical: tuple[Fraction, tuple[tuple[int, int], ...]]) -> Fraction:
    scale, factors = canonical
    return scale * _periods_sum(factors)


@lru_cache(maxsize=4096)
def _periods_sum(factors: tuple[tuple[int, int], ...]) -> Fraction:
    """Return the sum over r >= 0 of prod T(s, t + r), for tails with 1 <= t <= s."""
    period = lcm(*(s for s, _ in factors))
    # One period in integers over its largest denominator, s**top per factor.
    tops = [(t + period - 2) // s + 1 for s, t in factors]
    numerator = 0
    for r in range(period):
        term = 1
        for (sides, t), top in zip(factors, tops, strict=True):
            aces, rest = divmod(t + r - 1, sides)
            term *= (sides - rest) * sides ** (top - aces - 1)
        numerator += term
    denominator = prod(s**top for (s, _), top in zip(factors, tops, strict=True))
    ratio = Fraction(1, prod(s ** (period // s) for s, _ in factors))
    return Fraction(numerator, denominator) / (ONE - ratio)
