"""The d12 skirmish game's tables as data: troop types, weapons, modifiers, results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TROOP_TYPES = (("elite", "Elite"), ("veteran", "Veteran"), ("regular", "Regular"), ("raw", "Raw"))
TROOP_NAMES = dict(TROOP_TYPES)
TROOP_MODIFIER = {"elite": 2, "veteran": 1, "regular": 0, "raw": -1}
#: The order troop types improve in under the house campaign rules.
TROOP_LADDER = ("raw", "regular", "veteran", "elite")
#: Character generation: d12 bands for troop type, and for the field the figure is expert in.
TROOP_TYPE_TABLE = ((12, 12, "elite"), (10, 11, "veteran"), (2, 9, "regular"), (1, 1, "raw"))
EXPERTISE_TABLE = ((1, 6, "combat"), (7, 12, "shooting"))
EXPERTISE = (
    ("all", "Both (basic rules)"),
    ("combat", "Combat expert"),
    ("shooting", "Shooting expert"),
)
#: A figure expert in one field takes one less in the other (the "+2/+1" of the table).
OFF_FIELD_PENALTY = 1

ABILITIES: tuple[tuple[int, str, str, str], ...] = (
    (1, "expert_skirmisher", "Expert Skirmisher", "-1 to hit it when shot at"),
    (2, "combat_expert", "Combat Expert", "+2 hand to hand"),
    (3, "dead_eye", "Dead Eye", "+1 shooting"),
    (4, "tough", "Tough as old boots", "-1 to wound rolls against it"),
    (5, "quick_loader", "Quick loader", "may move and reload"),
    (6, "loyal", "Loyal to the cause", "+1 morale"),
    (7, "runner", "Runner", "may run 3 turns in a row"),
    (8, "fast_mover", "Fast mover", '+1" move, +2" cavalry'),
    (9, "yella", "Yella", "-1 morale"),
    (10, "shot_in_the_leg", "Shot in the leg", '-1" move, -2" cavalry'),
    (11, "twitchy", "Twitchy shooting arm", "-1 shooting"),
    (12, "campaign_wound", "Campaign wound", "-1 wound"),
)
ABILITY_BY_ROLL = {roll: key for roll, key, _, _ in ABILITIES}
ABILITY_NAMES = {key: name for _, key, name, _ in ABILITIES}
ABILITY_CHOICES = (("none", "None"), *((key, name) for _, key, name, _ in ABILITIES))

MOUNTS = (("foot", "Foot"), ("cavalry", "Cavalry"))
MOVE_INCHES = {"foot": 5, "cavalry": 10}
ABILITY_MOVE = {
    "fast_mover": {"foot": 1, "cavalry": 2},
    "shot_in_the_leg": {"foot": -1, "cavalry": -2},
}
RUN_TURNS = 2
RUNNER_TURNS = 3
TERRAIN_MOVE = (
    ("Dense woods", "half"),
    ("River", "half"),
    ('Walls / hedges under 2"', "half"),
    ("Entering a building", "half"),
    ("Cavalry when wounded", "half"),
    ("Foot when wounded", '-1" per wound'),
    ("Light woods", "quarter"),
    ("Stream", "quarter"),
)

#: Weapon ranges in inches: close, medium, extreme (None: the weapon has no such band).
FIREARMS: dict[str, tuple[int | None, int | None, int | None]] = {
    "rifled_musket": (10, 20, 40),
    "carbine": (6, 12, 24),
    "shotgun": (6, None, 10),
    "pistol": (6, 10, None),
}
FIREARM_NAMES = {
    "rifled_musket": "Rifled musket",
    "carbine": "Carbine",
    "shotgun": "Shotgun",
    "pistol": "Pistol",
}
MELEE_WEAPONS = {"sword": 2, "bayonet": 1}
#: Weapons that can take a bayonet (the text does not say; long arms only).
BAYONET_ARMS = frozenset({"rifled_musket", "carbine"})
WEAPON_CHOICES = (*FIREARM_NAMES.items(), ("sword", "Sword"), ("bayonet", "Bayonet"))
LOADING = (
    ("muzzle", "Muzzle-loader (reloads a turn)"),
    ("breechloader", "Breechloader"),
    ("repeater", "Repeater"),
)
FIRES_EVERY_TURN = frozenset({"breechloader", "repeater"})

HIT_ON = 6
MISFIRE_FACE = 1
COVER = (("none", "None"), ("soft", "Soft cover"), ("hard", "Hard cover"))
COVER_MODIFIER = {"none": 0, "soft": -1, "hard": -2}
RANGES = (("close", "Close"), ("medium", "Medium"), ("extreme", "Extreme"))
RANGE_MODIFIER = {"close": 0, "medium": -1, "extreme": -2}
MAX_OBSTACLES = 3
OBSTACLE_MODIFIER = -1
CRAWLING_MODIFIER = -2
RUNNING_MODIFIER = -2
PER_WOUND = -1
ABILITY_SHOOTING = {"dead_eye": 1, "twitchy": -1}
EXPERT_SKIRMISHER = -1

#: Misfire table; the text leaves out a 4, read here as part of "out of ammo" (2-4).
MISFIRE_TABLE = ((1, 1, "explodes"), (2, 4, "out_of_ammo"), (5, 8, "jammed"), (9, 12, "bad_powder"))
#: Muster's reading where the text is ambiguous, shown with the tables (docs/rules/).
READINGS = (
    "Muster's reading: the misfire table skips 4; a 4 counts as out of ammo (2-4), since the "
    "other bands are blocks of four (5-8, 9-12).",
)

#: Wound tables, on the d12 after modifiers (a natural 12 always kills).
FOOT_WOUNDS = ((12, 12, "dead"), (10, 11, "two_wounds"), (3, 9, "one_wound"), (1, 2, "pinned"))
CAVALRY_WOUNDS = (
    (12, 12, "dead"),
    (10, 11, "two_wounds"),
    (5, 9, "one_wound"),
    (3, 4, "one_wound"),
    (1, 2, "pinned"),
)
#: Cavalry bands that throw the rider, and what a thrown roll of THROWN_ON+ adds.
THROWN = {(10, 11): "dead", (5, 9): "one_wound"}
THROWN_ON = 10
CLOSE_RANGE_WOUND_BONUS = 1
TOUGH_WOUND_MODIFIER = -1
WOUNDS_BY_RESULT = {"dead": 0, "two_wounds": 2, "one_wound": 1, "pinned": 0}

H2H_SWORD, H2H_BAYONET = MELEE_WEAPONS["sword"], MELEE_WEAPONS["bayonet"]
H2H_CHARGED = 1
H2H_COVER = 1
H2H_PER_ATTACKER = 1
H2H_CAVALRY = 1
COMBAT_EXPERT = 2
#: Hand-to-hand results by how much the winner beat the loser.
H2H_EFFECTS = ((1, 2, 1), (3, 4, 2), (5, 5, 2))
H2H_DEADLY_DIFFERENCE = 5  # two wounds and a d12: DEADLY_ON+ kills
H2H_DEADLY_ON = 6
H2H_KILLS_FROM = 6

MORALE_TABLE = ((None, 4, "panic"), (5, 6, "retreat"), (7, None, "continue"))
COVER_REROLL_BAND = (3, 4)
COVER_REROLL_PASS = 6
MORALE_CAVALRY_CHARGE = -1
MORALE_CHARGED_UNLOADED = -1
MORALE_OFFICER_KILLED = -1
MORALE_IN_COVER = 1
MORALE_OFFICER_IN_SIGHT = 1
ABILITY_MORALE = {"loyal": 1, "yella": -1}
MORALE_TRIGGERS = (
    "25% losses of the unit",
    "wounded (one test a turn)",
    "charged",
    'friendly model killed within 12" in sight',
    'officer or squad leader panics within 6" in sight',
)
FAILED_TESTS_TO_REMOVE = 2
OFFICER_LOSS_ON = 12

WOUNDS_UNIT_GAME = 1
WOUNDS_OFFICER = 2
WOUNDS_INDIVIDUAL_GAME = 3


def band(table: tuple[tuple[int | None, int | None, str], ...] | Any, value: int) -> str:
    """Return the result of the band of `table` that `value` falls in (open ends allowed)."""
    for low, high, result in table:
        if (low is None or value >= low) and (high is None or value <= high):
            return str(result)
    raise ValueError(f"{value} falls in no band")


def _bands(table: Any) -> list[dict[str, Any]]:
    return [{"low": lo, "high": hi, "result": r} for lo, hi, r in table]


def _shooting_modifiers() -> dict[str, int]:
    return {
        **{f"troop: {TROOP_NAMES[k]}": v for k, v in TROOP_MODIFIER.items()},
        "hard cover": COVER_MODIFIER["hard"],
        "soft cover": COVER_MODIFIER["soft"],
        "each obstacle (up to 3)": OBSTACLE_MODIFIER,
        "target crawling": CRAWLING_MODIFIER,
        "target running": RUNNING_MODIFIER,
        "each wound": PER_WOUND,
        **{f"{k} range": v for k, v in RANGE_MODIFIER.items()},
    }


def _hand_to_hand() -> dict[str, Any]:
    return {
        "modifiers": {
            **{TROOP_NAMES[k]: v for k, v in TROOP_MODIFIER.items()},
            "sword": H2H_SWORD,
            "bayonet": H2H_BAYONET,
            "each wound": PER_WOUND,
            "charged": H2H_CHARGED,
            "defending cover": H2H_COVER,
            "each additional attacker": H2H_PER_ATTACKER,
            "cavalry": H2H_CAVALRY,
        },
        "effects_by_difference": [
            {"difference": "1-2", "effect": "1 wound"},
            {"difference": "3-4", "effect": "2 wounds"},
            {"difference": "5", "effect": "2 wounds, d12 6+ dead"},
            {"difference": "6+", "effect": "dead"},
        ],
        "tie": "no effect",
    }


def _morale() -> dict[str, Any]:
    return {
        "triggers": list(MORALE_TRIGGERS),
        "table": _bands(MORALE_TABLE),
        "in_cover_reroll": {
            "on": list(COVER_REROLL_BAND),
            "continue_on": COVER_REROLL_PASS,
            "else": "pinned",
        },
        "modifiers": {
            "per wound": PER_WOUND,
            "charged by cavalry": MORALE_CAVALRY_CHARGE,
            "charged with weapon unloaded": MORALE_CHARGED_UNLOADED,
            **{TROOP_NAMES[k]: v for k, v in TROOP_MODIFIER.items()},
            "officer/standard killed": MORALE_OFFICER_KILLED,
            "in cover": MORALE_IN_COVER,
            "officer/standard in sight": MORALE_OFFICER_IN_SIGHT,
        },
        "removed_after_failed_in_a_row": FAILED_TESTS_TO_REMOVE,
        "officer_killed_per_kill_on": OFFICER_LOSS_ON,
    }


def _wounds(options: Mapping[str, Any]) -> dict[str, Any]:
    if options.get("game", "unit") == "individual":
        return {"every figure": WOUNDS_INDIVIDUAL_GAME}
    return {"figure": WOUNDS_UNIT_GAME, "officer": WOUNDS_OFFICER}


def _campaign(options: Mapping[str, Any]) -> dict[str, Any]:
    if not options.get("house_campaign", False):
        return {"house_rules": False}
    return {
        "house_rules": True,
        "label": "Muster house rules (adapted from Rencounter)",
        "improvement": "d12 over the troop type's top face on the troop table steps it up",
        "troop_steps": list(TROOP_LADDER),
        "wound_aftermath": "d6 per wound: 1 sepsis, 2 permanent, 3-6 healed",
        "care": options.get("aftermath_care", "none"),
        "hazard": options.get("aftermath_hazard", 0),
    }


def reference_tables(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return every reference table as JSON, reflecting the campaign options."""
    return {
        "turn": ["initiative (d12 each, high chooses)", "move", "shoot", "hand to hand", "morale"],
        "wounds": _wounds(options),
        "movement": {
            "inches": MOVE_INCHES,
            "crawl": "half",
            "run_or_charge": "double",
            "run_turns_in_a_row": RUN_TURNS,
            "terrain": dict(TERRAIN_MOVE),
        },
        "weapons": {
            FIREARM_NAMES[k]: dict(zip(("close", "medium", "extreme"), r, strict=True))
            for k, r in FIREARMS.items()
        },
        "reload": {"muzzle": "one turn", "breechloader/repeater": "fire every turn"},
        "to_hit": {"d12 needs": HIT_ON, "natural 1": "misfire", "modifiers": _shooting_modifiers()},
        "misfire": _bands(MISFIRE_TABLE),
        "readings": list(READINGS),
        "wounding": {
            "foot": _bands(FOOT_WOUNDS),
            "cavalry": _bands(CAVALRY_WOUNDS),
            "cavalry thrown (d12 10+)": {"10-11": "dead", "5-9": "one more wound"},
            "close range": CLOSE_RANGE_WOUND_BONUS,
            "natural 12": "dead",
        },
        "hand_to_hand": _hand_to_hand(),
        "morale": _morale(),
        "troop_type": {
            "table": _bands(TROOP_TYPE_TABLE),
            "expertise": _bands(EXPERTISE_TABLE),
            "off_field_penalty": OFF_FIELD_PENALTY,
        },
        "abilities": [{"roll": r, "ability": n, "effect": e} for r, _, n, e in ABILITIES],
        "campaign": _campaign(options),
    }
