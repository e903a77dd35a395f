"""Escarmouche's tables a club may edit as house rules, with the limits each column keeps.

Weapon classes and terrain (passive dice; a club may add its own), melee weapons (what fights as
a pike, what leaves a figure weaponless), the shooting and fighting effects tables (result bands:
the rows stay, their differences, hits and effects change), and Muster's house campaign rules
for improvement (each stat's die and maximum). Each table's `build` returns the fields of the
tables snapshot it replaces, lookups included; `built_from` remakes the checks and the stat
schema, whose parameters list the club's weapons and terrain and its rating and skill limits.

The shooting and fighting penalties are not editable: they carry no numbers (each replaces one
active die, a rule of the pool, not a table).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rules.house import (
    Column,
    HouseSpec,
    Layout,
    PackError,
    Probe,
    editable,
    name_column,
    records,
)
from rules.house import Row as Cells
from rules.systems.escarmouche import tables as t

#: The system's editable tables, their rows read from the text's snapshot.
house_table = partial(editable, base=t.BASE)

#: A club's passive dice stay within what a pool can take: ten is the text's kit of one colour.
MAX_PASSIVE = 10
#: The largest difference a band may start at: twenty sixes could win by 24, but a band that
#: starts past 12 would never be reached in a six-a-side game.
MAX_DIFF = 12
MAX_HITS = 5
MAX_LABEL = 60
IMPROVEMENT_DICE = ((4, "d4"), (6, "d6"), (8, "d8"), (10, "d10"), (12, "d12"))
#: Rating limits a club may set: the stats default to 3, and more than 9 defence dice would make
#: a figure all but unbeatable.
RATING_RANGE = (3, 9)
SKILL_RANGE = (1, 6)
#: The probes' representative figures: an average shooter or fighter against its equal.
AVERAGE = {"rating": 3}
#: Shooter skills a weapon's probes shoot with: a passive die only matters under the skill.
PROBE_SKILLS = (1, 3)

KEY = Column(
    "key", "text", "Key", max=30, help="How checks and figures name the row: letters, digits, _, -."
)
LABEL = name_column("label", max=MAX_LABEL)
PASSIVE = Column(
    "passive",
    "int",
    "Passive dice",
    min=0,
    max=MAX_PASSIVE,
    help="Passive dice it adds to the roll.",
)


# --- weapon classes and terrain ---------------------------------------------------------------


def _keep_the_cannon(rows: list[Cells]) -> None:
    if not any(row["key"] == t.CANNON for row in rows):
        raise PackError(f"must keep the {t.CANNON!r} row: the artillery check fires it")


def _against_an_equal(label: str) -> str:
    return f"{label}, rating {AVERAGE['rating']} against rating {AVERAGE['rating']}"


def _weapon_probes(row: Cells) -> list[Probe]:
    """Shots with the class by a Shooter 1 and a Shooter 3.

    A weapon's passive dice change a shot's result only where they cap the Shooter skill (each
    skill point turns one passive die active); otherwise they only risk the initiative, which a
    shot's outcome does not show. (The artillery shot uses no skill to swap dice, so the
    cannon's passive dice never change its result.)
    """
    shot = {**AVERAGE, "target_rating": AVERAGE["rating"]}
    return [
        Probe(
            "shoot",
            {**shot, "weapon": row["key"], "skill": skill},
            _against_an_equal(f"Shoot: {row['label']}, Shooter {skill}"),
        )
        for skill in PROBE_SKILLS
    ]


def _terrain_probes(row: Cells) -> list[Probe]:
    return [Probe("move", {"terrain": row["key"]}, f"First move: {row['label']}")]


WEAPONS = house_table(
    "weapons",
    "Weapon classes",
    (KEY, LABEL, PASSIVE),
    records("WEAPONS", t.Row, keyed=False, then=lambda f: t.weapon_constants(f["WEAPONS"])),
    help="Each missile weapon class and the passive dice it adds to a shot.",
    validate=_keep_the_cannon,
    probes=_weapon_probes,
)
TERRAIN = house_table(
    "terrain",
    "Terrain",
    (KEY, LABEL, PASSIVE),
    records("TERRAIN", t.Row, keyed=False, then=lambda f: t.terrain_constants(f["TERRAIN"])),
    help="Each kind of ground and the passive dice it adds to a move.",
    probes=_terrain_probes,
)


# --- melee weapons ---------------------------------------------------------------------------


def _no_weaponless_pike(rows: list[Cells]) -> None:
    for index, row in enumerate(rows):
        if row["pike"] and row["weaponless"]:
            raise PackError(
                "a weapon that fights as a pike cannot also leave the figure weaponless",
                row=index,
                column="weaponless",
            )


MELEE_WEAPONS = house_table(
    "melee_weapons",
    "Melee weapons",
    (
        KEY,
        LABEL,
        Column(
            "pike",
            "bool",
            "Fights as a pike",
            help="First strike against horse; pike fencing against another pike.",
        ),
        Column(
            "weaponless",
            "bool",
            "Weaponless",
            help="The figure starts Disarmed and fights at the weaponless penalty.",
        ),
    ),
    records(
        "MELEE_WEAPONS",
        t.MeleeWeapon,
        keyed=False,
        then=lambda f: t.melee_constants(f["MELEE_WEAPONS"]),
    ),
    help="The melee weapons a figure may carry (no check's odds depend on them: they decide "
    "which fight applies and whether a figure starts Disarmed).",
    validate=_no_weaponless_pike,
)


# --- the effects tables ------------------------------------------------------------------------

EFFECT_COLUMNS = (
    Column("diff", "int", "Beaten by", min=0, max=MAX_DIFF, help="Smallest winning difference."),
    KEY,
    LABEL,
    Column("hits", "int", "Hits", min=0, max=MAX_HITS, help="Wounds at the band's difference."),
    Column("more_hits", "bool", "+1 hit per point", help="One more hit per point above it."),
    Column("shaken", "bool", "Shaken", help="The loser takes a Shaken marker."),
    Column("disarmed", "bool", "Disarmed", help="The loser is Disarmed."),
)
PRONE = Column("prone", "bool", "Prone in cover", help="The target goes prone and takes cover.")
PUSHED_BACK = Column("pushed_back", "bool", "Pushed back", help="The loser is pushed back.")


def _effects(field: str) -> Layout:
    """An effects table's bands, kept in the snapshot as an `EffectsTable` of its rows."""
    return records(
        field, t.EffectRow, keyed=False, then=lambda f: {field: t.EffectsTable(f[field])}
    )


