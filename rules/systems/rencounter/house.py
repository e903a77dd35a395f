"""Rencounter's tables a club may edit as house rules, and the limits the game's scale sets.

The weapon tables (add a weapon; change its range bands, damage, reload, shots, repeat rate and
kind), the to-hit modifiers of shields, cover and range bands, the damage table's thresholds,
the fire and melee modifier lists the sheet prints, and the house campaign rules Rencounter's
campaign uses: which faces of the aftermath d6 give sepsis, a permanent point or healing, and
how far an improvement roll may raise each stat. Limits follow the scale: a d12 roll moved by
more than half the die is no longer a modifier, a range band past 250" (1,000 yards) is off
any table, a stat cap stays within the stat's own range.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import Any

from rules import aftermath
from rules.house import (
    Column,
    EditableTable,
    HouseSpec,
    PackError,
    Probe,
    Row,
    editable,
    key_column,
    keyed,
    modifier_column,
    name_column,
    records,
    tuples,
)
from rules.systems.rencounter import tables as t

#: The system's editable tables, their rows read from the text's snapshot.
house_table = partial(editable, base=t.BASE)

#: A weapon's or shield's modifier to a d12 roll: at most half the die either way.
_LEAST, _MOST = -6, 6
_SKILL = 7
_BANDS = ("short", "medium", "long", "extreme")
_KINDS = (
    ("thrown", "Thrown: target armour and shield count"),
    ("bow", "Bow: target armour and shield count"),
    ("crossbow", "Crossbow: target armour and shield count"),
    ("low_velocity", "Low-velocity firearm: -1 against armour 3-4"),
    ("firearm", "Firearm: ignores armour"),
)


def _words(key: str) -> str:
    return key.replace("_", " ")


# --- missile weapons ----------------------------------------------------------------------


def _not_the_no_weapon_key(rows: list[Row]) -> None:
    for index, row in enumerate(rows):
        if row["key"] == "none":
            raise PackError(
                "'none' means no weapon in a check; choose another key",
                row=index,
                column="key",
            )


def _missile_validate(rows: list[Row]) -> None:
    _not_the_no_weapon_key(rows)
    for index, row in enumerate(rows):
        for shorter, longer in pairwise(_BANDS):
            if row[longer] <= row[shorter]:
                raise PackError(
                    f'must be longer than the {shorter} band ({row[shorter]}")',
                    row=index,
                    column=longer,
                )


def _missile_probes(row: Row) -> list[Probe]:
    most = t.REPEAT_SHOTS[row["repeat"]]
    return [
        *(
            Probe(
                "fire",
                {"skill": _SKILL, "weapon": row["key"], "range": band},
                f"{row['name']}, {band} range, skill {_SKILL}",
            )
            for band in ("short", "medium", "long")
        ),
        Probe(
            "fire",
            {"skill": _SKILL, "weapon": row["key"], "shots": most},
            f"{row['name']}, {most} shot(s) in a turn, skill {_SKILL}",
        ),
        Probe(
            "fire",
            {
                "skill": _SKILL,
                "weapon": row["key"],
                "target_armour": 3,
                "target_shield": "large",
            },
            f"{row['name']}, skill {_SKILL}, against armour 3 and a large shield",
        ),
    ]


MISSILE_WEAPONS = house_table(
    "missile_weapons",
    "Missile weapons",
    (
        key_column("Key"),
        name_column(),
        *(
            Column(
                band,
                "int",
                f'{band.capitalize()} range (")',
                min=1,
                max=250,
                sheet_only="the player measures the range; the fire check takes its band",
            )
            for band in _BANDS
        ),
        Column(
            "damage",
            "int",
            "Damage modifier",
            min=_LEAST,
            max=_MOST,
            required=False,
            help="Added to the damage roll; empty: set by range band, as for shotguns "
            "(which also get +2 to hit from short to long range)",
        ),
        Column(
            "reload",
            "number",
            "Reload (turns)",
            min=0.5,
            max=20,
            help="Halves allowed",
            sheet_only="the player counts the turns spent reloading",
        ),
        Column(
            "shots",
            "text",
            "Shots loaded",
            max=10,
            help='e.g. "1", "6", "5-17"',
            sheet_only="the player counts the rounds loaded",
        ),
        Column(
            "repeat",
            "choice",
            "Repeat rate",
            choices=tuple(t.REPEAT_NAMES.items()),
            help="How many shots a turn it may fire",
        ),
        Column("kind", "choice", "Kind", choices=_KINDS, help="How target armour affects it"),
    ),
    records("missile_weapons", t.MissileWeapon, spread={"ranges": _BANDS}),
    validate=_missile_validate,
    probes=_missile_probes,
    help="Range bands are the longest distance of each band in inches.",
)


# --- melee weapons ------------------------------------------------------------------------


def _melee_probes(row: Row) -> list[Probe]:
    skills = {"attack_skill": _SKILL, "parry_skill": _SKILL}
    against = f"skill {_SKILL} against {_SKILL}"
    return [
        Probe("melee", {**skills, "weapon": row["key"]}, f"{row['name']} attacking, {against}"),
        Probe(
            "melee",
            {**skills, "defender_weapon": row["key"], "riposte": True},
            f"{row['name']} parrying with a riposte, {against}",
        ),
        Probe(
            "melee",
            {**skills, "defender_weapon": row["key"], "defender_shield": "large"},
            f"{row['name']} and a large shield parrying, {against}",
        ),
    ]


MELEE_WEAPONS = house_table(
    "melee_weapons",
    "Melee weapons",
    (
        key_column("Key"),
        name_column(),
        Column(
            "to_hit", "int", "To hit", min=_LEAST, max=_MOST, help="Added to the wielder's skill"
        ),
        Column("damage", "int", "Damage modifier", min=_LEAST, max=_MOST),
        Column(
            "ranks",
            "int",
            "Ranks",
            min=1,
            max=6,
            help="Ranks that may fight with it",
            sheet_only="the player sees which ranks fight; each fights its own melee check",
        ),
        Column("shield", "bool", "Shield", help="May be used with a shield"),
    ),
    records("melee_weapons", t.MeleeWeapon),
    validate=_not_the_no_weapon_key,
    probes=_melee_probes,
)


# --- shields, cover, range ------------------------------------------------------------------


def _shield_probes(row: Row) -> list[Probe]:
    target = row["label"].lower()
    return [
        Probe(
            "fire",
            {"skill": _SKILL, "weapon": "short_bow", "target_shield": row["key"]},
            f"Short bow, short range, skill {_SKILL}, against {target}",
        ),
        Probe(
            "melee",
            {"attack_skill": _SKILL, "parry_skill": _SKILL, "defender_shield": row["key"]},
            f"Melee, skill {_SKILL} against {_SKILL}, defender with {target}",
        ),
    ]


SHIELDS = house_table(
    "shields",
    "Shields",
    (
        key_column("Shield"),
        name_column("label"),
        modifier_column(_LEAST, _MOST, "To hit the bearer"),
    ),
    keyed("shields", "label", "modifier"),
    fixed_rows=True,
    probes=_shield_probes,
    help="Missiles that armour stops (thrown, bows, crossbows) and melee attacks add these; "
    "the only place shield modifiers live (the sheet's melee list prints them from here).",
)


def _open_ground(row: Row, column: str) -> str:
    if column == "solid" and row["modifier"] == 0:
        return "cover that costs the shot nothing makes no miss its own, so no one ducks back"
    return ""


COVER = house_table(
    "cover",
    "Cover",
    (
        key_column("Cover"),
        name_column("label", "Description"),
        modifier_column(-10, 0, "To hit"),
        Column("solid", "bool", "Solid", help="A miss it alone caused makes the target duck back"),
    ),
    keyed("cover", "modifier", "solid", "label"),
    fixed_rows=True,
    sheet_only_cells=_open_ground,
    probes=lambda row: [
        Probe(
            "fire",
            {"skill": _SKILL, "cover": row["key"]},
            f"Fire, short range, skill {_SKILL}: {row['label'].lower()}",
        )
    ],
)


RANGE_TO_HIT = house_table(
    "range_to_hit",
    "Range band to-hit modifiers",
    (
        Column("band", "text", "Range band", max=20),
        modifier_column(-12, 6, "To hit"),
    ),
    keyed("range_to_hit", "modifier", key="band"),
    key="band",
    fixed_rows=True,
    probes=lambda row: [
        Probe(
            "fire",
            {"skill": _SKILL, "range": row["band"]},
            f"Fire, {_words(row['band'])} range, skill {_SKILL}",
        )
    ],
)


# --- damage ---------------------------------------------------------------------------------


def _in_order(rows: list[Row], column: str, *, strictly: bool) -> None:
    for index in range(1, len(rows)):
        before, value = rows[index - 1][column], rows[index][column]
        if value < before or (strictly and value == before):
            word = "more than" if strictly else "at least"
            raise PackError(
                f"must be {word} {before}, the row above's (bands run in order)",
                row=index,
                column=column,
            )


DAMAGE = house_table(
    "damage",
    "Damage table",
    (
        Column("result", "text", "Result", max=20),
        Column(
            "up_to",
            "int",
            "Highest modified roll",
            min=-12,
            max=24,
            help="The d12 damage roll plus modifiers up to this gives the result; "
            "above the last row, no effect",
        ),
    ),
    tuples("damage_table", ("up_to", "result")),
    key="result",
    fixed_rows=True,
    validate=lambda rows: _in_order(rows, "up_to", strictly=True),
    probes=lambda row: [
        Probe("damage", {"modifier": 0}, "Damage roll, no modifier"),
        Probe(
            "fire",
            {"skill": _SKILL, "weapon": "matchlock_musket", "range": "medium"},
            f"Matchlock musket, medium range, skill {_SKILL}",
        ),
    ],
)


# --- the sheet's modifier lists ---------------------------------------------------------------


def _modifier_list(
    name: str, title: str, constant: str, rules: tuple[tuple[str, str], ...], help: str
) -> EditableTable:
    return house_table(
        name,
        title,
        (
            Column("situation", "text", "Situation", max=90, sheet_only="it names the situation"),
            modifier_column(-12, 12),
            Column(
                "rule",
                "choice",
                "Applied by the check",
                choices=rules,
                required=False,
                help="The rule of the check this row sets; empty: printed only, the player "
                "adds it into the check's modifier. A rule no row names keeps the text's number",
            ),
        ),
        tuples(constant, ("situation", "modifier", "rule")),
        key=None,
        max_rows=40,
        help=help,
        validate=_one_row_a_rule,
        sheet_only_cells=_added_by_the_player,
        probes=_rule_probes,
    )


def _one_row_a_rule(rows: list[Row]) -> None:
    seen: set[str] = set()
    for index, row in enumerate(rows):
        if row["rule"] in seen:
            raise PackError(
                f"{row['rule']!r} is set by an earlier row; a rule takes one row",
                row=index,
                column="rule",
            )
        if row["rule"]:
            seen.add(row["rule"])


def _added_by_the_player(row: Row, column: str) -> str:
    if column == "modifier" and not row["rule"]:
        return "the player adds it into the check's modifier"
    return ""


#: The checks that show a rule's number: a repeater's second shot, three men on one, armour.
_RULE_PROBES: dict[str, Probe] = {
    "extra_shot": Probe(
        "fire",
        {"skill": _SKILL, "weapon": "magazine_rifle", "shots": 2},
        f"Magazine rifle, two shots in a turn, skill {_SKILL}",
    ),
    "gang_up_attack": Probe(
        "melee",
        {"attack_skill": _SKILL, "parry_skill": _SKILL, "attackers": 3},
        f"Three attackers on one, skill {_SKILL} against {_SKILL}",
    ),
    "armour": Probe(
        "melee",
        {"attack_skill": _SKILL, "parry_skill": _SKILL, "defender_armour": 2, "riposte": True},
        f"Melee against armour 2, riposte, skill {_SKILL} against {_SKILL}",
    ),
}
_RULE_PROBES["gang_up_parry"] = _RULE_PROBES["gang_up_attack"]


def _rule_probes(row: Row) -> list[Probe]:
    return [_RULE_PROBES[row["rule"]]] if row["rule"] else []


FIRE_MODIFIERS = _modifier_list(
    "fire_modifiers",
    "Other fire modifiers (sheet)",
    "fire_modifiers",
    (("extra_shot", "Each shot after the first in a turn"),),
    "Printed on the quick-reference sheet. The fire check applies the row naming its rule "
    "(each shot after the first); the player adds the others into the check's modifier.",
)
MELEE_MODIFIERS = _modifier_list(
    "melee_modifiers",
    "Melee modifiers (sheet)",
    "melee_modifiers",
    (
        ("gang_up_attack", "Each attacker after the first: to the attack"),
        ("gang_up_parry", "Each attacker after the first: to the parry"),
        ("armour", "Per point of the target's armour"),
    ),
    "Printed on the quick-reference sheet. The melee check applies the rows naming their rule "
    "(gang-up, armour); shields are the shields table's; the player adds the others into the "
    "check's modifiers.",
)


# --- house campaign rules -------------------------------------------------------------------


def _aftermath_validate(rows: list[Row]) -> None:
    _in_order(rows, "up_to", strictly=False)
    if rows[-1]["up_to"] != 6:
        raise PackError(
            "must be 6: the bands cover every face of the d6",
            row=len(rows) - 1,
            column="up_to",
        )
    bands = tuple((row["up_to"], row["result"]) for row in rows)
    reason = aftermath.chain_ends(bands)
    if reason:
        raise PackError(reason, row=0, column="up_to")


def _aftermath_probes(row: Row) -> list[Probe]:
    return [
        Probe("aftermath", {"wounds": 1}, "Aftermath of 1 wound point"),
        Probe("aftermath", {"wounds": 3}, "Aftermath of 3 wound points"),
        Probe("aftermath", {"wounds": 3, "care": "prompt"}, "3 wound points, prompt care"),
        Probe("aftermath", {"wounds": 3, "hazard": 2}, "3 wound points, hazardous (-2)"),
    ]


AFTERMATH = house_table(
    "aftermath",
    "Wound aftermath (d6 per wound point)",
    (
        Column("result", "text", "The wound point", max=20),
        Column(
            "up_to",
            "int",
            "Highest face",
            min=0,
            max=6,
            help="Faces above the band before, up to this, give the result (equal to the band "
            "before: never); prompt care rerolls each face that would not heal",
        ),
    ),
    tuples("aftermath_bands", ("up_to", "result")),
    key="result",
    fixed_rows=True,
    validate=_aftermath_validate,
    probes=_aftermath_probes,
    help="Sepsis: the point is rolled again as two. More than five permanent points kill.",
)


def _improvement_validate(rows: list[Row]) -> None:
    for index, row in enumerate(rows):
        _, lowest, highest = t.IMPROVEMENT_DICE[row["stat"]]
        if not lowest <= row["maximum"] <= highest:
            raise PackError(
                f"must be from {lowest} to {highest}, the range of {row['stat']}",
                row=index,
                column="maximum",
            )


IMPROVEMENT = house_table(
    "improvement",
    "Improvement caps",
    (
        Column("stat", "text", "Stat", max=20),
        Column(
            "maximum",
            "int",
            "Highest by improvement",
            min=1,
            max=12,
            help="An improvement roll never raises the stat past this",
        ),
    ),
    keyed("improvement_caps", "maximum", key="stat"),
    key="stat",
    fixed_rows=True,
    validate=_improvement_validate,
    probes=lambda row: [
        Probe(
            "improvement",
            {"stat": row["stat"], "value": row["maximum"]},
            f"Improvement roll, {row['stat']} {row['maximum']}",
        )
    ],
)


def _built_from(tables: t.RencounterTables, changed: tuple[str, ...]) -> dict[str, Any]:
    """The system's parts that read the tables, built from a snapshot: the checks (whose
    parameters and the stats offer its weapons, shields and cover), the reference tables, the
    campaign procedure and the auto-resolve. (The sheet is told what `changed` when printed.)"""
    from functools import partial

    from rules.systems.rencounter import reference_tables
    from rules.systems.rencounter.campaign import post_battle
    from rules.systems.rencounter.checks import build_checks
    from rules.systems.rencounter.simulate import simulate
    from rules.systems.rencounter.stats import build_stats

    checks = build_checks(tables)
    return {
        "checks": checks,
        "stats": build_stats(tables),
        "tables": partial(reference_tables, tables=tables),
        "post_battle": partial(post_battle, tables=tables),
        "simulate": partial(simulate, tables=tables, checks=checks),
    }


HOUSE = HouseSpec(
    module="rules.systems.rencounter.tables",
    tables=(
        MISSILE_WEAPONS,
        MELEE_WEAPONS,
        SHIELDS,
        COVER,
        RANGE_TO_HIT,
        DAMAGE,
        FIRE_MODIFIERS,
        MELEE_MODIFIERS,
        AFTERMATH,
        IMPROVEMENT,
    ),
    built_from=_built_from,
)
