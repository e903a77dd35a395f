"""Escarmouche at the table: card abbreviations and weapon classes, and the quick-reference
sheet's sections, built from the system's tables (see rencounter/reference.py for the shape).

Cards and the sheet read the tables they are given (`system.tables(options)`, a club's house
rules included); a sheet section drawing on a table the pack `changed` is marked as a
house rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# A sticker per wound taken (a figure has as many wounds as its rating, or one).
STICKERS = (("W", "Wound", "cw"),)

SOURCE = (
    "Escarmouche: rules for pike & shot skirmish wargames, by Anubis Studios "
    "(Greg Hallam and Andrew Boswell)"
)

ABBREVIATIONS = {
    "rating": "Rtg",
    "wounds": "Wnd",
    "shooter": "Sht",
    "fighter": "Fgt",
    "rider": "Rid",
    "pike_trailer": "Pike",
    "artillerist": "Art",
    "leader": "Ldr",
    "mounted": "Mtd",
}
WEAPON_HEAD = ("Passive dice",)
#: What a melee weapon does in a fight, by its flags in the melee table (pike, weaponless).
MELEE_RULES = {
    (False, False): "fights normally.",
    (True, False): "in the first round against cavalry only the pike's win counts.",
    (False, True): "in a fight, swaps an active die for a passive one.",
}
#: The card's short names for the text's melee weapons; a club's own go by their label.
MELEE_NAMES = {"hand": "Hand weapon", "pike": "Pike", "none": "Weaponless"}
#: The editable tables each sheet section draws on (house.py's table names).
SECTION_TABLES = {
    "Moving": ("terrain",),
    "Shooting": ("weapons", "shooting_effects"),
    "Fighting": ("fighting_effects", "melee_weapons"),
    "Figures": ("improvement",),
}


def weapon_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    """Return the passive dice the weapon's class adds to a shot (the card's weapon name is
    the class: "Musket, heavy crossbow")."""
    for row in tables.get("weapons", []):
        if row["key"] == key:
            return (("Passive dice", f"+{row['passive_dice']}"),)
    return None


def weapon_legend() -> str:
    return "Passive dice: added to the shooter's pool; they never score, but their 1s count."


def melee_words(key: str, tables: Mapping[str, Any]) -> str:
    """The melee weapon in words, from its row in the melee table ("" for one it lacks)."""
    for row in tables.get("melee_weapons", []):
        if row["key"] == key:
            rule = MELEE_RULES.get((row["pike"], row["weaponless"]), "")
            return f"{MELEE_NAMES.get(key, row['label'])}: {rule}" if rule else ""
    return ""


def card_notes(stats: Mapping[str, Any], tables: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the figure's melee weapon and mount in words."""
    notes = [melee_words(str(stats.get("melee") or "hand"), tables)]
    if stats.get("mounted"):
        notes.append("Mounted: against foot without pikes only its win counts in round one.")
    return tuple(n for n in notes if n)


def track(stats: Mapping[str, Any]) -> tuple[str, int]:
    """One box per wound (the campaign's wounds rule fills in the stat)."""
    return "Wounds", int(stats.get("wounds") or stats.get("rating") or 1)


def _outcome_table(rows: Any, caption: str) -> dict[str, Any]:
    return {
        "table": {
            "caption": caption,
            "header": ["Beaten by", "Effect on the loser"],
            "rows": [
                [
                    r["diff"],
                    r["label"]
                    + (f" ({r['hits']} hits)" if "hits" in r and r["hits"] not in ("1",) else ""),
                ]
                for r in rows
            ],
        }
    }


