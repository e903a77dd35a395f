"""What a Grits & Glory club may edit as house rules: weapons, modifiers, settings, scoring.

The text lists no weapon table (it names a few weapons' damage and refers to ranges, RoF and
Reload without giving them), so Muster's weapon table is a house table to begin with: a club
corrects it and adds the weapons its period needs, melee or ranged. Besides the weapons a club
may tune the range, cover, situation and swimming modifiers, a few settings (the gang-up cap,
the untrained and multiple-action penalties, the Joker's bonus, a mount's Toughness) and the
victory points. The hazards of events and mishaps (falls, fire, the sniper) stay as the text
gives them.

Every table here is a field of the tables snapshot (`tables.GGTables`): a pack's rows build
the fields it replaces, and `built_from` builds the checks (their parameters, resolvers and
odds), the unit stat schema, the action deck, the reference tables, the campaign procedure and
the auto-resolver from the pack's snapshot, once per pack.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from rules.house import (
    NAMES_THE_ROW,
    Column,
    EditableTable,
    HouseSpec,
    Layout,
    PackError,
    Probe,
    Row,
    editable,
    keyed,
    modifier_column,
    scalars,
)
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.stats import DIE_CHOICES, stats_schema
from rules.systems.grits_and_glory.tables import Weapon

#: The system's editable tables, their rows read from the text's snapshot.
house_table = partial(editable, base=t.BASE)

TABLES_MODULE = "rules.systems.grits_and_glory.tables"

#: The representative figure of every probe: a d8 in the skill or trait that matters.
PROBE_DIE = 8

# --- the weapon table ---------------------------------------------------------------------

KINDS = (("melee", "melee (Fighting)"), ("ranged", "ranged (Shooting or Throwing)"))
RANGE_COLUMNS = ("short", "medium", "long")
#: What a melee weapon's ranged-only columns must hold: it strikes once and never reloads.
MELEE_PLAIN = {"rof": 1, "reload": 0, "fanfire": False, "pistol": False}


def _range_column(name: str) -> Column:
    return Column(
        name,
        "int",
        label=f"{name.capitalize()} range",
        min=1,
        max=200,
        required=False,
        help=f"Inches; the top of the {name} bracket. Empty for a melee weapon",
        sheet_only="the player measures the range; the shooting check takes its bracket",
    )


WEAPON_COLUMNS = (
    Column("key", "text", max=32, help="How checks and unit cards name it, e.g. blunderbuss."),
    Column(
        "name",
        "text",
        max=40,
        help="As printed on cards and the reference sheet",
        sheet_only=NAMES_THE_ROW,
    ),
    Column(
        "kind",
        "choice",
        choices=KINDS,
        help="Melee weapons go with Fighting, ranged ones with Shooting (or Throwing); a unit "
        "shoots with its first ranged weapon.",
    ),
    Column(
        "strength",
        "bool",
        label="Adds Strength",
        help="The wielder's Strength die is rolled with the damage (Str+d6).",
    ),
    Column(
        "dice",
        "int",
        label="Damage dice",
        min=0,
        max=4,
        help="How many damage dice (0: Strength alone, as unarmed).",
    ),
    Column(
        "die",
        "choice",
        label="Damage die",
        choices=DIE_CHOICES,
        required=False,
        help="Their size; empty when there are no damage dice.",
    ),
    Column(
        "bonus",
        "int",
        label="Damage bonus",
        min=-4,
        max=8,
        help="Added to the damage total (0 for most weapons).",
    ),
    *(_range_column(name) for name in RANGE_COLUMNS),
    Column(
        "rof",
        "int",
        label="RoF",
        min=1,
        max=t.FANFIRE_MAX_SHOTS,
        help="Shooting dice per attack (2 or more: automatic fire).",
    ),
    Column(
        "reload",
        "int",
        min=0,
        max=6,
        help="Reload N: rounds of reloading after a jam (0 for most firearms).",
    ),
    Column("fanfire", "bool", help="A single-action revolver that may be fanned."),
    Column(
        "reach",
        "int",
        min=0,
        max=3,
        help="Reach in inches (spear 1, lance 2): set against a charge at +2 a point.",
    ),
    Column(
        "pistol",
        "bool",
        help="May be fired in close combat (at the defender's Parry)",
        sheet_only="the player fires it in close combat and sets the shooting check's TN to the "
        "defender's Parry",
    ),
)


def _weapon_rows(tables: t.GGTables) -> list[Row]:
    melee = set(tables.MELEE_KEYS)
    return [_row_of(w, "melee" if w.key in melee else "ranged") for w in tables.WEAPONS.values()]


def _row_of(weapon: Weapon, kind: str) -> Row:
    short, medium, long = weapon.ranges or (None, None, None)
    return {
        "key": weapon.key,
        "name": weapon.name,
        "kind": kind,
        "strength": weapon.strength,
        "dice": len(weapon.dice),
        "die": weapon.dice[0] if weapon.dice else None,
        "bonus": weapon.bonus,
        "short": short,
        "medium": medium,
        "long": long,
        "rof": weapon.rof,
        "reload": weapon.reload,
        "fanfire": weapon.fanfire,
        "reach": weapon.reach,
        "pistol": weapon.pistol,
    }


def _weapon_of(row: Row, base: Mapping[str, Weapon]) -> Weapon:
    """The weapon a row describes: the text's or Muster's own where unchanged, else the club's."""
    ranges = (row["short"], row["medium"], row["long"]) if row["kind"] == "ranged" else None
    weapon = Weapon(
        row["key"],
        row["name"],
        row["strength"],
        (row["die"],) * row["dice"],
        row["bonus"],
        ranges,
        row["rof"],
        row["reload"],
        row["fanfire"],
        row["reach"],
        row["pistol"],
    )
    was = base.get(weapon.key)
    return was if was is not None and replace(weapon, source=was.source) == was else weapon


