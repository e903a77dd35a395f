"""Checks of "Game the 90%": shoot, melee, move, charge, rally.

Each check takes the campaign's die as a `die` parameter (D6 or the average die), so the
option changes both the dice drawn and the odds. The numbers come from a tables snapshot
(`G90Tables`): `build_checks(tables)` binds it into every check, which reads what it needs
through `in_play(tables)` (cached per snapshot), so a house-rules pack reaches every roll, every
odds table, and what the parameter schemas and descriptions say about those numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

from rules.checks import (
    JUDGED,
    Check,
    Effect,
    FromActor,
    FromState,
    FromTarget,
    Outcome,
    Roller,
    Source,
    by_face,
    declare,
    face_odds,
    odds_key,
    resolved_by,
)
from rules.schema import Field, Schema
from rules.systems.game_the_90 import tables as t
from rules.systems.game_the_90.tables import (
    CONTACTS,
    DICE,
    DIE_CHOICES,
    DOUBLING_CONTACTS,
    MAX_HALVINGS,
    MAX_MELEE_HITS,
    MAX_MOVE,
    MAX_RALLY,
    MAX_SHOOTING_HITS,
    SHOOTERS,
    UNIT_TYPES,
    InPlay,
    in_play,
)


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


def _target_fields(tables: t.G90Tables) -> tuple[Field, ...]:
    return (
        Field("target", "choice", "Target type", "serjeants", choices=UNIT_TYPES),
        Field("defending_terrain", "bool", "Target defending terrain", False),
        Field(
            "target_hits",
            "int",
            "Target's Hits before",
            0,
            min=0,
            max=tables.MAX_HITS,
            help=f"To mark the target removed at {tables.REMOVED_AT}+",
        ),
    )


def _hit_effects(params: Mapping[str, Any], hits: int, now: InPlay) -> tuple[Effect, ...]:
    effects = [Effect("target", "hits", "add", hits, f"{hits} Hits")]
    total = params["target_hits"] + hits
    if total > now.fatigue_past >= params["target_hits"]:
        past = f"past {t.number_word(now.fatigue_past)} Hits"
        effects.append(Effect("target", "passed_ten", "set", True, past))
    if total >= now.removed_at:
        effects.append(Effect("target", "status", "set", "removed", f"{total} Hits"))
    return tuple(effects)


def _listed(words: list[str]) -> str:
    """Return words as "a, b and c"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _halvers(tables: t.G90Tables, situations: list[str]) -> str:
    halvers = [*situations, *t.armoured_names(tables)]
    return f"{_listed(halvers)} halve{'s' if len(halvers) == 1 else ''}"


def _modifiers(modifiers: Mapping[str, int], order: tuple[str, ...]) -> str:
    """Return modifiers as "Knights +2, Lights and Bowmen -2", grouped by value."""
    groups: dict[int, list[str]] = {}
    for key in order:
        if modifiers[key]:
            groups.setdefault(modifiers[key], []).append(t.UNIT_NAMES[key])
    return ", ".join(f"{_listed(names)} {value:+d}" for value, names in groups.items())


# --- shoot -------------------------------------------------------------------------------

SHOOT_OUTCOMES = tuple(
    f"hits_{n}{suffix}" for suffix in ("", "_out_of_missiles") for n in range(MAX_SHOOTING_HITS + 1)
)


def _shoot_params(tables: t.G90Tables) -> Schema:
    return Schema(
        (
            _die_field(),
            Field(
                "shooter",
                "choice",
                "Shooter",
                "bowmen",
                choices=tuple(c for c in UNIT_TYPES if c[0] in SHOOTERS),
            ),
            *_target_fields(tables),
            Field("rear", "bool", "Shooting into the rear arc", False),
        )
    )


def _shoot_description(tables: t.G90Tables) -> str:
    modifiers = _modifiers(tables.SHOOTING_MODIFIER, SHOOTERS)
    faces = tables.OUT_OF_MISSILES_FACES
    running_out = (
        f"a natural {t.faces_text(faces)} runs out of missiles"
        if faces
        else "missiles never run out"
    )
    return (
        "Dx Hits on the target; "
        + (f"{modifiers}; " if modifiers else "")
        + _halvers(tables, ["terrain"])
        + f", the rear doubles (at most 1/4, rounded up); {running_out}"
    )


