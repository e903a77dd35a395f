"""Checks of "Game the 90%": shoot, melee, move, charge, rally.

Each check takes the campaign's die as a `die` parameter (D6 or the average die), so the
option changes both the dice drawn and the odds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.checks import Check, Effect, Outcome
from rules.dice import Dice
from rules.schema import Field, Schema
from rules.systems.game_the_90.tables import (
    ARMOURED,
    CONTACTS,
    DICE,
    DIE_CHOICES,
    DOUBLING_CONTACTS,
    FAST_BONUS,
    MAX_HALVINGS,
    MAX_HITS,
    MELEE_MODIFIER,
    MOVE_CLASS,
    OUT_OF_MISSILES_FACES,
    RALLY_FATIGUE_PAST,
    RALLY_FLOOR,
    REMOVED_AT,
    SHOOTERS,
    SHOOTING_MODIFIER,
    UNIT_TYPES,
    rally_hits_off,
)

MAX_SHOOTING_HITS = 12  # a 6 doubled
MAX_MELEE_HITS = 16  # Knights' 6 + 2, doubled
MAX_MOVE = 6 + max(FAST_BONUS.values())
MAX_RALLY = 3


def stacked_hits(raw: int, halvings: int, doublings: int) -> int:
    """Apply halvings (at most two count) and doublings to `raw` Hits, rounding up."""
    if raw <= 0:
        return 0
    exponent = doublings - min(halvings, MAX_HALVINGS)
    if exponent >= 0:
        return raw << exponent
    return -(-raw // (1 << -exponent))


def _die_field() -> Field:
    return Field(
        "die", "choice", "Die", "d6", choices=DIE_CHOICES, help="The campaign's die for every roll"
    )


def _target_fields() -> tuple[Field, ...]:
    return (
        Field("target", "choice", "Target type", "serjeants", choices=UNIT_TYPES),
        Field("defending_terrain", "bool", "Target defending terrain", False),
        Field(
            "target_hits",
            "int",
            "Target's Hits before",
            0,
            min=0,
            max=MAX_HITS,
            help=f"To mark the target removed at {REMOVED_AT}+",
        ),
    )


def _hit_effects(params: Mapping[str, Any], hits: int) -> tuple[Effect, ...]:
    effects = [Effect("target", "hits", "add", hits, f"{hits} Hits")]
    total = params["target_hits"] + hits
    if total > RALLY_FATIGUE_PAST >= params["target_hits"]:
        effects.append(Effect("target", "passed_ten", "set", True, "past ten Hits"))
    if total >= REMOVED_AT:
        effects.append(Effect("target", "status", "set", "removed", f"{total} Hits"))
    return tuple(effects)


# --- shoot -------------------------------------------------------------------------------

SHOOT_OUTCOMES = tuple(
    f"hits_{n}{suffix}" for suffix in ("", "_out_of_missiles") for n in range(MAX_SHOOTING_HITS + 1)
)
SHOOT_PARAMS = Schema(
    (
        _die_field(),
        Field(
            "shooter",
            "choice",
            "Shooter",
            "bowmen",
            choices=tuple(c for c in UNIT_TYPES if c[0] in SHOOTERS),
        ),
        *_target_fields(),
        Field("rear", "bool", "Shooting into the rear arc", False),
    )
)


def _shoot_result(params: Mapping[str, Any], face: int) -> tuple[int, bool]:
    raw = face + SHOOTING_MODIFIER[params["shooter"]]
    halvings = int(params["defending_terrain"]) + int(params["target"] in ARMOURED)
    return stacked_hits(raw, halvings, int(params["rear"])), face in OUT_OF_MISSILES_FACES


def _shoot_key(hits: int, runs_out: bool) -> str:
    return f"hits_{hits}_out_of_missiles" if runs_out else f"hits_{hits}"


def resolve_shoot(params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(DICE[params["die"]], "hits")
    hits, runs_out = _shoot_result(params, face)
    effects = _hit_effects(params, hits)
    if runs_out:
        effects += (Effect("actor", "out_of_missiles", "set", True, f"natural {face}"),)
    details = {
        "roll": face,
        "hits": hits,
        "out_of_missiles": runs_out,
        "removed": params["target_hits"] + hits >= REMOVED_AT,
    }
    return Outcome(_shoot_key(hits, runs_out), details, effects)


# --- melee -------------------------------------------------------------------------------

MELEE_OUTCOMES = tuple(f"hits_{n}" for n in range(MAX_MELEE_HITS + 1))
MELEE_PARAMS = Schema(
    (
        _die_field(),
        Field("attacker", "choice", "Attacker type", "serjeants", choices=UNIT_TYPES),
        *_target_fields(),
        Field("uphill", "bool", "Target uphill of the attacker", False),
        Field("contact", "choice", "Attacker's contact", "front", choices=CONTACTS),
    )
)


def _melee_hits(params: Mapping[str, Any], face: int) -> int:
    raw = face + MELEE_MODIFIER[params["attacker"]]
    # 3.2b is one modifier ("uphill, or defending woods / marsh / ...: halve"): a unit both
    # uphill and in a wood halves once for the pair, as `tables` lists them in one entry.
    ground = params["uphill"] or params["defending_terrain"]
    halvings = int(ground) + int(params["target"] in ARMOURED)
    return stacked_hits(raw, halvings, int(params["contact"] in DOUBLING_CONTACTS))


def resolve_melee(params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(DICE[params["die"]], "hits")
    hits = _melee_hits(params, face)
    details = {"roll": face, "hits": hits, "removed": params["target_hits"] + hits >= REMOVED_AT}
    return Outcome(f"hits_{hits}", details, _hit_effects(params, hits))


# --- move and charge ---------------------------------------------------------------------

MOVE_OUTCOMES = tuple(f"inches_{n}" for n in range(1, MAX_MOVE + 1))
_MOVE_FIELDS = (
    _die_field(),
    Field("unit", "choice", "Unit type", "serjeants", choices=UNIT_TYPES),
    Field(
        "fast",
        "bool",
        "Fast move",
        False,
        help="Only when no enemy is within a base depth at the start of the phase",
    ),
)
MOVE_PARAMS = Schema(_MOVE_FIELDS)
CHARGE_PARAMS = Schema(
    (*_MOVE_FIELDS, Field("distance", "int", "Inches to contact", 6, min=0, max=MAX_MOVE + 1))
)


def move_inches(params: Mapping[str, Any], face: int) -> int:
    """Return the inches a move of `face` allows, with the class's Fast bonus."""
    bonus = FAST_BONUS[MOVE_CLASS[params["unit"]]] if params["fast"] else 0
    return face + bonus


