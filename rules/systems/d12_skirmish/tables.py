"""The d12 skirmish game's tables as data: troop types, weapons, modifiers, results.

The tables a club may edit (`house.py`: firearms, melee weapons, abilities, troop types, range
and cover modifiers, the misfire and wound tables, the number to hit) are not module
attributes: they are the fields of one frozen snapshot, `D12Tables`, whose values as written
are `BASE`. A check, sheet or procedure is built from a snapshot and reads its tables there
(`RuleSystem.with_house` builds a club's snapshot with `dataclasses.replace`). The fields keep
the tables' constant names (`tables.HIT_ON`), which are what a pack's tables build.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: A result band: lowest and highest score (None: open-ended) and the result.
Band = tuple[int | None, int | None, str]
#: A band of a table over the d12's faces (misfire, wounds): closed at both ends.
DieBand = tuple[int, int, str]
#: A firearm's range bands in inches: close, medium, extreme (None: it has no such band).
Ranges = tuple[int | None, int | None, int | None]


def choice_constants(prefix: str, rows: Iterable[tuple[str, str, int]]) -> dict[str, Any]:
    """A keyed modifier table's constants: `<prefix>S` choices, names and modifiers by key.

    Troop types give TROOP_TYPES, TROOP_NAMES and TROOP_MODIFIER; ranges and cover give their
    choices (RANGES, COVER) and modifiers the same way.
    """
    rows = tuple(rows)
    plural = {"TROOP": "TROOP_TYPES", "RANGE": "RANGES", "COVER": "COVER"}[prefix]
    constants: dict[str, Any] = {
        plural: tuple((key, name) for key, name, _ in rows),
        f"{prefix}_MODIFIER": {key: modifier for key, _, modifier in rows},
    }
    if prefix == "TROOP":
        constants["TROOP_NAMES"] = {key: name for key, name, _ in rows}
    return constants


def ability_constants(abilities: Iterable[tuple[int, str, str, str]]) -> dict[str, Any]:
    """The ability table and what is looked up in it: by roll, names, the stat's choices."""
    rows = tuple(abilities)
    return {
        "ABILITIES": rows,
        "ABILITY_BY_ROLL": {roll: key for roll, key, _, _ in rows},
        "ABILITY_NAMES": {key: name for _, key, name, _ in rows},
        "ABILITY_CHOICES": (("none", "None"), *((key, name) for _, key, name, _ in rows)),
    }


_TROOPS = (
    ("elite", "Elite", 2),
    ("veteran", "Veteran", 1),
    ("regular", "Regular", 0),
    ("raw", "Raw", -1),
)
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

