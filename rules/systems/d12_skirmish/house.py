"""What a club may change in the d12 skirmish game: its tables, as house-rules data (issue 17).

Firearms and hand-to-hand weapons may be added, removed and re-ranged; the ability table may
move abilities between the d12's faces and reword them; troop types, range bands and cover keep
their rows but take new names and modifiers; the misfire and wound tables keep their bands'
number but may move them (every face 1-12 in exactly one band) and change what each gives; the
number to hit is one cell. Checks read all of these through `tables` as they run, and the
checks' and stats' choices (a new firearm, a renamed ability) are built from each pack's
tables snapshot (`built_from`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from rules.house import (
    Column,
    HouseSpec,
    Layout,
    PackError,
    Probe,
    Row,
    Then,
    by_key,
    editable,
    in_dict,
    in_pairs,
    in_set,
    key_column,
    modifier_column,
    name_column,
    scalars,
    tuples,
)
from rules.systems.d12_skirmish import tables as t
from rules.systems.d12_skirmish.checks import (
    ANY_FIREARM,
    MAX_DISTANCE,
    MISFIRE_OUTCOMES,
    WOUND_OUTCOMES,
    build_checks,
)

#: The system's editable tables, their rows read from the text's snapshot.
house_table = partial(editable, base=t.BASE)

FACES = (1, 12)
#: Keys the checks keep for themselves: "no weapon" and "no firearm named".
RESERVED_KEYS = frozenset({"none", ANY_FIREARM})
BANDS = ("close", "medium", "extreme")
RESULTS = {
    "explodes": "Weapon explodes",
    "out_of_ammo": "Out of ammunition",
    "jammed": "Jammed",
    "bad_powder": "Bad powder",
    "dead": "Dead",
    "two_wounds": "Two wounds",
    "one_wound": "One wound",
    "pinned": "Pinned",
}

KEY = key_column(help="How stats and checks name it: letters, digits, _ and -")
NAME = name_column(max=40)


def _outcome_choices(outcomes: Sequence[str]) -> tuple[tuple[str, str], ...]:
    return tuple((key, RESULTS[key]) for key in outcomes)


def _reach(name: str, *, required: bool) -> Column:
    return Column(
        name,
        "int",
        f"{name.capitalize()} range (inches)",
        min=1,
        max=MAX_DISTANCE,
        required=required,
        help="" if required else "Empty: the firearm has no such band",
    )


def _band_columns(result_choices: tuple[tuple[str, str], ...]) -> tuple[Column, ...]:
    return (
        Column("low", "int", "From", min=FACES[0], max=FACES[1]),
        Column("high", "int", "To", min=FACES[0], max=FACES[1]),
        Column("result", "choice", "Result", choices=result_choices),
    )


def _no_reserved_key(rows: list[Row]) -> None:
    for index, row in enumerate(rows):
        if row["key"] in RESERVED_KEYS:
            raise PackError(f"{row['key']!r} is kept for the checks", row=index, column="key")


# --- firearms ---------------------------------------------------------------------------------


def _validate_firearms(rows: list[Row]) -> None:
    _no_reserved_key(rows)
    for index, row in enumerate(rows):
        reach = row["close"]
        for band in BANDS[1:]:
            if row[band] is not None and row[band] <= reach:
                raise PackError(
                    f"must be longer than the band before it ({reach} inches), not {row[band]}",
                    row=index,
                    column=band,
                )
            reach = row[band] if row[band] is not None else reach


def _firearm_probes(row: Row) -> list[Probe]:
    """A regular's shot at the far edge of each of the firearm's range bands."""
    return [
        Probe(
            "fire",
            {"troop": "regular", "firearm": row["key"], "distance": row[band]},
            f'{row["name"]} at {row[band]}" ({band} range), a regular shooting',
        )
        for band in BANDS
        if row.get(band) is not None
    ]


FIREARMS = house_table(
    "firearms",
    "Firearms",
    (
        KEY,
        NAME,
        _reach("close", required=True),
        _reach("medium", required=False),
        _reach("extreme", required=False),
        Column(
            "fires_every_turn",
            "bool",
            "Fires every turn",
            help="Fires every turn whatever the figure's loading (a repeating rifle)",
        ),
        Column("bayonet", "bool", "Takes a bayonet"),
    ),
    by_key(
        "key",
        "FIREARMS",
        in_dict("FIREARM_NAMES", "name"),
        in_dict("FIREARMS", *BANDS),
        in_set("FIREARMS_EVERY_TURN", "fires_every_turn"),
        in_set("BAYONET_ARMS", "bayonet"),
    ),
    max_rows=30,
    help="Range bands in inches: a shot up to the close range is at close range, and so on.",
    validate=_validate_firearms,
    probes=_firearm_probes,
)


# --- hand-to-hand weapons ---------------------------------------------------------------------


MELEE_WEAPONS = house_table(
    "melee_weapons",
    "Hand-to-hand weapons",
    (KEY, NAME, Column("bonus", "int", "Hand to hand", min=-3, max=6)),
    by_key(
        "key", "MELEE_WEAPONS", in_dict("MELEE_NAMES", "name"), in_dict("MELEE_WEAPONS", "bonus")
    ),
    max_rows=30,
    help='"bayonet" needs a firearm that takes one.',
    validate=_no_reserved_key,
    probes=lambda row: [
        Probe(
            "hand_to_hand",
            {"weapon": row["key"]},
            f"{row['name']}: a regular against a regular, hand to hand",
        )
    ],
)


# --- abilities --------------------------------------------------------------------------------


def _validate_abilities(rows: list[Row]) -> None:
    seen: dict[int, int] = {}
    for index, row in enumerate(rows):
        if row["roll"] in seen:
            raise PackError(
                f"{row['roll']} is also the roll of row {seen[row['roll']] + 1}; each face of "
                "the d12 gives one ability",
                row=index,
                column="roll",
            )
        seen[row["roll"]] = index


ABILITIES = house_table(
    "abilities",
    "Abilities (d12)",
    (
        Column("roll", "int", "d12", min=FACES[0], max=FACES[1]),
        KEY,
        NAME,
        Column("effect", "text", "Effect", max=80, sheet_only="the players read and apply it"),
    ),
    tuples(
        "ABILITIES",
        ("roll", "key", "name", "effect"),
        then=lambda f: t.ability_constants(f["ABILITIES"]),
    ),
    fixed_rows=True,
    help="Each face of the d12 gives one ability; abilities may change faces and wording.",
    validate=_validate_abilities,
    probes=lambda row: [Probe("ability", {}, "The ability roll")],
)


# --- troop types, range and cover --------------------------------------------------------------


def _choices(field: str, modifiers: str, then: Then | None = None) -> Layout:
    """A keyed modifier table: its (key, name) choices in one field, its modifiers in another."""
    names = in_pairs(field, "name")
    return by_key("key", field, names, in_dict(modifiers, "modifier"), then=then)


TROOP_TYPES = house_table(
    "troop_types",
    "Troop types",
    (KEY, NAME, modifier_column(-3, 3, help="To hit, hand to hand and morale")),
    _choices(
        "TROOP_TYPES", "TROOP_MODIFIER", lambda f: {**f, "TROOP_NAMES": dict(f["TROOP_TYPES"])}
    ),
    fixed_rows=True,
    probes=lambda row: [
        Probe("shoot", {"troop": row["key"]}, f"{row['name']} shooting"),
        Probe("hand_to_hand", {"troop": row["key"]}, f"{row['name']} against a regular"),
        Probe("morale", {"troop": row["key"]}, f"{row['name']} testing morale"),
    ],
)

RANGES = house_table(
    "ranges",
    "Range modifiers",
    (KEY, NAME, modifier_column(-6, 2, help="To hit")),
    _choices("RANGES", "RANGE_MODIFIER"),
    fixed_rows=True,
    help="A firearm's range bands (close, medium, extreme) pick the row.",
    probes=lambda row: [
        Probe("fire", {"range": row["key"]}, f"A regular shooting at {row['name'].lower()} range")
    ],
)

COVER = house_table(
    "cover",
    "Cover modifiers",
    (KEY, NAME, modifier_column(-6, 2, help="To hit a target in this cover")),
    _choices("COVER", "COVER_MODIFIER"),
    fixed_rows=True,
    probes=lambda row: [
        Probe("fire", {"cover": row["key"]}, f"A regular shooting, target's cover: {row['name']}")
    ],
)

TO_HIT = house_table(
    "to_hit",
    "Number to hit",
    (Column("hit_on", "int", "d12 + modifiers needs", min=2, max=12),),
    scalars({"hit_on": "HIT_ON"}),
    key=None,
    fixed_rows=True,
    help="A natural 1 misfires whatever the number.",
    probes=lambda row: [
        Probe("shoot", {"troop": "regular"}, "A regular shooting"),
        Probe("fire", {"range": "medium"}, "A regular shooting at medium range"),
    ],
)


# --- misfire and wound tables -------------------------------------------------------------------


def _bands_cover_the_die(rows: list[Row]) -> None:
    """A band table's rows must cover the d12's faces, each face in exactly one band."""
    for index, row in enumerate(rows):
        if row["high"] < row["low"]:
            raise PackError(
                f"must be at least the band's start ({row['low']}), not {row['high']}",
                row=index,
                column="high",
            )
    expected = FACES[0]
    for index, row in sorted(enumerate(rows), key=lambda pair: pair[1]["low"]):
        if row["low"] != expected:
            what = "overlaps the band before it" if row["low"] < expected else "leaves a gap"
            raise PackError(
                f"{what}: the band after {expected - 1} must start at {expected}",
                row=index,
                column="low",
            )
        expected = row["high"] + 1
    if expected != FACES[1] + 1:
        last = max(range(len(rows)), key=lambda i: rows[i]["high"])
        raise PackError(
            f"the bands must reach {FACES[1]}, not stop at {expected - 1}",
            row=last,
            column="high",
        )


def _bands(field: str) -> Layout:
    return tuples(field, ("low", "high", "result"))


MISFIRE = house_table(
    "misfire",
    "Misfire (d12 after a natural 1)",
    _band_columns(_outcome_choices(MISFIRE_OUTCOMES)),
    _bands("MISFIRE_TABLE"),
    key=None,
    fixed_rows=True,
    validate=_bands_cover_the_die,
    probes=lambda row: [Probe("misfire", {}, "The misfire roll")],
)

FOOT_WOUNDS = house_table(
    "foot_wounds",
    "Wounds: foot (d12 after modifiers)",
    _band_columns(_outcome_choices(WOUND_OUTCOMES)),
    _bands("FOOT_WOUNDS"),
    key=None,
    fixed_rows=True,
    help="A natural 12 scores 12 whatever the modifiers.",
    validate=_bands_cover_the_die,
    probes=lambda row: [
        Probe("wound", {"mount": "foot"}, "Wounding a man on foot"),
        Probe("wound", {"mount": "foot", "close_range": True}, "Wounding a man on foot, close"),
    ],
)

THROWN_CHOICES = (
    ("no", "Stays in the saddle"),
    ("two_wounds", f"Thrown on d12 {t.THROWN_ON}+: two wounds"),
    ("dead", f"Thrown on d12 {t.THROWN_ON}+: dead"),
)


def _cavalry(bands: Layout) -> Layout:
    """The cavalry wound bands, each with what a rider thrown in it suffers ("no": not thrown;
    the snapshot's THROWN maps a band's faces to it)."""

    def read(tables: t.D12Tables) -> list[Row]:
        thrown = tables.THROWN
        return [
            {**r, "thrown": thrown.get((r["low"], r["high"]), "no")} for r in bands.read(tables)
        ]

    def build(rows: list[Row]) -> dict[str, Any]:
        throws = {(r["low"], r["high"]): r["thrown"] for r in rows if r["thrown"] != "no"}
        return {**bands.build(rows), "THROWN": throws}

    return Layout(read, build)


CAVALRY_WOUNDS = house_table(
    "cavalry_wounds",
    "Wounds: cavalry (d12 after modifiers)",
    (
        *_band_columns(_outcome_choices(WOUND_OUTCOMES)),
        Column(
            "thrown",
            "choice",
            "Thrown from the horse",
            choices=THROWN_CHOICES,
            help="A rider wounded in this band rolls a d12 to be thrown",
        ),
    ),
    _cavalry(_bands("CAVALRY_WOUNDS")),
    key=None,
    fixed_rows=True,
    help="A natural 12 scores 12 whatever the modifiers.",
    validate=_bands_cover_the_die,
    probes=lambda row: [
        Probe("wound", {"mount": "cavalry"}, "Wounding a cavalryman"),
        Probe("wound", {"mount": "cavalry", "close_range": True}, "Wounding a cavalryman, close"),
    ],
)


# --- what the checks and stats are rebuilt with ------------------------------------------------


def _check_weapon_keys(tables: t.D12Tables) -> None:
    """A weapon key names one weapon: a firearm and a hand-to-hand weapon may not share it."""
    melee = list(tables.MELEE_WEAPONS)
    for key in tables.FIREARMS:
        if key in melee:
            raise PackError(
                f"{key!r} is also a firearm's key",
                table="melee_weapons",
                row=melee.index(key),
                column="key",
            )


def built_from(tables: t.D12Tables, changed: tuple[str, ...]) -> dict[str, Any]:
    """The system's parts that read the tables, built from a snapshot: the checks (with the
    ability roll), the stats (its weapons, abilities, troop types), the base labels, the
    reference tables (listing the tables the pack `changed`), and the auto-resolve."""
    from functools import partial

    from rules.systems.d12_skirmish.chargen import TROOP_TYPE, ability_check
    from rules.systems.d12_skirmish.simulate import simulate
    from rules.systems.d12_skirmish.stats import build_stats, label_text
    from rules.systems.d12_skirmish.tables import reference_tables

    _check_weapon_keys(tables)
    checks = {**build_checks(tables), "troop_type": TROOP_TYPE, "ability": ability_check(tables)}
    stats = build_stats(tables)
    return {
        "checks": checks,
        "stats": stats,
        "label_text": partial(label_text, tables=tables),
        "tables": partial(reference_tables, tables=tables, changed=changed),
        "simulate": partial(simulate, tables=tables, checks=checks, stats=stats),
    }


HOUSE = HouseSpec(
    module="rules.systems.d12_skirmish.tables",
    tables=(
        FIREARMS,
        MELEE_WEAPONS,
        ABILITIES,
        TROOP_TYPES,
        RANGES,
        COVER,
        TO_HIT,
        MISFIRE,
        FOOT_WOUNDS,
        CAVALRY_WOUNDS,
    ),
    built_from=built_from,
)