def resolve_move(params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(DICE[params["die"]], "move")
    inches = move_inches(params, face)
    return Outcome(f"inches_{inches}", {"roll": face, "inches": inches})


def _charge_key(params: Mapping[str, Any], face: int) -> str:
    return "reaches" if move_inches(params, face) >= params["distance"] else "falls_short"


def resolve_charge(params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(DICE[params["die"]], "move")
    details = {"roll": face, "inches": move_inches(params, face), "needed": params["distance"]}
    return Outcome(_charge_key(params, face), details)


# --- rally -------------------------------------------------------------------------------

RALLY_OUTCOMES = tuple(f"hits_off_{n}" for n in range(MAX_RALLY + 1))
RALLY_PARAMS = Schema(
    (
        _die_field(),
        Field("hits", "int", "Hits now", 3, min=0, max=MAX_HITS),
        Field(
            "passed_ten",
            "bool",
            "Has passed ten Hits",
            False,
            help=f"Once past {RALLY_FATIGUE_PAST} Hits a unit never rallies below {RALLY_FLOOR}",
        ),
    )
)


def rallied_off(params: Mapping[str, Any], face: int) -> int:
    """Return the Hits a rally of `face` removes, respecting the fatigue floor."""
    hits: int = params["hits"]
    floor = RALLY_FLOOR if params["passed_ten"] or hits > RALLY_FATIGUE_PAST else 0
    return max(0, min(rally_hits_off(face), hits - floor))


def resolve_rally(params: Mapping[str, Any], dice: Dice) -> Outcome:
    face = dice.roll(DICE[params["die"]], "rally")
    off = rallied_off(params, face)
    effects = (Effect("actor", "hits", "add", -off, f"rallied off {off}"),) if off else ()
    return Outcome(f"hits_off_{off}", {"roll": face, "hits_off": off}, effects)


# --- odds --------------------------------------------------------------------------------


def _face_odds(params: Mapping[str, Any], classify: Callable[[int], str]) -> dict[str, Fraction]:
    faces = DICE[params["die"]].faces
    odds: dict[str, Fraction] = {}
    for face in faces:
        key = classify(face)
        odds[key] = odds.get(key, Fraction(0)) + Fraction(1, len(faces))
    return odds


def _cached(
    classify: Callable[[Mapping[str, Any], int], str],
) -> Callable[[Mapping[str, Any]], dict[str, Fraction]]:
    @lru_cache(maxsize=4096)
    def by_items(items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
        params = dict(items)
        return _face_odds(params, lambda face: classify(params, face))

    def odds(params: Mapping[str, Any]) -> dict[str, Fraction]:
        return dict(by_items(tuple(sorted(params.items()))))

    return odds


shoot_odds = _cached(lambda p, f: _shoot_key(*_shoot_result(p, f)))
melee_odds = _cached(lambda p, f: f"hits_{_melee_hits(p, f)}")
move_odds = _cached(lambda p, f: f"inches_{move_inches(p, f)}")
charge_odds = _cached(_charge_key)
rally_odds = _cached(lambda p, f: f"hits_off_{rallied_off(p, f)}")

ONE_DIE = "one die (the campaign's D6 or average die)"
CHECKS: dict[str, Check] = {
    "shoot": Check(
        "shoot",
        "Shooting",
        SHOOT_PARAMS,
        SHOOT_OUTCOMES,
        resolve_shoot,
        shoot_odds,
        "Dx Hits on the target; Lights -2; terrain and Foot Knights halve, the rear "
        "doubles (at most 1/4, rounded up); a natural 5 or 6 runs out of missiles",
        ONE_DIE + ": the Hit roll",
    ),
    "melee": Check(
        "melee",
        "Melee",
        MELEE_PARAMS,
        MELEE_OUTCOMES,
        resolve_melee,
        melee_odds,
        "Dx Hits on the target; Knights +2, Lights and Bowmen -2; uphill, terrain "
        "and Foot Knights halve, flank or rear doubles (at most 1/4, rounded up)",
        ONE_DIE + ": the Hit roll",
    ),
    "move": Check(
        "move",
        "Move",
        MOVE_PARAMS,
        MOVE_OUTCOMES,
        resolve_move,
        move_odds,
        "Dx inches, plus 3/6/9 for a Fast move by class 1/2/3",
        ONE_DIE,
    ),
    "charge": Check(
        "charge",
        "Charge reach",
        CHARGE_PARAMS,
        ("reaches", "falls_short"),
        resolve_charge,
        charge_odds,
        "Does the move roll cover the distance to contact?",
        ONE_DIE,
    ),
    "rally": Check(
        "rally",
        "Rally",
        RALLY_PARAMS,
        RALLY_OUTCOMES,
        resolve_rally,
        rally_odds,
        "Dx: 1-2 one Hit off, 3-4 two, 5-6 three; never below five once past ten",
        ONE_DIE,
    ),
}
