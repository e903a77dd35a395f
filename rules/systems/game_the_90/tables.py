"""The numbers of "Game the 90%" as data: unit types, moves, modifiers, rally, dice.

The numbers a club may change by house rule (see `house.py`) are not module attributes: they
are the fields of one frozen snapshot, `G90Tables`, whose values as written are `BASE`. Checks,
sheets, labels and the auto-resolver are built from a snapshot (`RuleSystem.with_house` builds
a club's with `dataclasses.replace`); `in_play(tables)` gathers what a roll reads into one
object, once per snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.dice import AVERAGE_DIE, D6, Die

#: Unit types in the order the text lists them, with their display names.
UNIT_TYPES: tuple[tuple[str, str], ...] = (
    ("knights", "Knights"),
    ("foot_knights", "Foot Knights"),
    ("serjeants", "Serjeants"),
    ("bowmen", "Bowmen"),
    ("lights", "Lights"),
)
UNIT_NAMES = dict(UNIT_TYPES)
#: The die every roll of a game uses; the campaign picks one for all rolls.
DICE: dict[str, Die] = {"d6": D6, "avg": AVERAGE_DIE}
DIE_CHOICES = (("d6", "D6 (1-6)"), ("avg", "Average die (2,3,3,4,4,5)"))
#: Every face either die shows: the rally bands cover them all, once each.
DIE_FACES = tuple(range(1, 7))
HIGHEST_FACE = DIE_FACES[-1]

#: Missiles a unit may carry.
MISSILE_CHOICES = (("none", "None"), ("bows", "Bows"), ("javelins", "Javelins"))
MISSILES_ALLOWED = {"bowmen": ("bows",), "lights": ("javelins", "bows")}
SHOOTERS = tuple(MISSILES_ALLOWED)

#: Defensive halvings never take Hits below a quarter; doublings then cancel halvings.
MAX_HALVINGS = 2
#: The most Hits one shooting or melee roll can deal, and the longest move: each check's
#: outcomes name every count up to these, so a house rule may not raise a roll beyond them.
MAX_SHOOTING_HITS = 12  # a 6 doubled
MAX_MELEE_HITS = 16  # Knights' 6 + 2, doubled
MAX_FAST_BONUS = 9
MAX_MOVE = HIGHEST_FACE + MAX_FAST_BONUS
MAX_RALLY = 3
#: So the best modifiers a house rule may give: one doubling of the highest face stays in range.
BEST_SHOOTING_MODIFIER = MAX_SHOOTING_HITS // 2 - HIGHEST_FACE
BEST_MELEE_MODIFIER = MAX_MELEE_HITS // 2 - HIGHEST_FACE

SHOOTING_TERRAIN = ("woods", "camp", "village", "walls")
MELEE_TERRAIN = ("uphill", "woods", "marsh", "village", "camp", "river bank", "ditch", "wall")
CONTACTS = (
    ("front", "Front"),
    ("corner", "Front corner on a flank (no bonus)"),
    ("flank", "Flank (full edge)"),
    ("rear", "Rear"),
)
DOUBLING_CONTACTS = frozenset({"flank", "rear"})
#: The order the text gives the melee modifiers in (the reference lists them so).
MELEE_MODIFIER_ORDER = ("knights", "lights", "bowmen", "foot_knights", "serjeants")

PHASES = ("shoot", "move", "melee", "rally")
TERRAIN = (
    ("Hills", "area", "defensive bonus when uphill of the melee opponent"),
    ("Woods, Marsh", "area", "Lights only; defensive bonus"),
    ("Camp, Village", "area", "defensive bonus"),
    ("Lakes, Rivers", "area", "impassable"),
    ("Cliffs", "linear", "impassable"),
    ("Walls, Ditch, Ford", "linear", "defensive bonus"),
    ("Roads", "linear", "cancels terrain restrictions"),
)
_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


def rally_bands_by_face(bands: tuple[tuple[int, int, int], ...]) -> dict[int, int]:
    """Return the Hits a rally removes for each face, from (low, high, Hits off) bands."""
    return {face: off for low, high, off in bands for face in range(low, high + 1)}


_RALLY_BANDS = ((1, 2, 1), (3, 4, 2), (5, 6, 3))
_REMOVED_AT = 15

#: The text's values of every number a house rule may change: the fields of `BASE`.
_EDITABLE: dict[str, Any] = {
    #: Movement class per unit type, and the inches a Fast move adds per class.
    "MOVE_CLASS": {"knights": 3, "foot_knights": 1, "serjeants": 1, "bowmen": 1, "lights": 2},
    "FAST_BONUS": {1: 3, 2: 6, 3: 9},
    #: Turns allowed within one move: Lights turn at the start and the end, the rest once.
    "TURNS_PER_MOVE": {"knights": 1, "foot_knights": 1, "serjeants": 1, "bowmen": 1, "lights": 2},
    #: Missiles' ranges in inches.
    "MISSILE_RANGE": {"bows": 18, "javelins": 6},
    #: A natural roll of one of these faces on a Hit roll empties the shooter's quiver.
    "OUT_OF_MISSILES_FACES": frozenset({5, 6}),
    "SHOOTING_MODIFIER": {"bowmen": 0, "lights": -2},
    "MELEE_MODIFIER": {
        "knights": 2,
        "foot_knights": 0,
        "serjeants": 0,
        "bowmen": -2,
        "lights": -2,
    },
    #: Armour halves Hits in shooting and in melee.
    "ARMOURED": frozenset({"foot_knights"}),
    "REMOVED_AT": _REMOVED_AT,
    "MAX_HITS": _REMOVED_AT - 1,
    #: Rally: the die face removes this many Hits (the average die's faces fall in the same bands).
    "RALLY_BANDS": _RALLY_BANDS,
    "RALLY_OFF": rally_bands_by_face(_RALLY_BANDS),
    #: A unit that has passed this many Hits never rallies below RALLY_FLOOR.
    "RALLY_FATIGUE_PAST": 10,
    "RALLY_FLOOR": 5,
}


@dataclass(frozen=True, eq=False)
class G90Tables:
    """Every number a club may change, as one snapshot. Compared and hashed by identity: a
    snapshot is built once per pack, so caches of work done with it key on it."""

    MOVE_CLASS: dict[str, int]
    FAST_BONUS: dict[int, int]
    TURNS_PER_MOVE: dict[str, int]
    MISSILE_RANGE: dict[str, int]
    OUT_OF_MISSILES_FACES: frozenset[int]
    SHOOTING_MODIFIER: dict[str, int]
    MELEE_MODIFIER: dict[str, int]
    ARMOURED: frozenset[str]
    REMOVED_AT: int
    MAX_HITS: int
    RALLY_BANDS: tuple[tuple[int, int, int], ...]
    RALLY_OFF: dict[int, int]
    RALLY_FATIGUE_PAST: int
    RALLY_FLOOR: int


#: The numbers as the text has them.
BASE = G90Tables(**_EDITABLE)


@dataclass(frozen=True, slots=True)
class InPlay:
    """What the checks read from a snapshot, gathered once per snapshot."""

    shooting_modifier: Mapping[str, int]
    melee_modifier: Mapping[str, int]
    armoured: frozenset[str]
    out_of_missiles_faces: frozenset[int]
    fast_bonus: Mapping[str, int]  # by unit type: its class's Fast move bonus
    rally_off: Mapping[int, int]
    removed_at: int
    fatigue_past: int
    floor: int


@lru_cache(maxsize=64)
def in_play(tables: G90Tables) -> InPlay:
    """The numbers the checks read from `tables`, gathered once per snapshot."""
    move_class, fast_bonus = tables.MOVE_CLASS, tables.FAST_BONUS
    return InPlay(
        shooting_modifier=tables.SHOOTING_MODIFIER,
        melee_modifier=tables.MELEE_MODIFIER,
        armoured=tables.ARMOURED,
        out_of_missiles_faces=tables.OUT_OF_MISSILES_FACES,
        fast_bonus={unit: fast_bonus[move_class[unit]] for unit, _ in UNIT_TYPES},
        rally_off=tables.RALLY_OFF,
        removed_at=tables.REMOVED_AT,
        fatigue_past=tables.RALLY_FATIGUE_PAST,
        floor=tables.RALLY_FLOOR,
    )


def number_word(count: int) -> str:
    """Return a small count in words as the text writes it ("ten"), a large one in figures."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def faces_text(faces: frozenset[int]) -> str:
    """Return die faces as "5 or 6"."""
    shown = [str(face) for face in sorted(faces)]
    return ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else "".join(shown)