def _build_weapons(rows: list[Row]) -> dict[str, Any]:
    base: Mapping[str, Weapon] = t.BASE.WEAPONS
    weapons = [(_weapon_of(row, base), row["kind"]) for row in rows]
    return t.weapon_tables(
        tuple(w for w, kind in weapons if kind == "melee"),
        tuple(w for w, kind in weapons if kind == "ranged"),
    )


def _validate_weapons(rows: list[Row]) -> None:
    hazards = {h.key for h in t.HAZARDS}
    for index, row in enumerate(rows):
        if row["key"] in hazards:
            raise PackError(
                f"{row['key']!r} is a hazard's key (events and mishaps); choose another",
                row=index,
                column="key",
            )
        _validate_damage(row, index)
        if row["kind"] == "ranged":
            _validate_ranges(row, index)
        else:
            _validate_melee(row, index)
    if "unarmed" not in {row["key"] for row in rows}:
        raise PackError("must keep 'unarmed': a unit without a melee weapon fights with it")


def _validate_damage(row: Row, index: int) -> None:
    def refuse(column: str, message: str) -> None:
        raise PackError(message, row=index, column=column)

    if row["dice"] and row["die"] is None:
        refuse("die", "must be filled in when the weapon has damage dice")
    if not row["dice"] and row["die"] is not None:
        refuse("die", "must be empty when the weapon has no damage dice")
    if not row["dice"] and not row["strength"]:
        refuse("dice", "must be at least 1 for a weapon that does not add Strength")


def _validate_ranges(row: Row, index: int) -> None:
    previous = 0
    for name in RANGE_COLUMNS:
        value = row[name]
        if value is None:
            raise PackError("must be filled in for a ranged weapon", row=index, column=name)
        if value <= previous:
            raise PackError(
                f"must be longer than the range before it ({previous})",
                row=index,
                column=name,
            )
        previous = value
    if row["reach"]:
        raise PackError("must be 0 for a ranged weapon", row=index, column="reach")


