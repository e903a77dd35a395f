"""The generic squad creator as a seeded force generator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.dice import D6, Dice
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.stats import SKILL_MAX, SKILL_MIN, STATS


@dataclass(frozen=True)
class Squad:
    """One generated unit: the leader first, then his men (validated stats)."""

    name: str
    figures: tuple[dict[str, Any], ...]


def _skill(experience: int, dice: Dice, varied: bool, label: str) -> int:
    base = t.SQUAD_SKILL_PER_EXPERIENCE * experience
    if varied:
        base += t.SQUAD_SKILL_VARIATION[dice.roll(D6, label)]
    return max(SKILL_MIN, min(SKILL_MAX, base))


def _figure(experience: int, dice: Dice, varied: bool) -> dict[str, Any]:
    return STATS.validate(
        {
            "experience": experience,
            "fire": _skill(experience, dice, varied, "fire variation"),
            "melee": _skill(experience, dice, varied, "melee variation"),
        }
    )


def roll_figure(dice: Dice, *, leader: bool = False, varied: bool = False) -> dict[str, Any]:
    """Roll one figure on the squad creator's leader or man table; return validated stats.

    Dice order: experience, then (if varied) fire and melee variation.
    """
    table = t.SQUAD_LEADER if leader else t.SQUAD_MAN
    label = "leader experience" if leader else "man experience"
    return _figure(table[dice.roll(D6, label)], dice, varied)


def generate_force(
    dice: Dice, *, units: int, side: str = "Side", varied: bool = False
) -> tuple[Squad, ...]:
    """Roll one side: a group size for all its units, a leader and men for each unit."""
    size = dice.roll(D6, "group size") + t.SQUAD_SIZE_BONUS
    squads = []
    for number in range(1, units + 1):
        leader = t.SQUAD_LEADER[dice.roll(D6, "leader experience")]
        men = [t.SQUAD_MAN[dice.roll(D6, "man experience")] for _ in range(size - 1)]
        figures = tuple(_figure(e, dice, varied) for e in (leader, *men))
        squads.append(Squad(f"{side} {number}", figures))
    return tuple(squads)