def faces_band(low: int, high: int) -> str:
    """Return a band of faces as "3-4" (one face alone as "3")."""
    return f"{low}-{high}" if low != high else str(low)


def rally_hits_off(tables: G90Tables, face: int) -> int:
    """Return the Hits a rally roll of `face` removes."""
    off: int = tables.RALLY_OFF[face]
    return off


def armoured_names(tables: G90Tables) -> list[str]:
    """Return the display names of the armoured unit types, in the text's order."""
    armoured = tables.ARMOURED
    return [name for key, name in UNIT_TYPES if key in armoured]


def _melee_modifiers(tables: G90Tables) -> dict[str, int]:
    modifiers = tables.MELEE_MODIFIER
    return {UNIT_NAMES[k]: modifiers[k] for k in MELEE_MODIFIER_ORDER if modifiers[k]}


def _shooting_modifiers(tables: G90Tables) -> dict[str, int]:
    modifiers = tables.SHOOTING_MODIFIER
    return {f"{UNIT_NAMES[k]} shooting": modifiers[k] for k in SHOOTERS if modifiers[k]}


def _unit_type(tables: G90Tables, key: str, name: str) -> dict[str, Any]:
    move_class = tables.MOVE_CLASS[key]
    return {
        "type": key,
        "name": name,
        "move_class": move_class,
        "fast_bonus_inches": tables.FAST_BONUS[move_class],
        "turns": tables.TURNS_PER_MOVE[key],
        "melee_modifier": tables.MELEE_MODIFIER[key],
        "armoured": key in tables.ARMOURED,
        "missiles": list(MISSILES_ALLOWED.get(key, ())),
    }