def sheet(
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
    changed: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Return the quick-reference sheet's sections, in reading order."""
    sections: list[dict[str, Any]] = [
        {
            "title": "The dice pool",
            "items": [
                {
                    "steps": [
                        "Roll active and passive d6s together.",
                        "Score: the highest active die, +1 for each further six (6, 6, 2 "
                        "scores 7). Passive dice never score.",
                        "A 1 on any die, active or passive, risks the initiative.",
                        "Opposed rolls: the defender rolls as many dice as its rating (in a "
                        "fight, its Fighter skill if better, and any outnumbering bonus); the "
                        "higher score wins; a tie goes to the higher rating.",
                    ]
                }
            ],
        },
        {
            "title": "Turn sequence: initiative",
            "items": [
                {
                    "text": "The side with the initiative acts one figure at a time. A figure "
                    "keeps acting, its pool growing, until a 1 stops it."
                },
                {
                    "table": {
                        "caption": "",
                        "header": ["Dice show", "Means"],
                        "rows": [
                            ["No 1", "The figure may act again"],
                            ["A single 1", "The figure's go ends; act with another figure"],
                            [
                                "Two 1s, or the side's second 1",
                                "The side's turn ends: the initiative passes",
                            ],
                        ],
                    }
                },
            ],
        },
        {
            "title": "Actions",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Action", "Dice"],
                        "rows": [
                            [
                                "Develop (any other action)",
                                "Always happens; +1 active die to the pool",
                            ],
                            ["Move", "Pool so far + the ground's passive dice"],
                            ["Marshal", "Move figures in sight; the 1s decide who ends"],
                            ["Shoot", "Pool + 1 active + the weapon's passive dice"],
                            ["Fight", "Pool + 1 active, +1 per extra attacker"],
                            ["Reserve", "End the go keeping an active die to interrupt"],
                            [
                                "Volley",
                                "An active die per other shooter; slowest weapon's passive dice",
                            ],
                            ["Artillery", "Cannon's passive dice + Artillerist active dice"],
                        ],
                    }
                },
                {
                    "text": "Skills: Shooter (when shooting) and Leader (directing a volley) roll "
                    "that many passive dice as active; Artillerist adds active dice to a "
                    "cannon's shot."
                },
            ],
        },
        {
            "title": "Moving",
            "items": [
                {
                    "text": "Movement is unmeasured: a figure goes any distance in a straight "
                    "line through one kind of ground, and stops where the ground changes or "
                    "at an enemy's zone of control (one base width), from where it may start "
                    "a fight (moving into contact is free)."
                },
                {
                    "table": {
                        "caption": "",
                        "header": ["Ground", "Passive dice"],
                        "rows": [
                            [r["label"], str(r["passive_dice"])] for r in tables["move_terrain"]
                        ],
                    }
                },
                {
                    "table": {
                        "caption": "Marshalling: the 1s rolled",
                        "header": ["1s", "Result"],
                        "rows": [[str(r["ones"]), r["meaning"]] for r in tables["marshal"]],
                    }
                },
            ],
        },
        {
            "title": "Shooting",
            "items": [
                {
                    "table": {
                        "caption": "Weapon classes",
                        "header": ["Weapon", "Passive dice"],
                        "rows": [[r["label"], f"+{r['passive_dice']}"] for r in tables["weapons"]],
                    }
                },
                {
                    "text": "Each of these swaps an active die for a passive one: "
                    + "; ".join(p.lower() for p in tables["shooting_penalties"])
                    + "."
                },
                _outcome_table(tables["shooting_effects"], "Shooting: the target beaten by"),
            ],
        },
        {
            "title": "Fighting",
            "items": [
                {
                    "text": "Each of these swaps an active die for a passive one: "
                    + "; ".join(p.lower() for p in tables["fighting_penalties"])
                    + "."
                },
                _outcome_table(tables["fighting_effects"], "Fighting: the loser beaten by"),
                {
                    "text": "Pike against cavalry: in the first round only the pike's win "
                    "counts; massed pikes add an active die per pikeman in contact."
                },
            ],
        },
        {
            "title": "Figures",
            "items": [
                {
                    "table": {
                        "caption": "Ratings",
                        "header": ["Rating", "Troops"],
                        "rows": [[str(r["rating"]), r["type"]] for r in tables["ratings"]],
                    }
                },
                {"text": f"Wounds: {tables['wounds']['meaning']} (campaign option)."},
            ],
        },
    ]
    marked = set(changed)  # the tables the club's pack changed (`RuleSystem.changed_tables()`)
    for section in sections:
        if marked & set(SECTION_TABLES.get(section["title"], ())):
            section["house"] = True
    campaign = tables.get("house_rules")
    if campaign:
        sections.append(
            {
                "title": "Campaign: improvement and wounds",
                "house": True,
                "items": [
                    {
                        "table": {
                            "caption": "Improvement after a battle",
                            "header": ["Stat", "Die", "Rule"],
                            "rows": [
                                [r["stat"].capitalize(), r["die"], r["rule"]]
                                for r in campaign["improvement"]
                            ],
                        }
                    },
                    {
                        "table": {
                            "caption": "Wound aftermath: a d6 per wound",
                            "header": ["d6", "The wound"],
                            "rows": [
                                [r["d6"] if r["d6"] != "-" else "Any", r["result"].capitalize()]
                                for r in campaign["wound_aftermath"]
                            ],
                        }
                    },
                ],
            }
        )
    return sections
