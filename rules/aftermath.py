"""Rencounter's campaign rolls, shared by every system that uses them as house rules.

Improvement: roll the stat's own die; a roll over the current value improves it by one, never
past the maximum. Wound aftermath: a d6 per wound point, read on the aftermath bands; as
written 1 is sepsis (that point is rolled again as two dice, recursively), 2 permanent, 3-6
healed. More than five permanent points from one fight kill. A hazardous aftermath subtracts 1
or 2 from each roll (a result of 1 or less reads as a 1: sepsis); prompt care rerolls once each
die that would not heal (as written a 1 or 2), and the reroll stands. Both at once is an error.

The bands are a house-rules table: `AFTERMATH_BANDS` holds them as written, and a system that
lets a club edit them keeps them in its tables snapshot and passes them in (`bands=`). Odds of
the aftermath are not rational (sepsis branches without bound; the chance that one point ends
with no permanent damage is the root of a quadratic), so they are floats with a stated error
bound, computed in closed form rather than by simulation, for any bands a club may set
(`chain_ends` says which those are).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules.dice import D6, Dice
from rules.errors import DiceError, ValidationError

#: What a wound point's d6 can come to, in the order the bands run.
SEPSIS, PERMANENT, HEALED = "sepsis", "permanent", "healed"
POINT_RESULTS: tuple[str, ...] = (SEPSIS, PERMANENT, HEALED)
#: Hazardous aftermaths subtract up to this much from each roll.
MAX_HAZARD = 2

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

Bands = tuple[tuple[int, str], ...]
#: The d6 (after any hazard) -> a point's fate: (highest face, result), lowest band first, as
#: written (a club's house rules may set others: a system's tables snapshot carries them).
AFTERMATH_BANDS: Bands = ((1, SEPSIS), (2, PERMANENT), (6, HEALED))


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
    return Improvement(roll, value, improved_value(roll, value=value, maximum=maximum))


def improved_value(roll: int, *, value: int, maximum: int) -> int:
    """The stat after an improvement roll of `roll`: one more if the roll beat it (capped)."""
    return value + 1 if roll > value and value < maximum else value


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


@lru_cache(maxsize=32)
def faces(bands: Bands) -> tuple[str, ...]:
    """Each d6 face's result on these bands, indexed by the face (index 0 reads as face 1)."""
    results = [next((r for top, r in bands if face <= top), HEALED) for face in range(1, 7)]
    return (results[0], *results)


def wound_aftermath(
    dice: Dice,
    *,
    wounds: int,
    care: str = "none",
    hazard: int = 0,
    bands: Bands = AFTERMATH_BANDS,
) -> Aftermath:
    """Roll the aftermath of `wounds` wound points on `bands` (the text's unless a club's).

    Given dice are consumed point by point, first the original points in order, then the two
    dice of each sepsis point, in the order they arose, each followed by its prompt-care
    reroll when one is due. Rolling stops as soon as the figure has died.
    """
    return Aftermath(*aftermath_roll(wounds=wounds, care=care, hazard=hazard, bands=bands)(dice))


def aftermath_roll(
    *, wounds: int, care: str = "none", hazard: int = 0, bands: Bands = AFTERMATH_BANDS
) -> Callable[[Dice], tuple[int, int, int]]:
    """`wound_aftermath` prepared for its numbers: the roll gives (permanent, healed, sepsis).

    Each face's fate after the hazard is read once, here, and each point's labels are written
    once per process, so a roll draws and counts the dice and does nothing else.
    """
    check_care(care, hazard)
    fates = faces(bands)  # cached per bands: read once, never per die
    # The fate a face reads as once the hazard is subtracted (a result of 1 or less reads as 1).
    fate_of = tuple(fates[max(face - hazard, 1)] for face in range(7))
    # By face, whether prompt care rerolls it: a face that would not heal (before the hazard,
    # as written).
    prompt = care == "prompt"
    rerolled = tuple(prompt and face > 0 and fates[face] != HEALED for face in range(7))
    labels = _POINT_LABELS

    def roll(dice: Dice) -> tuple[int, int, int]:
        draw = dice.roll
        pending, permanent, healed, sepsis, rolled = wounds, 0, 0, 0, 0
        # Rolling stops once more than five points are permanent: the figure is dead either way.
        while pending and permanent <= MAX_PERMANENT_SURVIVABLE:
            if rolled == MAX_POINTS_ROLLED:
                raise DiceError(f"the sepsis chain passed {MAX_POINTS_ROLLED:,} points rolled")
            pending -= 1
            rolled += 1
            if rolled >= len(labels):
                _more_point_labels(rolled)
            label, reroll_label = labels[rolled]
            face = draw(D6, label)
            if rerolled[face]:
                face = draw(D6, reroll_label)
            result = fate_of[face]
            if result == SEPSIS:
                sepsis += 1
                pending += 2
            elif result == PERMANENT:
                permanent += 1
            else:
                healed += 1
        return permanent, healed, sepsis

    return roll