def reference_tables(options: dict[str, Any] | Any, *, tables: G90Tables = BASE) -> dict[str, Any]:
    """Return every reference table as JSON, showing the campaign's die, from `tables` (the
    text's; a club's under its house rules, bound by `RuleSystem.with_house`)."""
    die = DICE[options.get("die", "d6")]
    armoured = armoured_names(tables)
    return {
        "die": {"name": dict(DIE_CHOICES)[options.get("die", "d6")], "faces": list(die.faces)},
        "unit_types": [_unit_type(tables, key, name) for key, name in UNIT_TYPES],
        "shooting": {
            "roll": f"{die.name} Hits",
            "ranges": dict(tables.MISSILE_RANGE),
            "modifiers": _shooting_modifiers(tables),
            "halve": ["target defending " + ", ".join(SHOOTING_TERRAIN), *armoured],
            "double": ["shooter in the target's rear arc"],
            "out_of_missiles_on": sorted(tables.OUT_OF_MISSILES_FACES),
        },
        "melee": {
            "roll": f"{die.name} Hits",
            "modifiers": _melee_modifiers(tables),
            # One entry: uphill and defending terrain are one modifier (3.2b), halving once.
            "halve": [
                "target " + ", ".join(MELEE_TERRAIN) + " (once, even when both)",
                *armoured,
            ],
            "double": ["attacking a flank (full edge contact) or the rear"],
        },
        "stacking": {
            "max_defensive_halvings": MAX_HALVINGS,
            "minimum_factor": "1/4",
            "rounding": "up",
            "a doubling cancels a halving": True,
        },
        "removal": {"removed_at_hits": tables.REMOVED_AT},
        "rally": {
            "bands": [
                {"faces": faces_band(lo, hi), "hits_off": off} for lo, hi, off in tables.RALLY_BANDS
            ],
            "faces_of_this_die": {
                str(f): rally_hits_off(tables, f) for f in sorted(set(die.faces))
            },
            "floor": {
                "once_past_hits": tables.RALLY_FATIGUE_PAST,
                "never_below": tables.RALLY_FLOOR,
            },
        },
        "turn": {"players": ["A (attacker)", "D (defender)"], "phases": list(PHASES)},
        "terrain": [{"terrain": t, "kind": k, "effect": e} for t, k, e in TERRAIN],
    }
