"""Grits & Glory at the table: card abbreviations and weapon profiles, and the
quick-reference sheet's sections, built from the system's tables (see rencounter/reference.py
for the shape of a section).

Everything here reads the `tables` it is given (the system's `tables(options)`), so under a
house-rules pack a card shows the club's weapons and the sheet the club's values; a section
drawing on a table the pack changed (the sheet is told which) is marked `"house": True`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.printed import PrintedOnly, legend, marked
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.stats import STATS
from rules.systems.grits_and_glory.tables import SKILLS

# Stickers for the bases: a wound (each is -1 to every trait roll) and Shaken.
STICKERS = (("W", "Wound", "cw"), ("SH", "Shaken", "mw"))

SOURCE = "Grits & Glory, a Showdown conversion for pulp wargaming, by Thomas Jakobsen (2009)"

ABBREVIATIONS = {
    "figures": "Figs",
    "wild_card": "WC",
    "pace": "Pace",
    "parry": "Parry",
    "toughness": "Tough",
    "armour": "Arm",
    "agility": "Agi",
    "smarts": "Sma",
    "spirit": "Spi",
    "strength": "Str",
    "vigor": "Vig",
    "fighting": "Fgt",
    "shooting": "Sht",
    "throwing": "Thr",
    "notice": "Ntc",
    "stealth": "Stl",
    "riding": "Rid",
    "swimming": "Swm",
    "intimidation": "Int",
    "taunt": "Tnt",
    "climbing": "Clb",
    "driving": "Drv",
    "lockpicking": "Lock",
    "mounted": "Mtd",
    "causes_fear": "Fear",
}
WEAPON_HEAD = ('Range "', "Damage", "RoF", "Reload")
# What a card prints for a heading where the whole word does not fit its column (mini cards):
# "Damage" broke as "Damag" over "e".
SHORT_HEADS = {"Damage": "Dmg"}


def _by_key(tables: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {w["key"]: w for w in tables.get("weapons", [])}


def _profile(weapon: Mapping[str, Any]) -> tuple[str, ...]:
    melee = weapon["range"] == "melee"
    reach = f", Reach {weapon['reach']}" if weapon.get("reach") else ""
    reload = str(weapon["reload"]) if weapon["reload"] else "–"  # under the heading "Reload"
    return (
        ("melee" + reach) if melee else weapon["range"],
        weapon["damage"],
        str(weapon["rof"]) + (" (fanfire)" if weapon.get("fanfire") else ""),
        reload,
    )


def _named(weapon: Mapping[str, Any]) -> str:
    """The weapon's name on the sheet, marked if it may be fired in close combat (printed only:
    the player fires it there, no check does)."""
    return f"{weapon['name']} ({marked('pistol')})" if weapon.get("pistol") else str(weapon["name"])


def weapon_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    """Return (column heading, value) pairs for a weapon, or None if the tables lack it."""
    weapon = _by_key(tables).get(key)
    return tuple(zip(WEAPON_HEAD, _profile(weapon), strict=True)) if weapon else None


def weapon_legend(tables: Mapping[str, Any] | None = None) -> str:
    """What the weapon columns mean; the range modifiers are the `tables`' (else the text's)."""
    ranges = (tables or {}).get("modifiers", {}).get("range", {"medium": -2, "long": -4})
    return (
        f"Range: short/medium/long in inches ({_signed(ranges['medium'])} medium, "
        f"{_signed(ranges['long'])} long); RoF: dice per shot; Reload N: N rounds of reloading; "
        "a pistol may be fired in close combat, at the defender's Parry."
    )


def card_notes(stats: Mapping[str, Any], tables: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the unit's specials in words: Wild Card, armour, mount, fear."""
    notes = []
    if stats.get("wild_card"):
        most = t.WILD_CARD_MAX_WOUNDS
        notes.append(
            "\u2605 Wild Card: rolls a d6 Wild Die with every trait test and keeps the best; "
            f"\u22121 to every trait test per wound (\u2212{most} at {most}), removed by a "
            f"{_ordinal(most + 1)}; Shaken by every wound."
        )
    armour = int(stats.get("armour") or 0)
    if armour:
        notes.append(f"Armour {armour}: included in Toughness against damage.")
    if stats.get("mounted"):
        bonus = tables.get("modifiers", {}).get("mounted_target_toughness", 2)
        notes.append(f"Mounted: +{bonus} Toughness against attacks on it.")
    if stats.get("causes_fear"):
        notes.append(
            "Causes fear: a unit charging it, or charged by it, makes a group Spirit roll "
            "or refuses to charge (charged: is Shaken)."
        )
    untrained = [ABBREVIATIONS[s] for s in SKILLS if not stats.get(s)]
    if untrained:
        roll = _minus(tables.get("modifiers", {}).get("untrained", "d4-2"))
        notes.append(f"Untrained ({roll}): {', '.join(untrained)}.")
    return tuple(notes)