def _bands_in_order(rows: list[Cells]) -> None:
    """Check an effects table's bands: the first starts at 0, each starts above the last."""
    if rows[0]["diff"] != 0:
        raise PackError(
            "must be 0: a tie won on rating falls in the first band",
            row=0,
            column="diff",
        )
    for index in range(1, len(rows)):
        if rows[index]["diff"] <= rows[index - 1]["diff"]:
            raise PackError(
                f"must be more than the row above's {rows[index - 1]['diff']}: bands rise "
                "row by row",
                row=index,
                column="diff",
            )


def _one_wide_bands_add_no_hits(rows: list[Cells]) -> None:
    """Refuse "+1 hit per point" on a band one difference wide: no point lies above its start.

    The hits grow with the difference past the band's own; where the next band starts one
    higher, the flag could never add a hit, and a cell that changes nothing is not offered.
    """
    for index in range(len(rows) - 1):
        start, following = rows[index]["diff"], rows[index + 1]["diff"]
        if rows[index]["more_hits"] and following == start + 1:
            raise PackError(
                f"must be off: the band is one difference wide (the next row starts at "
                f"{following}), so no point lies above it",
                row=index,
                column="more_hits",
            )


def _effects_rules(rows: list[Cells]) -> None:
    _bands_in_order(rows)
    _one_wide_bands_add_no_hits(rows)


#: A roll that reaches every band of an effects table: four active dice against one defence
#: die wins by 0 to 5 and more, and its rating over the defender's wins the ties (band 0).
STRONG = {"rating": AVERAGE["rating"], "active": 3}
WEAK = 1


def _shooting_probes(row: Cells) -> list[Probe]:
    shot = {**AVERAGE, "target_rating": AVERAGE["rating"]}
    return [
        Probe("shoot", shot, _against_an_equal("Shoot with the default weapon")),
        Probe(
            "shoot",
            {**STRONG, "target_rating": WEAK},
            f"Shoot with four active dice, rating {STRONG['rating']} against rating {WEAK}",
        ),
    ]


def _fighting_probes(row: Cells) -> list[Probe]:
    fight = {**AVERAGE, "defender_rating": AVERAGE["rating"]}
    return [
        Probe("fight", fight, _against_an_equal("Fight")),
        Probe(
            "fight",
            {**STRONG, "defender_rating": WEAK},
            f"Fight with four active dice, rating {STRONG['rating']} against rating {WEAK}",
        ),
    ]


