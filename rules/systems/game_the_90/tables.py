"""The numbers of "Game the 90%" as data: unit types, moves, modifiers, rally, dice."""

from __future__ import annotations

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

#: Movement class per unit type, and the inches a Fast move adds per class.
MOVE_CLASS = {"foot_knights": 1, "serjeants": 1, "bowmen": 1, "lights": 2, "knights": 3}
FAST_BONUS = {1: 3, 2: 6, 3: 9}
#: Turns allowed within one move: Lights turn at the start and the end, the rest once.
TURNS_PER_MOVE = {"lights": 2, "knights": 1, "foot_knights": 1, "serjeants": 1, "bowmen": 1}

#: Missiles a unit may carry, and their ranges in inches.
MISSILE_RANGE = {"bows": 18, "javelins": 6}
MISSILE_CHOICES = (("none", "None"), ("bows", "Bows"), ("javelins", "Javelins"))
MISSILES_ALLOWED = {"bowmen": ("bows",), "lights": ("javelins", "bows")}
SHOOTERS = tuple(MISSILES_ALLOWED)
#: A natural roll of one of these faces on a Hit roll empties the shooter's quiver.
OUT_OF_MISSILES_FACES = frozenset({5, 6})

SHOOTING_MODIFIER = {"lights": -2, "bowmen": 0}
MELEE_MODIFIER = {"knights": 2, "foot_knights": 0, "serjeants": 0, "bowmen": -2, "lights": -2}
#: Armour halves Hits in shooting and in melee.
ARMOURED = frozenset({"foot_knights"})
#: Defensive halvings never take Hits below a quarter; doublings then cancel halvings.
MAX_HALVINGS = 2

SHOOTING_TERRAIN = ("woods", "camp", "village", "walls")
MELEE_TERRAIN = ("uphill", "woods", "marsh", "village", "camp", "river bank", "ditch", "wall")
CONTACTS = (
    ("front", "Front"),
    ("corner", "Front corner on a flank (no bonus)"),
    ("flank", "Flank (full edge)"),
    ("rear", "Rear"),
)
DOUBLING_CONTACTS = frozenset({"flank", "rear"})

REMOVED_AT = 15
MAX_HITS = REMOVED_AT - 1
#: Rally: the die face removes this many Hits (the average die's faces fall in the same bands).
RALLY_BANDS = ((1, 2, 1), (3, 4, 2), (5, 6, 3))
#: A unit that has passed this many Hits never rallies below RALLY_FLOOR.
RALLY_FATIGUE_PAST = 10
RALLY_FLOOR = 5
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


def rally_hits_off(face: int) -> int:
    """Return the Hits a rally roll of `face` removes."""
    return next(off for low, high, off in RALLY_BANDS if low <= face <= high)


def reference_tables(options: dict[str, Any] | Any) -> dict[str, Any]:
    """Return every reference table as JSON, showing the campaign's die."""
    die = DICE[options.get("die", "d6")]
    return {
        "die": {"name": dict(DIE_CHOICES)[options.get("die", "d6")], "faces": list(die.faces)},
        "unit_types": [
            {
                "type": key,
                "name": name,
                "move_class": MOVE_CLASS[key],
                "fast_bonus_inches": FAST_BONUS[MOVE_CLASS[key]],
                "turns": TURNS_PER_MOVE[key],
                "melee_modifier": MELEE_MODIFIER[key],
                "armoured": key in ARMOURED,
                "missiles": list(MISSILES_ALLOWED.get(key, ())),
            }
            for key, name in UNIT_TYPES
        ],
        "shooting": {
            "roll": f"{die.name} Hits",
            "ranges": MISSILE_RANGE,
            "modifiers": {"Lights shooting": -2},
            "halve": ["target defending " + ", ".join(SHOOTING_TERRAIN), "Foot Knights"],
            "double": ["shooter in the target's rear arc"],
            "out_of_missiles_on": sorted(OUT_OF_MISSILES_FACES),
        },
        "melee": {
            "roll": f"{die.name} Hits",
            "modifiers": {"Knights": 2, "Lights": -2, "Bowmen": -2},
            # One entry: uphill and defending terrain are one modifier (3.2b), halving once.
            "halve": [
                "target " + ", ".join(MELEE_TERRAIN) + " (once, even when both)",
                "Foot Knights",
            ],
            "double": ["attacking a flank (full edge contact) or the rear"],
        },
        "stacking": {
            "max_defensive_halvings": MAX_HALVINGS,
            "minimum_factor": "1/4",
            "rounding": "up",
            "a doubling cancels a halving": True,
        },
        "removal": {"removed_at_hits": REMOVED_AT},
        "rally": {
            "bands": [{"faces": f"{lo}-{hi}", "hits_off": off} for lo, hi, off in RALLY_BANDS],
            "faces_of_this_die": {str(f): rally_hits_off(f) for f in sorted(set(die.faces))},
            "floor": {"once_past_hits": RALLY_FATIGUE_PAST, "never_below": RALLY_FLOOR},
        },
        "turn": {"players": ["A (attacker)", "D (defender)"], "phases": list(PHASES)},
        "terrain": [{"terrain": t, "kind": k, "effect": e} for t, k, e in TERRAIN],
    }