# The sheet's own numbers where no check reads them (the text's Bennies and distances).
COMMON_BENNIES, WILD_CARD_BENNIES = 3, 2
CONTROL_ZONE_INCHES = 1
FREE_OBSTACLE_INCHES = 1


def _movement_section(mods: Mapping[str, Any]) -> dict[str, Any]:
    pace = next(f.default for f in STATS.fields if f.name == "pace")
    running = mods["situation"]["running"]
    return {
        "title": "Movement",
        "items": [
            {
                "table": {
                    "caption": "",
                    "header": ["Move", "Inches"],
                    "rows": [
                        ["Pace (men)", f'{pace}"; obstacles up to {FREE_OBSTACLE_INCHES}" free'],
                        [
                            "Run",
                            f"+d{t.RUN_DIE}; {_signed(running)} to trait tests this round; "
                            f'a 1: stops after {t.RUN_STUMBLE_MOVE}" and is Shaken',
                        ],
                        [
                            "Difficult ground",
                            f"{t.DIFFICULT_GROUND_DICE}d6, the lowest (never above Pace)",
                        ],
                        ["Shaken", "half Pace, nothing else"],
                        [
                            "Control zone",
                            f'{CONTROL_ZONE_INCHES}" round an unengaged figure: '
                            "an enemy entering it must charge that figure",
                        ],
                    ],
                }
            }
        ],
    }


