"""A demo force of ten figures (or units) per rule system, as printing's plain data.

Fixed data rather than the database, so the text checks and the visual references render the
same pages on every machine: armed figures with the system's weapons, a Wild Card, an officer,
permanent wounds, one recovering and one dead figure (absent from unit cards by default).
"""

from __future__ import annotations

from typing import Any

from printing.figures import FigureData
from rules.system import get_system

NAMES = (
    ("Gridley", "Sergeant"),
    ("Tom Pike", ""),
    ("Ned Fletcher", ""),
    ("Will Cooper", "Corporal"),
    ("Harry Mason", ""),
    ("Jack Thatcher", ""),
    ("Bartholomew Featherstonehaugh-Smythe", "Lieutenant"),
    ("Sam Wheeler", ""),
    ("Dick Turner", ""),
    ("Joe Carter", ""),
)
UNITS = ("First Section", "Second Section")
# Figure 3 (Will Cooper) is dead, figure 5 recovering; the rest are active.
STATES = {3: ("DEAD", "Dead"), 5: ("RECOVERING", "Recovering")}

STATS: dict[str, list[dict[str, Any]]] = {
    "rencounter": [
        {
            "experience": 5,
            "fire": 9,
            "melee": 9,
            "armour": 1,
            "weapons": ["matchlock_musket", "sword"],
        },
        {"experience": 4, "fire": 8, "melee": 7, "weapons": ["matchlock_musket", "spear"]},
        {"experience": 3, "fire": 7, "melee": 8, "weapons": ["long_bow", "knife"]},
        {"experience": 4, "fire": 8, "melee": 8, "weapons": ["flintlock_pistol", "sword"]},
        {"experience": 4, "fire": 8, "melee": 8, "shield": "small_medium", "weapons": ["axe"]},
        {"experience": 2, "fire": 6, "melee": 6, "weapons": ["javelin", "club"]},
        {
            "experience": 6,
            "fire": 10,
            "melee": 10,
            "armour": 2,
            "horsemanship": 6,
            "weapons": ["cap_and_ball_revolver", "sword"],
        },
        {"experience": 4, "fire": 8, "melee": 8, "weapons": ["pike"]},
        {"experience": 3, "fire": 9, "melee": 6, "weapons": ["heavy_crossbow", "knife"]},
        {"experience": 4, "fire": 8, "melee": 8, "weapons": ["halberd"]},
    ],
    "grits_and_glory": [
        {
            "wild_card": True,
            "fighting": 8,
            "shooting": 8,
            "notice": 8,
            "intimidation": 6,
            "weapons": ["six_shooter", "sabre"],
            "parry": 6,
            "toughness": 6,
        },
        {"figures": 4, "weapons": ["rifle", "knife"]},
        {"figures": 3, "weapons": ["musket", "club"], "riding": 6, "mounted": True},
        {"figures": 5, "weapons": ["shotgun"]},
        {"figures": 2, "weapons": ["bow", "spear"], "stealth": 8},
        {"figures": 6, "weapons": ["machine_gun"], "armour": 2},
        {
            "wild_card": True,
            "weapons": ["auto_pistol", "great_weapon"],
            "causes_fear": True,
            "lockpicking": 6,
        },
        {"figures": 3, "weapons": ["derringer", "thrown_knife"]},
        {"figures": 4, "weapons": ["grenade", "axe"]},
        {"figures": 1, "weapons": ["lance"], "mounted": True, "riding": 8},
    ],
    "escarmouche": [
        {"rating": 4, "leader": 2, "shooter": 1, "weapons": ["carbine"], "melee": "hand"},
        {"rating": 3, "shooter": 1, "weapons": ["musket"]},
        {"rating": 3, "pike_trailer": 2, "melee": "pike"},
        {"rating": 3, "fighter": 1, "weapons": ["carbine"]},
        {"rating": 2, "weapons": ["short_bow"]},
        {"rating": 2, "weapons": ["thrown"], "melee": "none"},
        {"rating": 5, "rider": 2, "fighter": 2, "mounted": True, "weapons": ["carbine"]},
        {"rating": 3, "artillerist": 2, "weapons": ["cannon"]},
        {"rating": 3, "shooter": 2, "weapons": ["musket"]},
        {"rating": 1},
    ],
    "d12_skirmish": [
        {
            "troop": "veteran",
            "officer": True,
            "weapons": ["pistol", "sword"],
            "ability": "dead_eye",
        },
        {"troop": "regular", "weapons": ["rifled_musket", "bayonet"]},
        {"troop": "regular", "weapons": ["rifled_musket", "bayonet"], "ability": "quick_loader"},
        {"troop": "raw", "weapons": ["carbine"], "mount": "cavalry"},
        {"troop": "elite", "weapons": ["shotgun"], "ability": "tough"},
        {"troop": "regular", "weapons": ["rifled_musket"], "ability": "yella"},
        {
            "troop": "elite",
            "officer": True,
            "weapons": ["pistol", "sword"],
            "mount": "cavalry",
            "ability": "fast_mover",
        },
        {"troop": "veteran", "weapons": ["carbine"], "loading": "breechloader"},
        {"troop": "regular", "weapons": ["rifled_musket", "bayonet"], "ability": "twitchy"},
        {"troop": "raw", "weapons": ["pistol"], "loading": "repeater"},
    ],
    "game_the_90": [
        {"type": "knights"},
        {"type": "foot_knights"},
        {"type": "serjeants"},
        {"type": "bowmen", "missiles": "bows"},
        {"type": "lights", "missiles": "javelins", "hits": 4},
        {"type": "lights", "missiles": "bows", "out_of_missiles": True},
        {"type": "knights", "hits": 9},
        {"type": "serjeants"},
        {"type": "bowmen", "missiles": "bows"},
        {"type": "foot_knights", "hits": 2},
    ],
}
PERMANENT = {1: ("Lost two fingers: \u22121 fire",), 6: ('Limp: \u22121" move', "Scarred face")}


def demo_figures(key: str) -> list[FigureData]:
    """Return the system's ten demo figures, validated by the system's own schema."""
    system = get_system(key)
    figures = []
    for n, ((name, rank), raw) in enumerate(zip(NAMES, STATS[key], strict=True)):
        state, status = STATES.get(n, ("ACTIVE", "Active"))
        figures.append(
            FigureData(
                name=name,
                stats=system.stats.validate(raw),
                rank=rank,
                unit=UNITS[n // 5],
                status=status if state != "ACTIVE" else "",
                permanent_wounds=PERMANENT.get(n, ()),
                state=state,
                unit_id=n // 5 + 1,
                battles=n % 4 + 1,
                kills=(n * 3) % 5,
                recovers_on="1643-06-12" if state == "RECOVERING" else "",
                qr_url=f"https://muster.example/characters/{n + 1}/",
            )
        )
    return figures


def demo_force(key: str) -> dict[str, str]:
    system = get_system(key)
    return {
        "name": "Gridley's Company",
        "faction": "Kingsmen",
        "campaign": f"{system.name} demo campaign",
        "campaign_date": "1643-05-20",
        "owner": "alice",
    }