#: Each wound point's die labels (the point's, and its prompt-care reroll's), by the point's
#: number: written once per process, not once per die. Grown as a long sepsis chain needs.
_POINT_LABELS: list[tuple[str, str]] = [("", "")]


def _more_point_labels(upto: int) -> None:
    for point in range(len(_POINT_LABELS), upto + 1):
        label = f"wound point {point}"
        _POINT_LABELS.append((label, f"{label} (prompt care reroll)"))


_more_point_labels(64)


def point_chances(bands: Bands, care: str, hazard: int) -> tuple[Fraction, Fraction, Fraction]:
    """Return the exact (sepsis, permanent, healed) chances of one point's final roll."""
    fates = faces(bands)
    rerolled = sum(fates[face] != HEALED for face in range(1, 7))
    weights = {}
    for face in range(1, 7):
        if care != "prompt":
            weights[face] = Fraction(1, 6)
        elif fates[face] != HEALED:  # rerolled once: it stands only if the reroll shows it
            weights[face] = Fraction(rerolled, 36)
        else:  # shown at once, or by the reroll of a face that would not have healed
            weights[face] = Fraction(1, 6) + Fraction(rerolled, 36)
    chance = dict.fromkeys(POINT_RESULTS, Fraction(0))
    for face, weight in weights.items():
        chance[fates[max(face - hazard, 1)]] += weight
    return chance[SEPSIS], chance[PERMANENT], chance[HEALED]


def _point_chances(bands: Bands, care: str, hazard: int) -> tuple[float, float, float]:
    sepsis, permanent, _ = point_chances(bands, care, hazard)
    return float(sepsis), float(permanent), float(1 - sepsis - permanent)


def chain_ends(bands: Bands) -> str:
    """Why these bands could roll a figure's aftermath for ever, or "" if they cannot.

    A sepsis point becomes two points, so the chain of rolls ends for certain only while each
    point is more likely to heal or stay than to turn septic (sepsis below one half: each point
    leaves fewer than one point behind on average), or while permanent points come up at all
    (six of them end the rolling). Every care and hazard a campaign may choose is tried.
    """
    choices = [("none", hazard) for hazard in range(MAX_HAZARD + 1)] + [("prompt", 0)]
    for care, hazard in choices:
        sepsis, permanent, _ = point_chances(bands, care, hazard)
        if not permanent and sepsis >= Fraction(1, 2):
            where = f"with a hazardous aftermath of {hazard}" if hazard else f"with {care} care"
            return (
                f"{where} a point turns septic at least half the time and none stays "
                "permanent, so the rolling might never end"
            )
    return ""


def _one_point_distribution(bands: Bands, care: str, hazard: int) -> list[float]:
    """P(one wound point ends with k permanent points), k = 0..5.

    With p = sepsis, q = permanent, r = healed and f_k these chances, a point is healed, made
    permanent, or becomes two independent points:  f_0 = r + p f_0²,  f_1 = q + 2p f_0 f_1,
    f_k = p Σ_{i+j=k} f_i f_j.  The system is triangular: f_0 is the smaller root of a
    quadratic (the chance of a finite chain with nothing permanent, whether the process is
    subcritical, critical as at hazard 2, or supercritical under a club's bands), and each
    later f_k is linear in itself once the smaller ones are known. 1 - 2p f_0 = √(1 - 4pr) is
    positive for every band `chain_ends` accepts (it is zero only with q = 0 and p = 1/2).
    """
    p, q, r = _point_chances(bands, care, hazard)
    f0 = (1 - math.sqrt(1 - 4 * p * r)) / (2 * p) if p else r
    f = [f0]
    denominator = 1 - 2 * p * f0
    for k in range(1, MAX_PERMANENT_SURVIVABLE + 1):
        inner = sum(f[i] * f[k - i] for i in range(1, k))
        f.append(((q if k == 1 else 0.0) + p * inner) / denominator)
    return f


def aftermath_odds(
    *, wounds: int, care: str = "none", hazard: int = 0, bands: Bands = AFTERMATH_BANDS
) -> dict[str, float]:
    """The distribution over `dies` and `permanent_0..5` for `wounds` wound points on `bands`."""
    check_care(care, hazard)
    point = _one_point_distribution(bands, care, hazard)
    total = [1.0] + [0.0] * MAX_PERMANENT_SURVIVABLE
    for _ in range(wounds):
        total = [
            sum(total[i] * point[k - i] for i in range(k + 1))
            for k in range(MAX_PERMANENT_SURVIVABLE + 1)
        ]
    odds = {f"permanent_{k}": total[k] for k in range(MAX_PERMANENT_SURVIVABLE + 1)}
    odds["dies"] = max(0.0, 1.0 - sum(total))
    return odds