SHOOTING_EFFECTS = house_table(
    "shooting_effects",
    "Shooting effects",
    (*EFFECT_COLUMNS, PRONE),
    _effects("SHOOTING_EFFECTS"),
    fixed_rows=True,
    help="What a shot that beats its target does, by how much it won: each row a band of "
    "differences up to the next row's.",
    validate=_effects_rules,
    probes=_shooting_probes,
)
FIGHTING_EFFECTS = house_table(
    "fighting_effects",
    "Fighting effects",
    (*EFFECT_COLUMNS, PUSHED_BACK),
    _effects("FIGHTING_EFFECTS"),
    fixed_rows=True,
    help="What the winner of a fight does to the loser, by how much it won: each row a band of "
    "differences up to the next row's.",
    validate=_effects_rules,
    probes=_fighting_probes,
)


# --- improvement (Muster's house campaign rules) -----------------------------------------------


def _improvement_rows(tables: t.EscarmoucheTables) -> list[Cells]:
    dice = tables.IMPROVEMENT_DICE
    return [
        {"stat": "rating", "die": dice["rating"], "maximum": tables.MAX_RATING},
        {"stat": "skill", "die": dice["skill"], "maximum": tables.MAX_SKILL},
    ]


def _build_improvement(rows: list[Cells]) -> dict[str, Any]:
    by_stat = {row["stat"]: row for row in rows}
    return {
        "IMPROVEMENT_DICE": {stat: row["die"] for stat, row in by_stat.items()},
        "MAX_RATING": by_stat["rating"]["maximum"],
        "MAX_SKILL": by_stat["skill"]["maximum"],
    }


def _maxima_in_range(rows: list[Cells]) -> None:
    for index, row in enumerate(rows):
        low, high = RATING_RANGE if row["stat"] == "rating" else SKILL_RANGE
        if not low <= row["maximum"] <= high:
            raise PackError(
                f"must be {low} to {high} for the {row['stat']}, not {row['maximum']}",
                row=index,
                column="maximum",
            )


def _improvement_probes(row: Cells) -> list[Probe]:
    top = row["maximum"]
    if row["stat"] == "rating":
        params = {"rating": top, "defender_dice": top, "defender_rating": top}
        return [Probe("opposed", params, f"Opposed roll, rating {top} against rating {top}")]
    return [Probe("shoot", {**AVERAGE, "skill": top}, f"Shoot with Shooter {top}, rating 3")]


IMPROVEMENT = house_table(
    "improvement",
    "Improvement (house campaign rules)",
    (
        Column("stat", "text", "Stat", max=10),
        Column("die", "choice", "Die", choices=IMPROVEMENT_DICE, help="Roll over the stat on it."),
        Column(
            "maximum",
            "int",
            "Maximum",
            min=min(RATING_RANGE[0], SKILL_RANGE[0]),
            max=max(RATING_RANGE[1], SKILL_RANGE[1]),
            help=f"Rating {RATING_RANGE[0]}-{RATING_RANGE[1]}, skills "
            f"{SKILL_RANGE[0]}-{SKILL_RANGE[1]}: the highest a figure may have or reach.",
        ),
    ),
    # A row per stat over three fields: its die in one {stat: die} field, its maximum a field
    # of its own (MAX_RATING, MAX_SKILL).
    layout=Layout(_improvement_rows, _build_improvement),
    key="stat",
    fixed_rows=True,
    help="Muster's house campaign rules: the die each stat rolls over to improve after a battle, "
    "and its maximum (which also limits figures' stats and the checks' parameters).",
    validate=_maxima_in_range,
    probes=_improvement_probes,
)


def _built_from(tables: t.EscarmoucheTables, changed: tuple[str, ...]) -> dict[str, Any]:
    """The system's parts that read the tables, built from a snapshot: the checks and the stat
    schema (its weapons, terrain and limits), labels, starting state, reference tables, the
    campaign procedure and the auto-resolve."""
    from functools import partial

    from rules.systems.escarmouche import build_checks
    from rules.systems.escarmouche.campaign import post_battle
    from rules.systems.escarmouche.simulate import simulate
    from rules.systems.escarmouche.stats import build_stats, initial_state, label_text

    checks, stats = build_checks(tables), build_stats(tables)
    return {
        "checks": checks,
        "stats": stats,
        "label_text": partial(label_text, tables=tables),
        "initial_state": partial(initial_state, tables=tables),
        "tables": partial(t.tables, snapshot=tables),
        "post_battle": partial(post_battle, tables=tables),
        "simulate": partial(simulate, tables=tables, checks=checks, stats=stats),
    }


HOUSE = HouseSpec(
    module="rules.systems.escarmouche.tables",
    tables=(WEAPONS, MELEE_WEAPONS, TERRAIN, SHOOTING_EFFECTS, FIGHTING_EFFECTS, IMPROVEMENT),
    built_from=_built_from,
)