def _validate_melee(row: Row, index: int) -> None:
    for name in RANGE_COLUMNS:
        if row[name] is not None:
            raise PackError(
                "must be empty for a melee weapon (make it ranged to throw it)",
                row=index,
                column=name,
            )
    for name, value in MELEE_PLAIN.items():
        if row[name] != value:
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            raise PackError(
                f"must be {shown} for a melee weapon (it strikes once and never reloads)",
                row=index,
                column=name,
            )


def _damage_probes(row: Row) -> list[Probe]:
    name, key = row.get("name") or row["key"], row["key"]
    wielder = " with Str d8" if row.get("strength") else ""
    base = {"weapon": key, "strength": PROBE_DIE}
    return [
        Probe(
            "damage",
            {**base, "toughness": 5},
            f"{name}: damage{wielder} against Toughness 5",
        ),
        Probe(
            "damage",
            {**base, "toughness": 7, "target_wild_card": True},
            f"{name}: damage{wielder} against a Wild Card of Toughness 7",
        ),
    ]


def _weapon_probes(row: Row) -> list[Probe]:
    """The odds a weapon row sets: its damage, and what its RoF, fanfire and Reach decide.

    The attack that brings it into play comes first (Fighting or Shooting with a d8): the
    weapon does not change it, but it sets the damage beside the chance to land it.
    """
    name = row.get("name") or row["key"]
    if row.get("kind") == "ranged":
        attack = Probe(
            "shooting", {"die": PROBE_DIE, "range": "medium"}, "Shooting d8 at medium range"
        )
    else:
        attack = Probe("fighting", {"die": PROBE_DIE}, "Fighting d8 against Parry 5")
    probes = [attack, *_damage_probes(row)]
    if (row.get("rof") or 1) > 1:
        shots = {"die": PROBE_DIE, "shots": row["rof"], "range": "medium"}
        probes.append(Probe("autofire", shots, f"{name}: {row['rof']} Shooting d8 at medium range"))
    if row.get("fanfire"):
        fan = {"die": PROBE_DIE, "shots": t.FANFIRE_MAX_SHOTS, "fanfire": True}
        probes.append(Probe("autofire", fan, f"{name}: fanned, six Shooting d8 at short range"))
    if row.get("reach"):
        reach = {"die": PROBE_DIE, "reach": row["reach"], "foe_die": PROBE_DIE}
        probes.append(Probe("set_weapons", reach, f"{name}: set against a charge (Agility d8)"))
    if row.get("kind") == "ranged":
        # Reload N: the rounds a jammed weapon spends reloading before it fires again.
        probes.append(Probe("reload", {"reload": row["reload"]}, f"{name}: reloading after a jam"))
    return probes


WEAPONS_TABLE = house_table(
    "weapons",
    "Weapons",
    WEAPON_COLUMNS,
    # The one table whose rows are not its records: a row's kind sorts the weapon into the
    # melee or ranged list, and its damage dice are a count and a size.
    Layout(_weapon_rows, _build_weapons),
    help="Every weapon a unit may carry, melee and ranged. The text gives only a few weapons' "
    "damage; the rest is Muster's table in the text's style, yours to correct and extend.",
    validate=_validate_weapons,
    probes=_weapon_probes,
)

# --- the modifier lists -------------------------------------------------------------------


def _modifier_table(
    name: str,
    title: str,
    constant: str,
    limits: tuple[int, int],
    probes: Callable[[Row], list[Probe]],
    help_text: str,
) -> EditableTable:
    """A fixed list of named modifiers: a club changes the numbers, not which ones there are."""

    low, high = limits
    columns = (
        Column("key", "text", max=32),
        modifier_column(low, high, help="Added to the roll (negative: a penalty)."),
    )
    layout = keyed(constant, "modifier")
    return house_table(name, title, columns, layout, fixed_rows=True, help=help_text, probes=probes)