_ABILITIES: tuple[tuple[int, str, str, str], ...] = (
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

LOADING = (
    ("muzzle", "Muzzle-loader (reloads a turn)"),
    ("breechloader", "Breechloader"),
    ("repeater", "Repeater"),
)
FIRES_EVERY_TURN = frozenset({"breechloader", "repeater"})

MISFIRE_FACE = 1
MAX_OBSTACLES = 3
OBSTACLE_MODIFIER = -1
CRAWLING_MODIFIER = -2
RUNNING_MODIFIER = -2
PER_WOUND = -1
ABILITY_SHOOTING = {"dead_eye": 1, "twitchy": -1}
EXPERT_SKIRMISHER = -1

#: Muster's reading where the text is ambiguous, shown with the tables (docs/rules/).
READINGS = (
    "Muster's reading: the misfire table skips 4; a 4 counts as out of ammo (2-4), since the "
    "other bands are blocks of four (5-8, 9-12).",
)

#: A thrown rider's d12 (see THROWN) makes the result worse on this or more.
THROWN_ON = 10
CLOSE_RANGE_WOUND_BONUS = 1
TOUGH_WOUND_MODIFIER = -1
WOUNDS_BY_RESULT = {"dead": 0, "two_wounds": 2, "one_wound": 1, "pinned": 0}

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

#: The editable tables as written: the fields of `BASE`.
_EDITABLE: dict[str, Any] = {
    **choice_constants("TROOP", _TROOPS),
    **ability_constants(_ABILITIES),
    #: Weapon ranges in inches: close, medium, extreme (None: the weapon has no such band).
    "FIREARMS": {
        "rifled_musket": (10, 20, 40),
        "carbine": (6, 12, 24),
        "shotgun": (6, None, 10),
        "pistol": (6, 10, None),
    },
    "FIREARM_NAMES": {
        "rifled_musket": "Rifled musket",
        "carbine": "Carbine",
        "shotgun": "Shotgun",
        "pistol": "Pistol",
    },
    #: Firearms that can take a bayonet (the text does not say; long arms only).
    "BAYONET_ARMS": frozenset({"rifled_musket", "carbine"}),
    #: Firearms that fire every turn whatever the figure's loading (none as written; a club's
    #: repeating rifle).
    "FIREARMS_EVERY_TURN": frozenset(),
    "MELEE_WEAPONS": {"sword": 2, "bayonet": 1},
    "MELEE_NAMES": {"sword": "Sword", "bayonet": "Bayonet"},
    "HIT_ON": 6,
    **choice_constants(
        "RANGE", (("close", "Close", 0), ("medium", "Medium", -1), ("extreme", "Extreme", -2))
    ),
    **choice_constants(
        "COVER", (("none", "None", 0), ("soft", "Soft cover", -1), ("hard", "Hard cover", -2))
    ),
    #: Misfire table; the text leaves out a 4, read here as part of "out of ammo" (2-4).
    "MISFIRE_TABLE": (
        (1, 1, "explodes"),
        (2, 4, "out_of_ammo"),
        (5, 8, "jammed"),
        (9, 12, "bad_powder"),
    ),
    #: Wound tables, on the d12 after modifiers (a natural 12 always scores 12).
    "FOOT_WOUNDS": (
        (12, 12, "dead"),
        (10, 11, "two_wounds"),
        (3, 9, "one_wound"),
        (1, 2, "pinned"),
    ),
    "CAVALRY_WOUNDS": (
        (12, 12, "dead"),
        (10, 11, "two_wounds"),
        (5, 9, "one_wound"),
        (3, 4, "one_wound"),
        (1, 2, "pinned"),
    ),
    #: Cavalry bands that make the rider roll to be thrown, and the result a thrown roll of
    #: THROWN_ON or more makes (10-11 dead; 5-9 one more wound, i.e. two wounds).
    "THROWN": {(10, 11): "dead", (5, 9): "two_wounds"},
}


@dataclass(frozen=True, eq=False)
class D12Tables:
    """Every editable table, as one snapshot: the checks, sheet, stats and auto-resolve read
    them here. Compared and hashed by identity: a snapshot is built once per pack, so caches
    of work done with it key on the snapshot itself."""

    TROOP_TYPES: tuple[tuple[str, str], ...]
    TROOP_NAMES: dict[str, str]
    TROOP_MODIFIER: dict[str, int]
    ABILITIES: tuple[tuple[int, str, str, str], ...]
    ABILITY_BY_ROLL: dict[int, str]
    ABILITY_NAMES: dict[str, str]
    ABILITY_CHOICES: tuple[tuple[str, str], ...]
    FIREARMS: dict[str, Ranges]
    FIREARM_NAMES: dict[str, str]
    BAYONET_ARMS: frozenset[str]
    FIREARMS_EVERY_TURN: frozenset[str]
    MELEE_WEAPONS: dict[str, int]
    MELEE_NAMES: dict[str, str]
    HIT_ON: int
    RANGES: tuple[tuple[str, str], ...]
    RANGE_MODIFIER: dict[str, int]
    COVER: tuple[tuple[str, str], ...]
    COVER_MODIFIER: dict[str, int]
    MISFIRE_TABLE: tuple[DieBand, ...]
    FOOT_WOUNDS: tuple[DieBand, ...]
    CAVALRY_WOUNDS: tuple[DieBand, ...]
    THROWN: dict[tuple[int, int], str]


#: The tables as the text has them.
BASE = D12Tables(**_EDITABLE)


def weapon_choices(tables: D12Tables) -> tuple[tuple[str, str], ...]:
    """Every weapon a figure may carry: the firearms, then the hand-to-hand weapons."""
    return (*tables.FIREARM_NAMES.items(), *tables.MELEE_NAMES.items())


def band(table: tuple[tuple[int | None, int | None, str], ...] | Any, value: int) -> str:
    """Return the result of the band of `table` that `value` falls in (open ends allowed)."""
    for low, high, result in table:
        if (low is None or value >= low) and (high is None or value <= high):
            return str(result)
    raise ValueError(f"{value} falls in no band")


def _bands(table: Any) -> list[dict[str, Any]]:
    return [{"low": lo, "high": hi, "result": r} for lo, hi, r in table]


def _named(name: str) -> str:
    """A table's name as it reads inside a sentence ("Soft cover" -> "soft cover")."""
    return name[:1].lower() + name[1:]


def _shooting_modifiers(tables: D12Tables) -> dict[str, int]:
    cover_names = dict(tables.COVER)
    cover = [
        (key, modifier)
        for key, modifier in tables.COVER_MODIFIER.items()
        if key != "none" or modifier  # no cover is no modifier unless a club says otherwise
    ]
    return {
        **{f"troop: {tables.TROOP_NAMES[k]}": v for k, v in tables.TROOP_MODIFIER.items()},
        **{_named(cover_names[k]): v for k, v in reversed(cover)},
        "each obstacle (up to 3)": OBSTACLE_MODIFIER,
        "target crawling": CRAWLING_MODIFIER,
        "target running": RUNNING_MODIFIER,
        "each wound": PER_WOUND,
        **{f"{_named(name)} range": tables.RANGE_MODIFIER[k] for k, name in tables.RANGES},
    }


def _hand_to_hand(tables: D12Tables) -> dict[str, Any]:
    melee_names = tables.MELEE_NAMES
    return {
        "modifiers": {
            **{tables.TROOP_NAMES[k]: v for k, v in tables.TROOP_MODIFIER.items()},
            **{_named(melee_names[k]): v for k, v in tables.MELEE_WEAPONS.items()},
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


def _morale(tables: D12Tables) -> dict[str, Any]:
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
            **{tables.TROOP_NAMES[k]: v for k, v in tables.TROOP_MODIFIER.items()},
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


def _face_span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _thrown(tables: D12Tables) -> dict[str, str]:
    """Which cavalry wound bands throw the rider on THROWN_ON+, and what that makes of it."""
    cavalry = tables.CAVALRY_WOUNDS
    thrown = {}
    for (low, high), after in tables.THROWN.items():
        if after == "dead":
            words = "dead"
        elif after == "two_wounds" and band(cavalry, low) == "one_wound":
            words = "one more wound"
        else:
            words = after.replace("_", " ")
        thrown[_face_span(low, high)] = words
    return thrown


def _natural_12(tables: D12Tables) -> Any:
    foot, cavalry = band(tables.FOOT_WOUNDS, 12), band(tables.CAVALRY_WOUNDS, 12)
    return foot if foot == cavalry else {"foot": foot, "cavalry": cavalry}


def _wounding(tables: D12Tables) -> dict[str, Any]:
    return {
        "foot": _bands(tables.FOOT_WOUNDS),
        "cavalry": _bands(tables.CAVALRY_WOUNDS),
        f"cavalry thrown (d12 {THROWN_ON}+)": _thrown(tables),
        "close range": CLOSE_RANGE_WOUND_BONUS,
        "natural 12": _natural_12(tables),
    }


def _reload(tables: D12Tables) -> dict[str, Any]:
    reload: dict[str, Any] = {"muzzle": "one turn", "breechloader/repeater": "fire every turn"}
    always = [tables.FIREARM_NAMES[k] for k in tables.FIREARMS if k in tables.FIREARMS_EVERY_TURN]
    if always:  # a club's repeating arm: only then, so the tables as written stay as they were
        reload["always every turn"] = always
    return reload


def reference_tables(
    options: Mapping[str, Any], *, tables: D12Tables = BASE, changed: Iterable[str] = ()
) -> dict[str, Any]:
    """Return every reference table as JSON, reflecting the campaign options and `tables` (the
    text's; a club's under its house rules, with the tables its pack `changed`, both bound by
    `RuleSystem.with_house`)."""
    sheet: dict[str, Any] = {
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
            tables.FIREARM_NAMES[k]: dict(zip(("close", "medium", "extreme"), r, strict=True))
            for k, r in tables.FIREARMS.items()
        },
        "reload": _reload(tables),
        "to_hit": {
            "d12 needs": tables.HIT_ON,
            "natural 1": "misfire",
            "modifiers": _shooting_modifiers(tables),
        },
        "misfire": _bands(tables.MISFIRE_TABLE),
        "readings": list(READINGS),
        "wounding": _wounding(tables),
        "hand_to_hand": _hand_to_hand(tables),
        "morale": _morale(tables),
        "troop_type": {
            "table": _bands(TROOP_TYPE_TABLE),
            "expertise": _bands(EXPERTISE_TABLE),
            "off_field_penalty": OFF_FIELD_PENALTY,
        },
        "abilities": [
            {"roll": r, "ability": n, "effect": e} for r, _, n, e in sorted(tables.ABILITIES)
        ],
        "campaign": _campaign(options),
    }
    if changed:  # which tables are the club's own, for the sheet to mark (none as written)
        sheet["house_tables"] = list(changed)
    return sheet