def _shoot_result(params: Mapping[str, Any], face: int, now: InPlay) -> tuple[int, bool]:
    raw = face + now.shooting_modifier[params["shooter"]]
    halvings = int(params["defending_terrain"]) + int(params["target"] in now.armoured)
    return stacked_hits(raw, halvings, int(params["rear"])), face in now.out_of_missiles_faces


def _shoot_key(hits: int, runs_out: bool) -> str:
    return f"hits_{hits}_out_of_missiles" if runs_out else f"hits_{hits}"


def _shoot_outcome(params: Mapping[str, Any], now: InPlay, face: int) -> Outcome:
    hits, runs_out = _shoot_result(params, face, now)
    effects = _hit_effects(params, hits, now)
    if runs_out:
        effects += (Effect("actor", "out_of_missiles", "set", True, f"natural {face}"),)
    details = {
        "roll": face,
        "hits": hits,
        "out_of_missiles": runs_out,
        "removed": params["target_hits"] + hits >= now.removed_at,
    }
    return Outcome(_shoot_key(hits, runs_out), details, effects)


def prepare_shoot(tables: t.G90Tables, params: Mapping[str, Any]) -> Roller:
    """The shot's result for every face of the die, worked out once for these parameters."""
    outcome = partial(_shoot_outcome, params, in_play(tables))
    return by_face(DICE[params["die"]], "hits", outcome)


# --- melee -------------------------------------------------------------------------------

MELEE_OUTCOMES = tuple(f"hits_{n}" for n in range(MAX_MELEE_HITS + 1))


def _melee_params(tables: t.G90Tables) -> Schema:
    return Schema(
        (
            _die_field(),
            Field("attacker", "choice", "Attacker type", "serjeants", choices=UNIT_TYPES),
            *_target_fields(tables),
            Field("uphill", "bool", "Target uphill of the attacker", False),
            Field("contact", "choice", "Attacker's contact", "front", choices=CONTACTS),
        )
    )


def _melee_description(tables: t.G90Tables) -> str:
    modifiers = _modifiers(tables.MELEE_MODIFIER, t.MELEE_MODIFIER_ORDER)
    return (
        "Dx Hits on the target; "
        + (f"{modifiers}; " if modifiers else "")
        + _halvers(tables, ["uphill", "terrain"])
        + ", flank or rear doubles (at most 1/4, rounded up)"
    )


def _melee_hits(params: Mapping[str, Any], face: int, now: InPlay) -> int:
    raw = face + now.melee_modifier[params["attacker"]]
    # 3.2b is one modifier ("uphill, or defending woods / marsh / ...: halve"): a unit both
    # uphill and in a wood halves once for the pair, as `tables` lists them in one entry.
    ground = params["uphill"] or params["defending_terrain"]
    halvings = int(ground) + int(params["target"] in now.armoured)
    return stacked_hits(raw, halvings, int(params["contact"] in DOUBLING_CONTACTS))


def _melee_outcome(params: Mapping[str, Any], now: InPlay, face: int) -> Outcome:
    hits = _melee_hits(params, face, now)
    details = {
        "roll": face,
        "hits": hits,
        "removed": params["target_hits"] + hits >= now.removed_at,
    }
    return Outcome(f"hits_{hits}", details, _hit_effects(params, hits, now))


def prepare_melee(tables: t.G90Tables, params: Mapping[str, Any]) -> Roller:
    """The blow's result for every face of the die, worked out once for these parameters."""
    outcome = partial(_melee_outcome, params, in_play(tables))
    return by_face(DICE[params["die"]], "hits", outcome)


# --- move and charge ---------------------------------------------------------------------

MOVE_OUTCOMES = tuple(f"inches_{n}" for n in range(1, MAX_MOVE + 1))


