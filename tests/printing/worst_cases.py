"""The worst card each rule system can print: its longest name, the most of everything.

Built from the system's own stat schema (every number at its maximum, every choice at its
longest label, five weapons, every flag set), so a field or weapon added to a system is in
the worst case without anyone editing this file.
"""

from __future__ import annotations

from typing import Any

from printing.figures import FigureData
from rules.errors import ValidationError
from rules.schema import Field
from rules.system import RuleSystem

LONGEST_NAME = "Bartholomew Featherstonehaugh-Smythe of Much Wenlock"
WEAPONS = 5


def _longest(field: Field, count: int) -> list[Any]:
    ranked = sorted(field.choices, key=lambda choice: -len(str(choice[1])))
    return [value for value, _ in ranked if value not in (None, "", "none")][:count]


def _most(field: Field) -> Any:
    if field.kind == "int":
        return field.max if field.max is not None else field.default
    if field.kind == "die":
        return max(value for value, _ in field.choices if value)
    if field.kind == "bool":
        return True
    if field.kind == "choice":
        return (_longest(field, 1) or [field.default])[0]
    if field.kind == "multichoice":
        return _longest(field, min(field.max or WEAPONS, WEAPONS))
    if field.kind == "list":
        return ["Scar across the brow from the siege of Much Wenlock"] * 2
    if field.kind == "text":
        return "Carries the colours of the regiment and a letter for the colonel"
    return field.default


def worst_stats(system: RuleSystem) -> dict[str, Any]:
    """Return the most a figure of the system can carry that its schema accepts."""
    raw = {f.name: _most(f) for f in system.stats.fields}
    for _ in range(len(raw)):
        try:
            return dict(system.stats.validate(raw))
        except ValidationError as error:  # a combination the system forbids: drop that one
            bad = [name for name in raw if name in str(error)]
            if not bad:
                raise
            for name in bad:
                raw.pop(name)
    return dict(system.stats.validate(raw))


def worst_figures(system: RuleSystem) -> list[FigureData]:
    """Return the worst case (and, for a system with a Wild Card flag, its Extra too)."""
    stats = worst_stats(system)
    figure = FigureData(
        name=LONGEST_NAME,
        stats=stats,
        rank="Lieutenant-Colonel",
        unit="Second Battalion of Foot Skirmishers",
        qr_url="https://muster.example.org/characters/123456/",
        wounds=1,
        permanent_wounds=("Lost two fingers: −1 fire", 'Limp: −1" move', "Scarred face"),
    )
    if "wild_card" not in stats:
        return [figure]
    figures = next(f for f in system.stats.fields if f.name == "figures").max
    extras = {**stats, "wild_card": False, "figures": figures}
    return [figure, FigureData(name="Joe", stats=system.stats.validate(extras), wounds=2)]
