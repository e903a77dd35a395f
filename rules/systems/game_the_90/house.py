""" "Game the 90%" house rules as data: the tables a club may edit, with their limits.

Unit types (move class, melee and shooting modifiers, armour, turns), missile ranges, the faces
that empty a quiver, the Fast move bonuses, the rally bands and the removal threshold with the
rally floor. Every check keeps its outcomes (a shooting roll deals at most 12 Hits, a melee 16,
a rally takes off at most 3, a move goes at most 15 inches), so the limits keep each edit
within them; the rows of each table are fixed, since the checks and the unit cards name them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from rules.house import (
    Column,
    HouseSpec,
    PackError,
    Probe,
    Row,
    by_key,
    editable,
    in_dict,
    in_set,
    keyed,
    scalars,
    tuples,
)
from rules.systems.game_the_90 import tables as t
from rules.systems.game_the_90.checks import build_checks
from rules.systems.game_the_90.stats import build_card, build_stats
from rules.systems.game_the_90.tables import (
    BEST_MELEE_MODIFIER,
    BEST_SHOOTING_MODIFIER,
    DIE_FACES,
    HIGHEST_FACE,
    MAX_FAST_BONUS,
    MAX_RALLY,
    SHOOTERS,
    UNIT_NAMES,
    UNIT_TYPES,
    rally_bands_by_face,
)

#: The system's editable tables, their rows read from the text's snapshot.
house_table = partial(editable, base=t.BASE)

#: The unit every probe fights or shoots at: plain foot with no modifier and no armour.
DEFENDER = "serjeants"
MOVE_CLASSES = (1, 2, 3)
#: The latest removal a pack may set: twice the text's 15, room for any house rule, while the
#: unit card, which draws a box for each Hit short of removal, keeps its track short.
MOST_REMOVED_AT = 30


# --- unit types --------------------------------------------------------------------------


def _validate_units(rows: list[Row]) -> None:
    # Which types carry missiles is the text's and stays: a shooter needs a modifier, others none.
    for index, row in enumerate(rows):
        name = UNIT_NAMES[row["key"]]
        if row["key"] in SHOOTERS and row["shooting_modifier"] is None:
            raise PackError(
                f"{name} carry missiles, so they need a shooting modifier (0 for none)",
                row=index,
                column="shooting_modifier",
            )
        if row["key"] not in SHOOTERS and row["shooting_modifier"] is not None:
            raise PackError(
                f"{name} carry no missiles: leave the shooting modifier empty",
                row=index,
                column="shooting_modifier",
            )


def _unit_probes(row: Row) -> list[Probe]:
    key, name = row["key"], UNIT_NAMES[row["key"]]
    defender = UNIT_NAMES[DEFENDER]
    probes = [
        Probe("melee", {"attacker": key, "target": DEFENDER}, f"{name} attack {defender}"),
        Probe("melee", {"attacker": DEFENDER, "target": key}, f"{defender} attack {name}"),
    ]
    if key in SHOOTERS:
        probes.append(
            Probe("shoot", {"shooter": key, "target": DEFENDER}, f"{name} shoot at {defender}")
        )
    probes.append(Probe("move", {"unit": key, "fast": True}, f"{name} Fast move"))
    return probes


UNIT_TYPES_TABLE = house_table(
    name="unit_types",
    title="Unit types",
    help="One row per unit type; the types are the text's (rows cannot be added or removed).",
    columns=(
        Column("key", "text", "Unit type", max=20),
        Column(
            "move_class",
            "choice",
            "Move class",
            choices=tuple((c, f"class {c}") for c in MOVE_CLASSES),
            help="The class's Fast move bonus is in the Fast move table",
        ),
        Column(
            "melee_modifier",
            "int",
            "Melee modifier",
            min=-HIGHEST_FACE,
            max=BEST_MELEE_MODIFIER,
            help=f"Added to the melee Hit roll; at most {BEST_MELEE_MODIFIER:+d}, so a doubled 6 "
            f"stays within the {t.MAX_MELEE_HITS} Hits a melee can deal",
        ),
        Column(
            "shooting_modifier",
            "int",
            "Shooting modifier",
            min=-HIGHEST_FACE,
            max=BEST_SHOOTING_MODIFIER,
            required=False,
            help="Added to the shooting Hit roll; empty for types that carry no missiles; at "
            f"most {BEST_SHOOTING_MODIFIER:+d}, so a doubled 6 stays within the "
            f"{t.MAX_SHOOTING_HITS} Hits a volley can deal",
        ),
        Column(
            "armoured", "bool", "Armoured", help="Hits on it from shooting and melee are halved"
        ),
        Column(
            "turns_per_move",
            "int",
            "Turns per move",
            min=0,
            max=4,
            help="How often the unit may Turn (rotate up to 180°) in one move",
            sheet_only="the player turns the unit as it moves; no check rolls for a Turn",
        ),
    ),
    layout=by_key(
        "key",
        UNIT_TYPES,
        in_dict("MOVE_CLASS", "move_class"),
        in_dict("MELEE_MODIFIER", "melee_modifier"),
        in_dict("SHOOTING_MODIFIER", "shooting_modifier", omit_empty=True),
        in_set("ARMOURED", "armoured"),
        in_dict("TURNS_PER_MOVE", "turns_per_move"),
    ),
    fixed_rows=True,
    validate=_validate_units,
    probes=_unit_probes,
)


# --- missiles ----------------------------------------------------------------------------


MISSILES_TABLE = house_table(
    name="missiles",
    title="Missile ranges",
    help="How far each kind of missile reaches, in inches (1 inch = 4 m).",
    columns=(
        Column("key", "text", "Missiles", max=20),
        Column(
            "range",
            "int",
            "Range (inches)",
            min=1,
            max=48,
            sheet_only="the player measures whether the target is in range",
        ),
    ),
    layout=keyed("MISSILE_RANGE", "range"),
    fixed_rows=True,
)


def _quiver_probes(row: Row) -> list[Probe]:
    defender = UNIT_NAMES[DEFENDER]
    return [
        Probe(
            "shoot", {"shooter": key, "target": DEFENDER}, f"{UNIT_NAMES[key]} shoot at {defender}"
        )
        for key in SHOOTERS
    ]


OUT_OF_MISSILES_TABLE = house_table(
    name="out_of_missiles",
    title="Out of missiles",
    help="The natural faces of a shooting Hit roll that leave the shooter out of missiles.",
    key="face",
    columns=(
        Column("face", "int", "Natural face", min=1, max=HIGHEST_FACE),
        Column("runs_out", "bool", "Runs out of missiles"),
    ),
    layout=by_key("face", DIE_FACES, in_set("OUT_OF_MISSILES_FACES", "runs_out")),
    fixed_rows=True,
    probes=_quiver_probes,
)


# --- Fast moves --------------------------------------------------------------------------


def _fast_probes(row: Row) -> list[Probe]:
    # The units of the class as written; a pack that moves a type to another class shows
    # that type's Fast move among its unit-type probes.
    return [
        Probe("move", {"unit": key, "fast": True}, f"{UNIT_NAMES[key]} Fast move")
        for key, _ in UNIT_TYPES
        if t.BASE.MOVE_CLASS[key] == row["move_class"]
    ]


FAST_BONUS_TABLE = house_table(
    name="fast_bonus",
    title="Fast move bonus",
    help="The inches a Fast move adds to the move roll, by move class.",
    key="move_class",
    columns=(
        Column("move_class", "int", "Move class", min=MOVE_CLASSES[0], max=MOVE_CLASSES[-1]),
        Column(
            "inches",
            "int",
            "Inches added",
            min=0,
            max=MAX_FAST_BONUS,
            help=f"At most {MAX_FAST_BONUS}: a move goes at most {t.MAX_MOVE} inches",
        ),
    ),
    layout=keyed("FAST_BONUS", "inches", key="move_class"),
    fixed_rows=True,
    probes=_fast_probes,
)


# --- rally -------------------------------------------------------------------------------


def _validate_bands(rows: list[Row]) -> None:
    """The bands run from the lowest face to the highest in order, each face in one band."""
    expected = DIE_FACES[0]
    for index, row in enumerate(rows):
        if row["low"] != expected:
            raise PackError(_start_reason(index, expected, row["low"]), row=index, column="low")
        if row["high"] < row["low"]:
            raise PackError(
                f"must be at least the band's own from face {row['low']}", row=index, column="high"
            )
        expected = row["high"] + 1
    if expected != HIGHEST_FACE + 1:
        raise PackError(
            f"must be {HIGHEST_FACE}: the last band ends at the highest face",
            row=len(rows) - 1,
            column="high",
        )


def _start_reason(index: int, expected: int, low: int) -> str:
    if index == 0:
        return f"must be {expected}: the first band starts at the lowest face"
    if low < expected:
        return f"must be {expected}: it overlaps the band above, which ends at {expected - 1}"
    return f"must be {expected}: face {expected} would be in no band"


def _band_probes(row: Row) -> list[Probe]:
    return [
        Probe("rally", {"die": die, "hits": MAX_RALLY}, f"Rally from {MAX_RALLY} Hits ({label})")
        for die, label in (("d6", "D6"), ("avg", "average die"))
    ]


RALLY_BANDS_TABLE = house_table(
    name="rally_bands",
    title="Rally",
    help="The Hits a rally roll takes off, by band of faces; the bands cover faces 1-6 in "
    "order, each face once (the average die's faces fall in the same bands).",
    key=None,
    columns=(
        Column("low", "int", "From face", min=1, max=HIGHEST_FACE),
        Column("high", "int", "To face", min=1, max=HIGHEST_FACE),
        Column("hits_off", "int", "Hits off", min=0, max=MAX_RALLY),
    ),
    layout=tuples(
        "RALLY_BANDS",
        ("low", "high", "hits_off"),
        then=lambda f: {**f, "RALLY_OFF": rally_bands_by_face(f["RALLY_BANDS"])},
    ),
    fixed_rows=True,
    validate=_validate_bands,
    probes=_band_probes,
)


# --- removal -----------------------------------------------------------------------------


def _validate_removal(rows: list[Row]) -> None:
    row = rows[0]
    if row["rally_fatigue_past"] >= row["removed_at"]:
        raise PackError(
            f"must be less than the removal threshold {row['removed_at']}",
            row=0,
            column="rally_fatigue_past",
        )
    if row["rally_floor"] > row["rally_fatigue_past"]:
        raise PackError(
            f"must be at most the fatigue mark {row['rally_fatigue_past']}",
            row=0,
            column="rally_floor",
        )


def _removal_probes(row: Mapping[str, Any]) -> list[Probe]:
    # The floor shows in a rally one Hit above it by a unit past the fatigue mark. The
    # threshold and the fatigue mark are no outcome of their own: a melee or a volley reports
    # them in its effects (the target removed, or past the mark), so they are probed on a
    # target one Hit short of removal and on one just at the mark.
    hits = min(row["rally_floor"] + 1, row["removed_at"] - 1)
    label = f"Rally from {hits} Hits, once past {row['rally_fatigue_past']}"
    defender = UNIT_NAMES[DEFENDER]
    short, at_mark = row["removed_at"] - 1, row["rally_fatigue_past"]
    return [
        Probe("rally", {"hits": hits, "passed_ten": True}, label),
        Probe(
            "melee",
            {"attacker": "knights", "target": DEFENDER, "target_hits": short},
            f"Knights attack {defender} one Hit short of removal ({short} Hits)",
        ),
        Probe(
            "shoot",
            {"shooter": "bowmen", "target": DEFENDER, "target_hits": at_mark},
            f"Bowmen shoot at {defender} on the fatigue mark ({at_mark} Hits)",
        ),
    ]


REMOVAL_TABLE = house_table(
    name="removal",
    title="Removal and rally floor",
    help="The Hits at which a unit is removed; once past the fatigue mark it never rallies "
    "below the floor.",
    key=None,
    columns=(
        Column("removed_at", "int", "Removed at Hits", min=2, max=MOST_REMOVED_AT),
        Column(
            "rally_fatigue_past", "int", "Fatigue: once past Hits", min=0, max=MOST_REMOVED_AT - 1
        ),
        Column("rally_floor", "int", "Never rallies below", min=0, max=MOST_REMOVED_AT - 1),
    ),
    layout=scalars(
        {
            "removed_at": "REMOVED_AT",
            "rally_fatigue_past": "RALLY_FATIGUE_PAST",
            "rally_floor": "RALLY_FLOOR",
        },
        then=lambda f: {**f, "MAX_HITS": f["REMOVED_AT"] - 1},
    ),
    fixed_rows=True,
    validate=_validate_removal,
    probes=_removal_probes,
)


def built_from(tables: t.G90Tables, changed: tuple[str, ...]) -> dict[str, Any]:
    """The system's parts that read the tables, built from a snapshot: the checks, stat schema
    and card (Hits limits, descriptions), labels, battle state, reference tables and the
    auto-resolve."""
    from functools import partial

    from rules.systems.game_the_90.simulate import simulate
    from rules.systems.game_the_90.stats import initial_state, label_text, settle_state

    checks, stats = build_checks(tables), build_stats(tables)
    return {
        "checks": checks,
        "stats": stats,
        "card": build_card(tables),
        "label_text": partial(label_text, tables=tables),
        "initial_state": partial(initial_state, tables=tables),
        "settle_state": partial(settle_state, tables=tables),
        "tables": partial(t.reference_tables, tables=tables),
        "simulate": partial(simulate, tables=tables, checks=checks, stats=stats),
    }


HOUSE = HouseSpec(
    module="rules.systems.game_the_90.tables",
    tables=(
        UNIT_TYPES_TABLE,
        MISSILES_TABLE,
        OUT_OF_MISSILES_TABLE,
        FAST_BONUS_TABLE,
        RALLY_BANDS_TABLE,
        REMOVAL_TABLE,
    ),
    built_from=built_from,
)
