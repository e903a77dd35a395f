"""Escarmouche's tables as data: ratings, skills, terrain, weapons and the effects tables.

The checks, the stat schema and the quick-reference sheets all read these, so a change here
changes every one of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.aftermath import AFTERMATH_OUTCOMES

RATINGS: tuple[tuple[int, str], ...] = (
    (1, "Lowest of the low, or terrified non-combatants"),
    (2, "Raw troops, or courageous non-combatants"),
    (3, "Average troops"),
    (4, "Veteran characters"),
    (5, "Heroic characters"),
)
MAX_SKILL = 3

#: Skill stat name -> what it covers.
SKILLS: tuple[tuple[str, str], ...] = (
    ("shooter", "Shooter: missile weapons"),
    ("fighter", "Fighter: melee"),
    ("rider", "Rider: horsemanship"),
    ("pike_trailer", "Pike trailer: pole arms"),
    ("artillerist", "Artillerist: cannon"),
    ("leader", "Leader: marshalling other figures"),
)


@dataclass(frozen=True)
class Row:
    """A keyed table row with the number of passive dice it costs."""

    key: str
    label: str
    passive: int


#: Passive dice added to a move's roll, by the ground moved through.
TERRAIN: tuple[Row, ...] = (
    Row("clear", "Clear or open ground", 2),
    Row("broken", "Broken or scrub ground, light woods, moderate hills", 3),
    Row("heavy", "Heavy ground: swamp, dense forest, steep hillside", 4),
    Row("difficult", "Difficult ground, swift rivers, or moving wagons and cannon", 5),
)

#: Passive dice added to a shot, by weapon class (the time spent loading and aiming).
WEAPONS: tuple[Row, ...] = (
    Row("thrown", "Thrown objects", 1),
    Row("short_bow", "Short bow", 2),
    Row("carbine", "Carbine, pistol, light crossbow, longbow", 3),
    Row("musket", "Musket, heavy crossbow", 4),
    Row("cannon", "Cannon of all sorts", 5),
)
TERRAIN_BY_KEY = {row.key: row for row in TERRAIN}
WEAPON_BY_KEY = {row.key: row for row in WEAPONS}
CANNON = "cannon"

MELEE_WEAPONS: tuple[tuple[str, str], ...] = (
    ("hand", "Sword, axe or other hand weapon"),
    ("pike", "Pike"),
    ("none", "Weaponless"),
)


@dataclass(frozen=True)
class EffectRow:
    """One row of an effects table: the smallest winning difference it covers and its result.

    The last row of a table covers its difference and every larger one. A row with `hits`
    takes one wound at its own difference and one more for each point above it.
    """

    diff: int
    key: str
    label: str
    shaken: bool = False
    hits: bool = False
    disarmed: bool = False
    prone: bool = False
    pushed_back: bool = False


SHOOTING_EFFECTS: tuple[EffectRow, ...] = (
    EffectRow(0, "shaken", "Shaken", shaken=True),
    EffectRow(1, "cowered", "Cowered: goes prone for cover", prone=True),
    EffectRow(2, "hit", "Hit and shaken", shaken=True, hits=True),
    EffectRow(3, "multiple_hits", "Multiple hits and shaken", shaken=True, hits=True),
)

FIGHTING_EFFECTS: tuple[EffectRow, ...] = (
    EffectRow(0, "pushed_back", "Pushed back (higher rating wins a tie)", pushed_back=True),
    EffectRow(1, "shaken", "Shaken, pushed back", shaken=True, pushed_back=True),
    EffectRow(2, "disarmed", "Disarmed, pushed back", disarmed=True, pushed_back=True),
    EffectRow(3, "hit", "Hit and shaken, pushed back", shaken=True, hits=True, pushed_back=True),
    EffectRow(
        4,
        "multiple_hits",
        "Multiple hits and shaken, pushed back",
        shaken=True,
        hits=True,
        pushed_back=True,
    ),
)


def _check_contiguous(table: tuple[EffectRow, ...]) -> tuple[EffectRow, ...]:
    # Rows are looked up by position (a hot path), so row n must cover difference n.
    if any(row.diff != index for index, row in enumerate(table)):
        raise ValueError("effects table rows must cover differences 0, 1, 2 ... in order")
    return table


_check_contiguous(SHOOTING_EFFECTS)
_check_contiguous(FIGHTING_EFFECTS)
_FIRST_HIT = {
    id(table): min(row.diff for row in table if row.hits)
    for table in (SHOOTING_EFFECTS, FIGHTING_EFFECTS)
}


def effect_row(table: tuple[EffectRow, ...], diff: int) -> EffectRow:
    """Return the row a winning difference falls in."""
    return table[min(diff, len(table) - 1)]


def hits_for(table: tuple[EffectRow, ...], diff: int) -> int:
    """Return the wounds a winning difference inflicts (0 for rows without hits)."""
    if not effect_row(table, diff).hits:
        return 0
    return diff - _FIRST_HIT[id(table)] + 1


#: Ones in a marshal roll -> what happens (three or more: nobody moves).
MARSHAL_RESULTS: tuple[tuple[int, str, str], ...] = (
    (0, "all_move", "All move; the marshalled figures' turns end, the marshal acts on"),
    (1, "move_figure_ends", "All move, then every one of them ends its turn"),
    (2, "move_side_ends", "All move, and the side's turn is over"),
    (3, "no_move", "Nobody moves, and the side's turn is over"),
)

INITIATIVE: tuple[tuple[str, str], ...] = (
    ("keeps_initiative", "No 1 on any of the acting figure's dice: it may act again"),
    ("figure_ends", "A single 1: the figure's turn ends; act with another figure"),
    ("side_ends", "Two 1s in one roll, or the side's second 1 this turn: the side's turn ends"),
)

#: Replaces one active die with a passive die each, in a shot or a fight.
SHOOTING_PENALTIES = ("Shooter shaken (per marker)", "Target has cover")
FIGHTING_PENALTIES = (
    "Defender uphill",
    "Defender has cover",
    "Attacker weaponless",
    "Attacker shaken (per marker)",
)

IMPROVEMENT_DICE = {"rating": 6, "skill": 4}
MAX_RATING = 5


#: Where the text is ambiguous, Muster's reading, shown with the tables (docs/rules/escarmouche.md).
READINGS = (
    "Muster's reading: Shaken adds one passive die per marker to a move or a develop (the text "
    "gives Shaken a passive-dice penalty in all actions; those have no active die to replace).",
)


def tables(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return every reference table as JSON, including the house rules the options switch on."""
    data: dict[str, Any] = {
        "ratings": [{"rating": r, "type": label} for r, label in RATINGS],
        "skills": [
            {"skill": key, "label": label, "range": f"0-{MAX_SKILL}"} for key, label in SKILLS
        ],
        "wounds": _wounds_table(options),
        "initiative": [{"result": key, "meaning": text} for key, text in INITIATIVE],
        "move_terrain": [_row_json(row) for row in TERRAIN],
        "marshal": [
            {"ones": n, "result": key, "meaning": text} for n, key, text in MARSHAL_RESULTS
        ],
        "weapons": [_row_json(row) for row in WEAPONS],
        "shooting_penalties": list(SHOOTING_PENALTIES),
        "shooting_effects": [_effect_json(SHOOTING_EFFECTS, row) for row in SHOOTING_EFFECTS],
        "fighting_penalties": list(FIGHTING_PENALTIES),
        "fighting_effects": [_effect_json(FIGHTING_EFFECTS, row) for row in FIGHTING_EFFECTS],
        "readings": list(READINGS),
    }
    if options.get("house_campaign"):
        data["house_rules"] = _house_rules_table()
    return data