def _bennies_section() -> dict[str, Any]:
    return {
        "title": "Bennies",
        "items": [
            {
                "text": f"Each player starts with {COMMON_BENNIES} Bennies in a common pool; "
                f"each Wild Card has {WILD_CARD_BENNIES} of its own. A Benny rerolls any "
                "trait test (keep the best; not damage or table rolls), removes Shaken, or "
                "soaks: right after wounds, roll Vigor; a success and each raise cancel one."
            }
        ],
    }


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def card_marks(stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the one-box states a card marks: Shaken (half Pace, no other action)."""
    return ("Shaken",)


def _minus(text: str) -> str:
    """Print a minus sign as one ("d4-2" as "d4\u22122")."""
    return text.replace("-", "\u2212")


def trained_skills(stats: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the skills the unit has (the others roll untrained)."""
    return tuple(s for s in SKILLS if stats.get(s))


def track(stats: Mapping[str, Any]) -> tuple[str, int]:
    """Wild Cards: three wound boxes; Extras: a box per figure (a wound removes one)."""
    if stats.get("wild_card"):
        return "Wounds (4th removes)", 3
    return "Figures removed", int(stats.get("figures") or 1)


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


SITUATION = {
    "unstable_platform": "Unstable platform",
    "running": "Running this round",
    "dark": "Darkness",
    "fog": "Fog",
    "touch_attack": "Touch attack",
    "autofire": "Automatic fire",
    "fanfire": "Fanning a six-shooter",
    "off_hand": "Off hand",
}


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


#: Editable cells no check reads, marked on the sheet (`rules.printed`): the player fires a
#: pistol in close combat himself, and the players score victory points from the sheet.
PRINTED_ONLY = (
    PrintedOnly("weapons", "pistol", "weapons", "weapons[].pistol"),
    PrintedOnly("victory_points", "points", "victory_points", "victory_points.*"),
)

#: The editable tables (`house.py`) each section of the sheet draws on, by section title.
DRAWS_ON = {
    "Turn sequence: the action deck": ("settings",),
    "Trait tests": ("settings",),
    "Attacks": ("settings", "range_modifiers", "cover_modifiers", "situation_modifiers"),
    "Damage against Toughness": ("settings",),
    "Weapons": ("weapons",),
    "Victory points": ("victory_points",),
}


def _mark_house(sections: list[dict[str, Any]], given: Iterable[str]) -> list[dict[str, Any]]:
    """Mark each section that draws on a table the pack changed (`given`) as a house rule."""
    changed = frozenset(given)
    if changed:
        for section in sections:
            if changed.intersection(DRAWS_ON.get(section["title"], ())):
                section["house"] = True
    return sections


def sheet(
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
    changed: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Return the quick-reference sheet's sections, in reading order.

    `tables` are the system's tables under the campaign's options (and house rules);
    `changed` names the tables the campaign's pack changes (`RuleSystem.changed_tables()`),
    whose sections are marked as house rules.
    """
    return _mark_house(_sections(tables, options), changed)


def _sections(tables: Mapping[str, Any], options: Mapping[str, Any]) -> list[dict[str, Any]]:
    mods = tables["modifiers"]
    end = tables["end_game"]
    sections: list[dict[str, Any]] = [
        {
            "title": "Turn sequence: the action deck",
            "items": [
                {
                    "steps": [
                        "Deal one card from the 54-card deck to every unit.",
                        "Count down from Ace to Two: each unit acts on its card; ties go "
                        "spades, hearts, diamonds, clubs.",
                        f"A Joker acts whenever its owner likes, at {_signed(mods['joker'])} "
                        "to trait and damage rolls, and rolls a fortune (2d6).",
                        "After a round with a Joker dealt, shuffle the deck.",
                        f"From turn {end['first_roll_after_turn']}, roll a {end['die']} at "
                        "the end of each turn: on 10 the game ends (9\u201310 after turn 7, "
                        "and so on); a 1 always goes on.",
                    ]
                }
            ],
        },
        {
            "title": "Trait tests",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Roll", "Means"],
                        "rows": [
                            ["Trait die (aces: roll again and add)", "4 or more succeeds"],
                            ["Each 4 over the target", "A raise"],
                            ["Wild Card", "Also rolls a d6 Wild Die, keeps the better"],
                            [
                                "Wild Card's wounds",
                                f"\u22121 per wound to every trait test (up to "
                                f"\u2212{t.WILD_CARD_MAX_WOUNDS})",
                            ],
                            ["Untrained skill", f"Roll {mods['untrained']}"],
                            ["Each extra action this round", _signed(mods["multi_action"])],
                            ["Group roll (unit of 2+)", "One trait die and one Wild Die for all"],
                        ],
                    }
                },
                {
                    "text": "Shaken: moves at most half its Pace and takes no other action "
                    "(no running). At the start of its action the unit rolls Spirit; "
                    "failure stays Shaken, success recovers (no action), a raise recovers "
                    "and acts. A Benny removes Shaken at once."
                },
            ],
        },
        _movement_section(mods),
        _bennies_section(),
        {
            "title": "Attacks",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Attack", "Target number", "Notes"],
                        "rows": [
                            ["Fighting", "Defender's Parry", "A raise adds a d6 to damage"],
                            ["Shooting, Throwing", "4", "A natural 1 on the Shooting die: reload"],
                            ["Gang up", "+1 per extra attacker", f"At most +{mods['gang_up_max']}"],
                        ],
                    }
                },
                {
                    "table": {
                        "caption": "Shooting modifiers",
                        "header": ["Range or cover", "Modifier"],
                        "rows": [
                            *[[f"{_words(k)} range", _signed(v)] for k, v in mods["range"].items()],
                            *[
                                [f"Cover: {_words(k).lower()}", _signed(v)]
                                for k, v in mods["cover"].items()
                                if k != "none"
                            ],
                            *[
                                [SITUATION.get(k, _words(k)), _signed(v)]
                                for k, v in mods["situation"].items()
                            ],
                        ],
                    }
                },
            ],
        },
        {
            "title": "Damage against Toughness",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Damage total", "Result"],
                        "rows": [
                            ["Under Toughness", "No effect"],
                            ["Toughness or more", "Shaken"],
                            ["Each raise", "A wound: an Extra is removed; a Wild Card marks a box"],
                            ["Already Shaken and Shaken again", "A wound"],
                        ],
                    }
                },
                {
                    "text": f"Mounted targets add {mods['mounted_target_toughness']} to "
                    "Toughness. Soak: spend a Benny and roll Vigor; a success and each raise "
                    "cancel one wound."
                },
            ],
        },
        {
            "title": "Weapons",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Weapon", *WEAPON_HEAD],
                        "rows": [[_named(w), *_profile(w)] for w in tables["weapons"]],
                    }
                },
                {"text": weapon_legend(tables)},
                *([legend()] if any(w.get("pistol") for w in tables["weapons"]) else []),
            ],
        },
        {
            "title": "Fortunes (2d6 when a Joker is dealt)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["2d6", "Fortune"],
                        "rows": [[f["roll"], f["effect"]] for f in tables["fortunes"]],
                    }
                }
            ],
        },
        {
            "title": "After the game",
            "items": [
                {
                    "text": "A unit removed from play rolls Vigor: success is knocked out, "
                    "failure killed. A unit of several figures rolls as a group, +1 per figure "
                    "not removed."
                }
            ],
        },
    ]
    if options.get("victory_points", True):
        labels = {
            "survived": "Each of your units that survived",
            "on_table": "Each of your units still on the table",
            "ran_off": "Each of your units that ran off the table",
            "ko": "Each of your units knocked out",
            "killed": "Each of your units killed",
            "enemy_killed": "Each enemy unit killed",
            "enemy_ko": "Each enemy unit knocked out",
            "ally_killed": "Each allied unit killed",
        }
        sections.append(
            {
                "title": "Victory points",
                "items": [
                    {
                        "table": {
                            "caption": "",
                            "header": ["Event", marked("Points")],
                            "rows": [
                                [labels.get(k, _words(k)), _signed(v)]
                                for k, v in tables["victory_points"].items()
                            ],
                        }
                    },
                    legend(),
                ],
            }
        )
    return sections