def _range_probes(row: Row) -> list[Probe]:
    return [
        Probe(
            "shooting",
            {"die": PROBE_DIE, "range": row["key"]},
            f"Shooting d8 at {row['key']} range",
        )
    ]


def _cover_probes(row: Row) -> list[Probe]:
    return [
        Probe(
            "shooting",
            {"die": PROBE_DIE, "range": "medium", "cover": row["key"]},
            f"Shooting d8 at medium range, {row['key']} cover",
        )
    ]


#: Each situation modifier's check and the parameters that bring it into play.
SITUATION_PROBES: dict[str, tuple[str, dict[str, Any], str]] = {
    "unstable_platform": (
        "shooting",
        {"range": "medium", "unstable_platform": True},
        "Shooting d8 at medium range from an unstable platform",
    ),
    "running": ("fighting", {"running": True}, "Fighting d8 after running"),
    "dark": ("shooting", {"range": "medium", "dark": True}, "Shooting d8 at medium range, dark"),
    "fog": ("shooting", {"range": "medium", "fog": True}, "Shooting d8 at medium range into fog"),
    "touch_attack": ("fighting", {"touch": True}, "Fighting d8, a touch attack"),
    "autofire": (
        "autofire",
        {"shots": 3, "range": "medium"},
        "Automatic fire, three d8 Shooting dice at medium range",
    ),
    "fanfire": (
        "autofire",
        {"shots": t.FANFIRE_MAX_SHOTS, "fanfire": True},
        "Fanfire, six d8 Shooting dice at short range",
    ),
    "off_hand": ("fighting", {"off_hand": True}, "Fighting d8 with the off hand"),
}


def _situation_probes(row: Row) -> list[Probe]:
    found = SITUATION_PROBES.get(row["key"])
    if found is None:
        return []
    check, params, label = found
    return [Probe(check, {"die": PROBE_DIE, **params}, label)]


def _swimming_probes(row: Row) -> list[Probe]:
    load = row["key"].replace("_", " ")
    return [Probe("swim", {"die": 6, "load": row["key"]}, f"Swimming d6 with {load}")]


RANGE_TABLE = _modifier_table(
    "range_modifiers",
    "Range modifiers",
    "RANGE_MODIFIERS",
    (-10, 4),
    _range_probes,
    "Shooting and throwing at each range bracket (area attacks too).",
)
COVER_TABLE = _modifier_table(
    "cover_modifiers",
    "Cover modifiers",
    "COVER_MODIFIERS",
    (-10, 4),
    _cover_probes,
    "Shooting at a target behind cover.",
)
SITUATION_TABLE = _modifier_table(
    "situation_modifiers",
    "Situation modifiers",
    "SITUATION_MODIFIERS",
    (-8, 8),
    _situation_probes,
    "Attacks in special situations: unstable platform, running, dark, fog, touch attacks, "
    "automatic fire, fanfire, the off hand.",
)
SWIMMING_TABLE = _modifier_table(
    "swimming_modifiers",
    "Swimming modifiers",
    "SWIMMING_MODIFIERS",
    (-6, 6),
    _swimming_probes,
    "Swimming with what the unit carries (normal kit: +0).",
)

# --- settings -------------------------------------------------------------------------------

#: One row per setting: its key, the constant it sets, its limits, and the probe showing it.
SETTINGS: dict[str, tuple[str, int, int, Probe]] = {
    "gang_up_max": (
        "GANG_UP_MAX",
        0,
        8,
        Probe(
            "fighting", {"die": PROBE_DIE, "gang_up": 6}, "Fighting d8 with six allies ganging up"
        ),
    ),
    "untrained_penalty": (
        "UNTRAINED_PENALTY",
        -6,
        0,
        Probe("trait", {"die": PROBE_DIE, "untrained": True}, "An untrained skill test"),
    ),
    "multi_action_penalty": (
        "MULTI_ACTION_PENALTY",
        -6,
        0,
        Probe("fighting", {"die": PROBE_DIE, "actions": 2}, "Fighting d8 as one of two actions"),
    ),
    "joker_bonus": (
        "JOKER_BONUS",
        0,
        6,
        Probe("fighting", {"die": PROBE_DIE, "joker": True}, "Fighting d8 on a Joker"),
    ),
    "mounted_toughness_bonus": (
        "MOUNTED_TOUGHNESS_BONUS",
        0,
        6,
        Probe(
            "damage",
            {"weapon": "unarmed", "strength": PROBE_DIE, "toughness": 5, "mounted_target": True},
            "Unarmed damage (Str d8) against a mounted Toughness 5",
        ),
    ),
}