def _wounds_table(options: Mapping[str, Any]) -> dict[str, Any]:
    one = options.get("wounds_rule") == "one"
    return {
        "rule": "one" if one else "rating",
        "meaning": "every figure has 1 wound" if one else "wounds equal the rating",
    }


def _row_json(row: Row) -> dict[str, Any]:
    return {"key": row.key, "label": row.label, "passive_dice": row.passive}


def _effect_json(table: tuple[EffectRow, ...], row: EffectRow) -> dict[str, Any]:
    last = row is table[-1]
    data: dict[str, Any] = {
        "diff": f"{row.diff}+" if last else str(row.diff),
        "result": row.key,
        "label": row.label,
    }
    if row.hits:
        data["hits"] = f"difference - {_FIRST_HIT[id(table)] - 1}" if last else "1"
    return data


def _house_rules_table() -> dict[str, Any]:
    return {
        "label": "House rules (Muster's campaign rules adapted from Rencounter)",
        "improvement": [
            {
                "stat": "rating",
                "die": f"d{IMPROVEMENT_DICE['rating']}",
                "rule": f"roll over the rating to gain 1 (max {MAX_RATING}); once per battle",
            },
            {
                "stat": "skills",
                "die": f"d{IMPROVEMENT_DICE['skill']}",
                "rule": f"each skill of 1+ used in the battle: roll over it to gain 1 "
                f"(max {MAX_SKILL})",
            },
        ],
        "wound_aftermath": [
            {"d6": "1", "result": "sepsis: roll that wound again as two dice"},
            {"d6": "2", "result": "permanent wound"},
            {"d6": "3-6", "result": "healed after more than a month of campaign time"},
            {"d6": "-", "result": "more than 5 permanent from one battle: dies"},
        ],
        "aftermath_outcomes": list(AFTERMATH_OUTCOMES),
    }
