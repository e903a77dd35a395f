"""Rencounter's campaign rolls, shared by every system that uses them as house rules.

Improvement: roll the stat's own die; a roll over the current value improves it by one, never
past the maximum. Wound aftermath: a d6 per wound point; 1 sepsis (that point is rolled again as
two dice, recursively), 2 permanent, 3-6 healed. More than five permanent points from one fight
kill. A hazardous aftermath subtracts 1 or 2 from each roll (a result of 1 or less is sepsis);
prompt care rerolls each 1 or 2 once, and the reroll stands. Both at once is an error.

Odds of the aftermath are not rational (sepsis branches without bound; the chance that one
point ends with no permanent damage is the root of a quadratic), so they are floats with a
stated error bound, computed in closed form rather than by simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import D6, Dice
from rules.errors import DiceError, ValidationError

#: More than this many permanent points from one fight kills the figure.
MAX_PERMANENT_SURVIVABLE = 5
#: A guard, not a rule: the sepsis chain has no cap in the text. Given dice run out long before
#: (GivenDice says so: a clear error, never a silently healed man) and seeded dice end with
#: probability 1 within a few dozen points; reaching this raises instead of ending the chain.
MAX_POINTS_ROLLED = 100_000
AFTERMATH_OUTCOMES: tuple[str, ...] = (
    "dies",
    *(f"permanent_{n}" for n in range(MAX_PERMANENT_SURVIVABLE + 1)),
)
#: The absolute error of `aftermath_odds` (float rounding of a closed form; measured ~1e-16).
AFTERMATH_ERROR_BOUND = 1e-12
CARE_CHOICES = (("none", "No special care"), ("prompt", "Prompt, high-quality care"))


@dataclass(frozen=True)
class Improvement:
    """The result of one improvement roll."""

    roll: int
    before: int
    after: int

    @property
    def improved(self) -> bool:
        return self.after > self.before


def improvement_roll(dice: Dice, *, stat: str, value: int, sides: int, maximum: int) -> Improvement:
    """Roll the stat's own die; over the current value improves it by one (capped)."""
    roll = dice.roll(sides, f"improvement: {stat}")
    after = value + 1 if roll > value and value < maximum else value
    return Improvement(roll, value, after)


def improvement_odds(*, value: int, sides: int, maximum: int) -> dict[str, Fraction]:
    """Exact odds of `improves` / `unchanged` for one improvement roll."""
    improves = Fraction(max(sides - value, 0), sides) if value < maximum else Fraction(0)
    return {"improves": improves, "unchanged": 1 - improves}


@dataclass(frozen=True)
class Aftermath:
    """The wound aftermath of one figure: how each point ended, and the verdict."""

    permanent: int
    healed: int
    sepsis: int

    @property
    def dies(self) -> bool:
        return self.permanent > MAX_PERMANENT_SURVIVABLE

    @property
    def outcome(self) -> str:
        return "dies" if self.dies else f"permanent_{self.permanent}"


def check_care(care: str, hazard: int) -> None:
    """Refuse prompt care in a hazardous aftermath: the text offers them as alternatives."""
    if care == "prompt" and hazard:
        raise ValidationError({"care": "prompt care and a hazardous aftermath exclude each other"})


def _point_result(dice: Dice, *, care: str, hazard: int, label: str) -> int:
    roll = dice.roll(D6, label)
    if care == "prompt" and roll <= 2:
        roll = dice.roll(D6, f"{label} (prompt care reroll)")
    return max(roll - hazard, 1)


def wound_aftermath(dice: Dice, *, wounds: int, care: str = "none", hazard: int = 0) -> Aftermath:
    """Roll the aftermath of `wounds` wound points.

    Given dice are consumed point by point, first the original points in order, then the two
    dice of each sepsis point, in the order they arose, each followed by its prompt-care
    reroll when one is due. Rolling stops as soon as the figure has died.
    """
    check_care(care, hazard)
    pending, permanent, healed, sepsis, rolled = wounds, 0, 0, 0, 0
    # Rolling stops once more than five points are permanent: the figure is dead either way.
    while pending and permanent <= MAX_PERMANENT_SURVIVABLE:
        if rolled == MAX_POINTS_ROLLED:
            raise DiceError(f"the sepsis chain passed {MAX_POINTS_ROLLED:,} points rolled")
        pending -= 1
        rolled += 1
        result = _point_result(dice, care=care, hazard=hazard, label=f"wound point {rolled}")
        if result == 1:
            sepsis += 1
            pending += 2
        elif result == 2:
            permanent += 1
        else:
            healed += 1
    return Aftermath(permanent, healed, sepsis)


def _point_chances(care: str, hazard: int) -> tuple[float, float, float]:
    """Return (sepsis, permanent, healed) chances for one point's final roll."""
    faces = range(1, 7)
    if care == "prompt":
        # 1s and 2s are rerolled once and the reroll stands.
        weights = {face: Fraction(2, 36) if face <= 2 else Fraction(8, 36) for face in faces}
    else:
        weights = {face: Fraction(1, 6) for face in faces}
    sepsis = sum((w for f, w in weights.items() if max(f - hazard, 1) == 1), Fraction(0))
    permanent = sum((w for f, w in weights.items() if max(f - hazard, 1) == 2), Fraction(0))
    return float(sepsis), float(permanent), float(1 - sepsis - permanent)


def _one_point_distribution(care: str, hazard: int) -> list[float]:
    """P(one wound point ends with k permanent points), k = 0..5.

    With p = sepsis, q = permanent, r = healed and f_k these chances, a point is healed, made
    permanent, or becomes two independent points:  f_0 = r + p f_0²,  f_1 = q + 2p f_0 f_1,
    f_k = p Σ_{i+j=k} f_i f_j.  The system is triangular: f_0 is the smaller root of a
    quadratic (the process ends with probability 1 even at hazard 2, where it is critical), and
    each later f_k is linear in itself once the smaller ones are known.
    """
    p, q, r = _point_chances(care, hazard)
    f0 = (1 - math.sqrt(1 - 4 * p * r)) / (2 * p) if p else r
    f = [f0]
    denominator = 1 - 2 * p * f0
    for k in range(1, MAX_PERMANENT_SURVIVABLE + 1):
        inner = sum(f[i] * f[k - i] for i in range(1, k))
        f.append(((q if k == 1 else 0.0) + p * inner) / denominator)
    return f


def aftermath_odds(*, wounds: int, care: str = "none", hazard: int = 0) -> dict[str, float]:
    """The distribution over `dies` and `permanent_0..5` for `wounds` wound points."""
    check_care(care, hazard)
    point = _one_point_distribution(care, hazard)
    total = [1.0] + [0.0] * MAX_PERMANENT_SURVIVABLE
    for _ in range(wounds):
        total = [
            sum(total[i] * point[k - i] for i in range(k + 1))
            for k in range(MAX_PERMANENT_SURVIVABLE + 1)
        ]
    odds = {f"permanent_{k}": total[k] for k in range(MAX_PERMANENT_SURVIVABLE + 1)}
    odds["dies"] = max(0.0, 1.0 - sum(total))
    return odds