def _move_fields() -> tuple[Field, ...]:
    return (
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


def _charge_params(tables: t.G90Tables) -> Schema:
    distance = Field("distance", "int", "Inches to contact", 6, min=0, max=MAX_MOVE + 1)
    return Schema((*_move_fields(), distance))


def _move_description(tables: t.G90Tables) -> str:
    bonuses = tables.FAST_BONUS
    inches = "/".join(str(bonuses[c]) for c in sorted(bonuses))
    classes = "/".join(str(c) for c in sorted(bonuses))
    return f"Dx inches, plus {inches} for a Fast move by class {classes}"


def move_inches(params: Mapping[str, Any], face: int, now: InPlay) -> int:
    """Return the inches a move of `face` allows, with the class's Fast bonus."""
    return face + now.fast_bonus[params["unit"]] if params["fast"] else face


def _move_outcome(params: Mapping[str, Any], now: InPlay, face: int) -> Outcome:
    inches = move_inches(params, face, now)
    return Outcome(f"inches_{inches}", {"roll": face, "inches": inches})


def prepare_move(tables: t.G90Tables, params: Mapping[str, Any]) -> Roller:
    """The move for every face of the die, worked out once for these parameters."""
    return by_face(DICE[params["die"]], "move", partial(_move_outcome, params, in_play(tables)))


def _charge_key(params: Mapping[str, Any], face: int, now: InPlay) -> str:
    return "reaches" if move_inches(params, face, now) >= params["distance"] else "falls_short"


def _charge_outcome(params: Mapping[str, Any], now: InPlay, face: int) -> Outcome:
    inches = move_inches(params, face, now)
    details = {"roll": face, "inches": inches, "needed": params["distance"]}
    return Outcome("reaches" if inches >= params["distance"] else "falls_short", details)


def prepare_charge(tables: t.G90Tables, params: Mapping[str, Any]) -> Roller:
    """The charge's reach for every face of the die, worked out once for these parameters."""
    return by_face(DICE[params["die"]], "move", partial(_charge_outcome, params, in_play(tables)))


# --- rally -------------------------------------------------------------------------------

RALLY_OUTCOMES = tuple(f"hits_off_{n}" for n in range(MAX_RALLY + 1))


def _rally_params(tables: t.G90Tables) -> Schema:
    past, floor = tables.RALLY_FATIGUE_PAST, tables.RALLY_FLOOR
    return Schema(
        (
            _die_field(),
            Field("hits", "int", "Hits now", 3, min=0, max=tables.MAX_HITS),
            Field(
                "passed_ten",
                "bool",
                f"Has passed {t.number_word(past)} Hits",
                False,
                help=f"Once past {past} Hits a unit never rallies below {floor}",
            ),
        )
    )


def _rally_description(tables: t.G90Tables) -> str:
    bands = [
        f"{t.faces_band(low, high)} {t.number_word(off)}" for low, high, off in tables.RALLY_BANDS
    ]
    first_off = tables.RALLY_BANDS[0][2]
    bands[0] += f" Hit{'' if first_off == 1 else 's'} off"
    floor = t.number_word(tables.RALLY_FLOOR)
    return (
        f"Dx: {', '.join(bands)}; never below {floor} once past "
        f"{t.number_word(tables.RALLY_FATIGUE_PAST)}"
    )


def rallied_off(params: Mapping[str, Any], face: int, now: InPlay) -> int:
    """Return the Hits a rally of `face` removes, respecting the fatigue floor."""
    hits: int = params["hits"]
    floor = now.floor if params["passed_ten"] or hits > now.fatigue_past else 0
    return max(0, min(now.rally_off[face], hits - floor))


def _rally_outcome(params: Mapping[str, Any], now: InPlay, face: int) -> Outcome:
    off = rallied_off(params, face, now)
    effects = (Effect("actor", "hits", "add", -off, f"rallied off {off}"),) if off else ()
    return Outcome(f"hits_off_{off}", {"roll": face, "hits_off": off}, effects)


def prepare_rally(tables: t.G90Tables, params: Mapping[str, Any]) -> Roller:
    """The rally for every face of the die, worked out once for these parameters."""
    return by_face(DICE[params["die"]], "rally", partial(_rally_outcome, params, in_play(tables)))


# --- odds --------------------------------------------------------------------------------

Classify = Callable[[Mapping[str, Any], int, InPlay], str]


def _cached(
    tables: t.G90Tables, classify: Classify
) -> Callable[[Mapping[str, Any]], dict[str, Fraction]]:
    # One cache per check built, so per tables snapshot: one club's odds never answer for
    # another's rules.
    @lru_cache(maxsize=4096)
    def by_items(items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
        params, now = dict(items), in_play(tables)
        return face_odds(DICE[params["die"]].faces, lambda face: classify(params, face, now))

    def odds(params: Mapping[str, Any]) -> dict[str, Fraction]:
        return dict(by_items(odds_key(params)))

    odds.cache_clear = by_items.cache_clear  # type: ignore[attr-defined]  # the wrapper offers its cache's clear, as lru_cache does
    return odds


def _shoot_face(params: Mapping[str, Any], face: int, now: InPlay) -> str:
    return _shoot_key(*_shoot_result(params, face, now))


def _melee_face(params: Mapping[str, Any], face: int, now: InPlay) -> str:
    return f"hits_{_melee_hits(params, face, now)}"


def _move_face(params: Mapping[str, Any], face: int, now: InPlay) -> str:
    return f"inches_{move_inches(params, face, now)}"


def _rally_face(params: Mapping[str, Any], face: int, now: InPlay) -> str:
    return f"hits_off_{rallied_off(params, face, now)}"


ONE_DIE = "one die (the campaign's D6 or average die)"


# --- where each parameter comes from (the table reads these, never a parameter's name) -----

#: The unit is the playing piece: its type and its Hits (battle state) feed every roll; the die
#: is the campaign's (the player's setting), terrain and facing are the table's.
SOURCES: dict[str, dict[str, Source]] = {
    "shoot": {
        "die": JUDGED,
        "shooter": FromActor("type"),
        "target": FromTarget("type"),
        "target_hits": FromState("hits", of="target"),
        "defending_terrain": JUDGED,
        "rear": JUDGED,
    },
    "melee": {
        "die": JUDGED,
        "attacker": FromActor("type"),
        "target": FromTarget("type"),
        "target_hits": FromState("hits", of="target"),
        "defending_terrain": JUDGED,
        "uphill": JUDGED,
        "contact": JUDGED,
    },
    "move": {"die": JUDGED, "unit": FromActor("type"), "fast": JUDGED},
    "charge": {"die": JUDGED, "unit": FromActor("type"), "fast": JUDGED, "distance": JUDGED},
    "rally": {
        "die": JUDGED,
        "hits": FromState("hits"),
        "passed_ten": FromState("passed_ten", default=False),
    },
}

#: Checks that concern the acting unit alone: no target to choose.
ALONE = frozenset({"move", "charge", "rally"})


def build_checks(tables: t.G90Tables) -> dict[str, Check]:
    """Return the checks, their parameters, descriptions, rolls and odds reading `tables`."""
    return declare(_built_checks(tables), SOURCES, ALONE)


def _check(
    tables: t.G90Tables,
    name: str,
    title: str,
    params: Schema,
    outcomes: tuple[str, ...],
    prepare: Callable[[t.G90Tables, Mapping[str, Any]], Roller],
    classify: Classify,
    description: str,
    dice_order: str,
) -> Check:
    preparer = partial(prepare, tables)  # bound to this snapshot, as is its resolver's memo
    return Check(
        name,
        title,
        params,
        outcomes,
        resolved_by(preparer),
        _cached(tables, classify),
        description,
        dice_order,
        preparer=preparer,
    )


def _built_checks(tables: t.G90Tables) -> dict[str, Check]:
    return {
        "shoot": _check(
            tables,
            "shoot",
            "Shooting",
            _shoot_params(tables),
            SHOOT_OUTCOMES,
            prepare_shoot,
            _shoot_face,
            _shoot_description(tables),
            ONE_DIE + ": the Hit roll",
        ),
        "melee": _check(
            tables,
            "melee",
            "Melee",
            _melee_params(tables),
            MELEE_OUTCOMES,
            prepare_melee,
            _melee_face,
            _melee_description(tables),
            ONE_DIE + ": the Hit roll",
        ),
        "move": _check(
            tables,
            "move",
            "Move",
            Schema(_move_fields()),
            MOVE_OUTCOMES,
            prepare_move,
            _move_face,
            _move_description(tables),
            ONE_DIE,
        ),
        "charge": _check(
            tables,
            "charge",
            "Charge reach",
            _charge_params(tables),
            ("reaches", "falls_short"),
            prepare_charge,
            _charge_key,
            "Does the move roll cover the distance to contact?",
            ONE_DIE,
        ),
        "rally": _check(
            tables,
            "rally",
            "Rally",
            _rally_params(tables),
            RALLY_OUTCOMES,
            prepare_rally,
            _rally_face,
            _rally_description(tables),
            ONE_DIE,
        ),
    }


CHECKS: dict[str, Check] = build_checks(t.BASE)