def _validate_settings(rows: list[Row]) -> None:
    for index, row in enumerate(rows):
        _, low, high, _ = SETTINGS[row["key"]]
        if not low <= row["value"] <= high:
            raise PackError(
                f"must be from {low} to {high} for {row['key']}, not {row['value']}",
                row=index,
                column="value",
            )


def _setting_probes(row: Row) -> list[Probe]:
    spec = SETTINGS.get(row["key"])
    return [spec[3]] if spec else []


SETTINGS_TABLE = house_table(
    "settings",
    "Settings",
    (
        Column("key", "text", max=32),
        Column(
            "value",
            "int",
            min=-6,
            max=8,
            help="gang_up_max 0 to 8; untrained_penalty and "
            "multi_action_penalty -6 to 0; joker_bonus and mounted_toughness_bonus 0 to 6.",
        ),
    ),
    scalars({key: spec[0] for key, spec in SETTINGS.items()}, key="key"),
    fixed_rows=True,
    help="One number each: the most a gang-up adds, the untrained skill penalty (on a d4), the "
    "penalty per extra action, the Joker's bonus to trait and damage rolls, a mount's Toughness.",
    validate=_validate_settings,
    probes=_setting_probes,
)

# --- victory points -------------------------------------------------------------------------


POINTS_TABLE = house_table(
    "victory_points",
    "Victory points",
    (
        Column("key", "text", max=32),
        Column(
            "points",
            "int",
            min=-10,
            max=10,
            sheet_only="the players score the battle from the sheet, once the post-game Vigor "
            "tests say who was knocked out and who killed, and enter the points with its result",
        ),
    ),
    keyed("VICTORY_POINTS", "points"),
    fixed_rows=True,
    help="Points per unit's fate, your own and the enemy's (shown on the reference sheet).",
)

# --- what is built from a pack's snapshot ----------------------------------------------------


def built_from(tables: t.GGTables, changed: tuple[str, ...]) -> dict[str, Any]:
    """The system's parts that read the tables, built from a snapshot: the checks (their
    choices, help, resolvers and odds, and the weapon a Reload or Reach is read from), the unit
    stat schema, the action deck (a Joker's bonus), labels and starting state, the reference
    tables, the post-game procedure and the auto-resolver. (The sheet is told what `changed`
    when printed.)"""
    from functools import partial

    from rules.systems.grits_and_glory import build_checks, campaign_tables, deck
    from rules.systems.grits_and_glory.campaign import post_battle
    from rules.systems.grits_and_glory.simulate import simulate
    from rules.systems.grits_and_glory.stats import initial_state, label_text

    checks = build_checks(tables)
    return {
        "checks": checks,
        "stats": stats_schema(tables),
        "activation": deck.build_methods(tables),
        "label_text": partial(label_text, tables=tables),
        "initial_state": partial(initial_state, tables=tables),
        "tables": partial(campaign_tables, tables=tables),
        "post_battle": partial(post_battle, tables=tables),
        "simulate": partial(simulate, tables=tables, checks=checks),
    }


HOUSE = HouseSpec(
    module=TABLES_MODULE,
    tables=(
        WEAPONS_TABLE,
        RANGE_TABLE,
        COVER_TABLE,
        SITUATION_TABLE,
        SWIMMING_TABLE,
        SETTINGS_TABLE,
        POINTS_TABLE,
    ),
    built_from=built_from,
)
