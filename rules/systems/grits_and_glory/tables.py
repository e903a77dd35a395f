"""Grits & Glory's reference tables as data: weapons, modifiers, events, scenarios, scoring.

Everything the checks, the deck, the campaign and the quick-reference sheets use lives here once.
The text names only a few weapon stats (sabre and spear Str+d6, the freak-event sniper 2d8 and
assassin 2d6); the rest of `WEAPONS` is Muster's house table in the text's Showdown style and
says so (`source`), because the text refers to weapon ranges, RoF, Reload and Fanfire without
listing them.

A club may edit the weapons, the modifier lists, a few settings and the victory points as
house rules (`rules.systems.grits_and_glory.house`): those values are not module attributes but
the fields of one frozen snapshot, `GGTables`, whose values as written are `BASE`. Checks,
sheets, the deck, the campaign and the auto-resolver are built from a snapshot
(`RuleSystem.with_house` builds a club's with `dataclasses.replace`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

TRAITS = ("agility", "smarts", "spirit", "strength", "vigor")
SKILLS = (
    "fighting",
    "shooting",
    "throwing",
    "notice",
    "stealth",
    "riding",
    "swimming",
    "intimidation",
    "taunt",
    "climbing",
    "driving",
    "lockpicking",
)
DIE_SIZES = (4, 6, 8, 10, 12)
STANDARD_TN = 4
RAISE_STEP = 4
UNTRAINED_DIE = 4
WILD_DIE = 6
BONUS_DAMAGE_DIE = 6
WILD_CARD_MAX_WOUNDS = 3
FANFIRE_MAX_SHOTS = 6
VOLLEY_FIGURES_PER_WILD_DIE = 5
UNIT_MAX_FIGURES = 6

#: The values as written of what a club may edit (the fields of `BASE`, at the end of the
#: module): the settings, the modifier lists, and (added below) the weapon table and the
#: victory points.
_EDITABLE: dict[str, Any] = {
    "UNTRAINED_PENALTY": -2,
    "MULTI_ACTION_PENALTY": -2,
    "GANG_UP_MAX": 4,
    "JOKER_BONUS": 2,
    "MOUNTED_TOUGHNESS_BONUS": 2,
    "RANGE_MODIFIERS": {"short": 0, "medium": -2, "long": -4},
    "COVER_MODIFIERS": {"none": 0, "minor": -2, "substantial": -4},
    "SITUATION_MODIFIERS": {
        "unstable_platform": -2,
        "running": -2,
        "dark": -2,
        "fog": -2,
        "touch_attack": 2,
        "autofire": -2,
        "fanfire": -4,
        "off_hand": -2,
    },
    "SWIMMING_MODIFIERS": {"light": 1, "armour_or_packs": -1, "heavy_load": -2},
}
STEALTH_RANGE_BRACKETS = (5, 10, 20)
#: Bonuses to the hidden unit's Stealth against Notice: the range brackets above and cover, read
#: as the shooting modifiers turned round; the Dark of Night adds +2 to all Stealth.
STEALTH_RANGE_BONUS = {"short": 0, "medium": 2, "long": 4}
STEALTH_COVER_BONUS = {"none": 0, "minor": 2, "substantial": 4}
DARK_STEALTH_BONUS = 2
#: A success on Intimidation or Taunt: this much on the next action against that foe.
TEST_OF_WILL_BONUS = 2
#: Setting weapons: +2 Agility per point of Reach; the winner adds +4 to damage.
SET_WEAPON_REACH_BONUS = 2
SET_WEAPON_DAMAGE_BONUS = 4
#: Difficult ground: 2d6 keep the lowest; running, 3d6 keep the lowest two.
DIFFICULT_GROUND_DICE = 2
DIFFICULT_GROUND_RUN_DICE = 3
#: Area-effect deviation: a d6 (thrown) or d10 (fired) times the range multiplier, a d12 clock
#: direction, never more than half the distance to the aiming point.
DEVIATION_DIE = {"thrown": 6, "fired": 10}
DEVIATION_RANGE_MULTIPLIER = {"short": 1, "medium": 2, "long": 3}
DEVIATION_DIRECTION_DIE = 12


@dataclass(frozen=True)
class Weapon:
    """A weapon or damage source: Str (melee) plus dice plus a flat bonus, ranges and rules."""

    key: str
    name: str
    strength: bool
    dice: tuple[int, ...]
    bonus: int = 0
    ranges: tuple[int, int, int] | None = None
    rof: int = 1
    reload: int = 0
    fanfire: bool = False
    reach: int = 0
    pistol: bool = False
    source: str = "house"

    @property
    def damage_text(self) -> str:
        parts = ["Str"] if self.strength else []
        counts: dict[int, int] = {}
        for sides in self.dice:
            counts[sides] = counts.get(sides, 0) + 1
        parts += [f"{n if n > 1 else ''}d{s}" for s, n in counts.items()]
        text = "+".join(parts)
        return f"{text}{self.bonus:+d}" if self.bonus else text

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "damage": self.damage_text,
            "range": "/".join(map(str, self.ranges)) if self.ranges else "melee",
            "rof": self.rof,
            "reload": self.reload,
            "fanfire": self.fanfire,
            "reach": self.reach,
            "pistol": self.pistol,
            "source": self.source,
        }


_MELEE = (
    Weapon("unarmed", "Unarmed", True, ()),
    Weapon("knife", "Knife", True, (4,)),
    Weapon("club", "Club / rifle butt", True, (4,)),
    Weapon("sabre", "Sabre", True, (6,), source="text"),
    Weapon("spear", "Spear", True, (6,), reach=1, source="text"),
    Weapon("axe", "Axe", True, (8,)),
    Weapon("lance", "Lance", True, (8,), reach=2),
    Weapon("great_weapon", "Great weapon", True, (10,)),
)
_RANGED = (
    Weapon("derringer", "Derringer", False, (4, 4), ranges=(5, 10, 20), pistol=True),
    Weapon("six_shooter", "Six-shooter", False, (6, 6), 1, (12, 24, 48), fanfire=True, pistol=True),
    Weapon("auto_pistol", "Automatic pistol", False, (6, 6), 1, (12, 24, 48), pistol=True),
    Weapon("musket", "Musket", False, (8, 8), ranges=(10, 20, 40), reload=2),
    Weapon("rifle", "Repeating rifle", False, (8, 8), ranges=(24, 48, 96)),
    Weapon("shotgun", "Shotgun", False, (6, 6, 6), ranges=(12, 24, 48)),
    Weapon("machine_gun", "Machine gun", False, (8, 8), ranges=(24, 48, 96), rof=3),
    Weapon("bow", "Bow", False, (6, 6), ranges=(12, 24, 48)),
    Weapon("thrown_knife", "Thrown knife", True, (4,), ranges=(3, 6, 12)),
    Weapon("grenade", "Grenade (small burst)", False, (6, 6, 6), ranges=(5, 10, 20)),
)
#: Damage that comes from events and mishaps rather than a figure's weapon (not a club's to edit:
#: the text gives every one of them).
HAZARDS = (
    Weapon("sniper", "Unexpected sniper", False, (8, 8), source="text"),
    Weapon("assassin", "Assassin", False, (6, 6), source="text"),
    Weapon("fire", "Fire", False, (6, 6), source="text"),
    Weapon("snakebite", "Snakebite", False, (6, 6), source="text"),
    Weapon("fall_1", "Fall, 1 story", False, (6,), source="text"),
    Weapon("fall_2", "Fall, 2 stories", False, (6, 6), source="text"),
    Weapon("fall_3", "Fall, 3 stories", False, (6, 6, 6), source="text"),
)


def weapon_tables(melee: tuple[Weapon, ...], ranged: tuple[Weapon, ...]) -> dict[str, Any]:
    """The constants a weapon table makes: the weapons, every damage source, melee and ranged keys.

    Hazards come after the weapons; a weapon may not take a hazard's key (the house rules check).
    """
    weapons = {w.key: w for w in (*melee, *ranged)}
    return {
        "WEAPONS": weapons,
        "DAMAGE_SOURCES": {**weapons, **{h.key: h for h in HAZARDS}},
        "MELEE_KEYS": tuple(w.key for w in melee),
        "RANGED_KEYS": tuple(w.key for w in ranged),
    }


_EDITABLE.update(weapon_tables(_MELEE, _RANGED))

#: 2d6 fortunes, rolled whenever a Joker is turned: (low, high, key, short effect).
FORTUNES = (
    (2, 2, "freak_event", "Roll on the freak events table."),
    (3, 3, "twist_of_fate", "Take an enemy Benny; if none, he removes one Extra."),
    (4, 4, "quick_and_dead", "Swap an enemy action card for one of yours."),
    (5, 5, "rally", "All Shaken figures of one unit recover."),
    (6, 8, "hand_of_fate", "Gain a Benny for the common pool."),
    (9, 9, "bitter_weather", "One enemy unit without Acclimated: -2 to trait rolls this round."),
    (10, 10, "teamwork", 'A unit within 12" discards its card and acts with this Joker.'),
    (11, 11, "out_of_ammo", "One enemy unit is out of ammo; if impossible, gain a Benny."),
    (12, 12, "freak_event", "Roll on the freak events table."),
)
#: d20 freak events. The text has no entry 16: Muster rerolls a 16 (see FREAK_EVENT_REROLL).
FREAK_EVENTS = (
    (1, "storm", 'Visibility 12", attacks -1, black powder fails; streams impassable next round.'),
    (2, "fire", 'A flammable feature burns: 2d6 damage inside; spreads on 4-6 within 4".'),
    (3, "blood_ties", "Two linked Wild Cards avoid each other; if none, gain a Benny."),
    (4, "death_of_a_hero", "Next Wild Card lost: odd +1 to all rolls, even -1."),
    (5, "fickle_fate", "The side with fewer Bennies draws up to the other's count."),
    (6, "back_from_the_dead", "One killed figure returns (a Wild Card with one wound)."),
    (7, "bad_weather", "Troops without Acclimated halve running rolls for the game."),
    (8, "battle_tested", "One unit raises one trait a die type."),
    (9, "fog_of_war", "Drifting fog blocks sight; shots into it -2."),
    (10, "eerie_shadows", "A terrain feature causes Fear; -2 Spirit inside it."),
    (11, "lost", "The lowest card's unit moves randomly unless it passes Spirit."),
    (12, "ominous_silence", 'Enemy units freeze this turn, then +d6" move and +1 attacks.'),
    (13, "snakebite", "The next figure to act takes 2d6 damage; riders test Riding."),
    (14, "wildlife", 'The next unit to act passes Spirit or falls back 3d6".'),
    (15, "blowing_sand", 'Moves d6", sight 12", no thrown weapons until the next Joker.'),
    (17, "unexpected_sniper", "Shooting d8 / damage 2d8 at one figure (or an assassin)."),
    (18, "redeployment", 'Units clear of the enemy by 7" may move freely.'),
    (19, "second_wind", "One unit that has acted gets a new card and acts again."),
    (20, "the_turn_ends", "After this unit acts, the turn ends and the deck is reshuffled."),
)
FREAK_EVENT_REROLL = (16,)
#: Reserves (reinforcements), a d6 per unit not yet on the table.
RESERVES = ((1, 2, "delayed"), (3, 4, "wrong_way"), (5, 6, "ready"))
#: Sentries, a d6 (+2 on a Joker) per unaware sentry unit.
SENTRY_JOKER_BONUS = 2
SENTRIES = ((1, 1, "unawares"), (2, 5, "suspicion"), (6, 99, "patrol"))
SENTRY_ALERT_DISTANCE = 4
#: What reveals a hidden unit.
STEALTH_REVEALS = (
    "it attacks",
    'an enemy unit moves within 4"',
    "an enemy wins an opposed Notice vs Stealth",
)
#: Victory points per unit's fate (own and enemy), as the text scores them.
_EDITABLE["VICTORY_POINTS"] = {
    "survived": 2,
    "on_table": 2,
    "ran_off": -2,
    "ko": 0,
    "killed": -4,
    "enemy_killed": 2,
    "enemy_ko": 1,
    "ally_killed": -1,
}
END_GAME_FIRST_TURN = 6
END_GAME_DIE = 10
RUN_DIE = 6
RUN_STUMBLE_MOVE = 6
LOS_DIE = 6
LOS_SEEN_FROM = 4


def fortune_for(total: int) -> str:
    """Return the fortune key for a 2d6 total."""
    return next(key for low, high, key, _ in FORTUNES if low <= total <= high)


def band_for(table: tuple[tuple[int, int, str], ...], value: int) -> str:
    """Return the key of the (low, high, key) band holding `value`."""
    return next(key for low, high, key in table if low <= value <= high)


FREAK_EVENT_KEYS = tuple(key for _, key, _ in FREAK_EVENTS)
FREAK_EVENT_BY_ROLL = {roll: key for roll, key, _ in FREAK_EVENTS}
FORTUNE_KEYS = tuple(dict.fromkeys(key for _, _, key, _ in FORTUNES))


@dataclass(frozen=True)
class Scenario:
    """A standard scenario, summarised in Muster's words, with its d12 number."""

    roll: int
    key: str
    name: str
    description: str
    deployment: str
    objectives: str
    major: str
    minor: str
    draw: str
    special: str = ""

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


CORNERS = 'Opposite corners, within 18" of your corner; winner of a die roll picks first.'
EDGES_6 = 'Opposite edges, within 6"; winner of a die roll picks the edge and sets up first.'
ENTER = "Both forces march on from opposite edges in turn 1; first move measured from the edge."
WIPE_OUT = "Fight until one force is destroyed."
REINFORCE = "Reserves: each unit off the table rolls on the reserves table every turn."
SCENARIOS = (
    Scenario(
        1,
        "storm_the_camp",
        "Storm the Camp",
        "Rival camps fight for the ground.",
        CORNERS,
        'Ends when a side holds more units within 12" of the enemy corner.',
        "Enemy deployment area taken and a Wild Card of yours survives.",
        "Enemy deployment area taken with no Wild Card left.",
        "Both deployment areas taken in the same turn.",
    ),
    Scenario(
        2,
        "contest_of_champions",
        "Contest of Champions",
        "Leaders try to outdo each other.",
        EDGES_6,
        "Each side names a Wild Card leader; ends when a side is wiped out or both "
        "leaders are dead. Keep the leaders' victims apart.",
        "Your leader took twice the enemy leader's casualties, or had kills when the "
        "other had none.",
        "Your leader took more casualties.",
        "Both leaders took the same number.",
    ),
    Scenario(
        3,
        "ill_met_by_moonlight",
        "Ill Met by Moonlight",
        "A clash in the dark.",
        'Opposite edges: half the units 18-24" in, the rest within 3"; winner of a die '
        "roll picks the edge and deploys first.",
        WIPE_OUT,
        "Enemy wiped out and your force is not Broken.",
        "Enemy wiped out but your force is Broken.",
        "Both wiped out in the same turn.",
        "Night rules apply.",
    ),
    Scenario(
        4,
        "domination",
        "Domination",
        "Four key features must be held.",
        CORNERS,
        "At the end, most figures on or touching a feature captures it.",
        "All four features captured.",
        "Three features captured.",
        "Two or fewer each.",
        "Once a force is Broken, a d6 of 1-2 ends the game.",
    ),
    Scenario(
        5,
        "meeting_engagement",
        "Meeting Engagement",
        "A small fight inside a bigger battle.",
        ENTER,
        "Ends the turn a force is down to a quarter of its units.",
        "Enemy down to a quarter and a Wild Card of yours survives.",
        "Enemy down to a quarter with no Wild Card left.",
        "Both down to a quarter in the same turn.",
    ),
    Scenario(
        6,
        "to_kill_a_king",
        "To Kill a King",
        "Slay the enemy leader.",
        CORNERS,
        "Each side names a Wild Card leader; ends the turn a leader falls.",
        "Enemy leader slain, yours alive, your force not Broken.",
        "Enemy leader slain, yours alive, your force Broken.",
        "Both leaders slain in the same turn.",
    ),
    Scenario(
        7,
        "the_high_ground",
        "The High Ground",
        "Both sides want the central hill.",
        ENTER,
        "Whoever holds the hill at the end of turn 10 wins.",
        "Only you have figures on the hill after turn 10.",
        "You have more figures on the hill after turn 10.",
        "Equal figures on the hill after turn 10.",
        "Gusting winds: every Joker Shakes all figures on the hill.",
    ),
    Scenario(
        8,
        "take_and_hold",
        "Take and Hold",
        "Seize and keep the central marker.",
        "Nobody starts on the table; every unit arrives from reserves.",
        "Once a force is Broken, a d6 of 1-2 at each turn end ends the game; count "
        'figures wholly within 3" of the marker.',
        'Only you have figures within 3" of the marker.',
        'You have more figures within 3" of the marker.',
        'Equal figures within 3" of the marker.',
        REINFORCE,
    ),
    Scenario(
        9,
        "to_the_death",
        "To the Death",
        "No quarter.",
        'Opposite edges; half of each force rolls a d6: 1-3 within 3" of the edge, '
        '4-6 18-24" in; then the other halves.',
        WIPE_OUT,
        "Enemy wiped out and your force is not Broken.",
        "Enemy wiped out but your force is Broken.",
        "Both wiped out in the same turn.",
    ),
    Scenario(
        10,
        "clash_of_piquets",
        "A Clash of Piquets",
        "Sentry lines meet in the fog.",
        'Opposite corners: half the units (one Wild Card at most) 18-24" from the '
        "corner; the rest in reserve.",
        "Break the enemy.",
        "Enemy Broken and three quarters of your units remain.",
        "Enemy Broken with fewer than three quarters of your units left.",
        "Both Broken in the same turn.",
        REINFORCE,
    ),
    Scenario(
        11,
        "reconnoitre",
        "Reconnoitre",
        "Scouts try to slip past each other.",
        EDGES_6,
        "Exit figures off the enemy edge; ends when a force is down to a quarter of its units.",
        "Some of yours got through and none of theirs did.",
        "More of yours got through.",
        "The same number got through.",
    ),
    Scenario(
        12,
        "seize_the_prize",
        "Seize the Prize!",
        "Carry off the artefact.",
        EDGES_6,
        "Dig the artefact out (d6 4+, Wild Die and Joker count, one try a turn) and "
        "carry it off any edge; Shaken or killed carriers drop it.",
        "Your figure carried it off and your force is not Broken.",
        "Your figure carried it off but your force is Broken.",
        "Both forces wiped out with the artefact still on the table.",
    ),
)
SCENARIO_DIE = 12
SCENARIO_BY_ROLL = {s.roll: s for s in SCENARIOS}


@dataclass(frozen=True, eq=False)
class GGTables:
    """Every value a club may change, as one snapshot. Compared and hashed by identity: a
    snapshot is built once per pack, so caches of work done with it key on it."""

    UNTRAINED_PENALTY: int
    MULTI_ACTION_PENALTY: int
    GANG_UP_MAX: int
    JOKER_BONUS: int
    MOUNTED_TOUGHNESS_BONUS: int
    RANGE_MODIFIERS: Mapping[str, int]
    COVER_MODIFIERS: Mapping[str, int]
    SITUATION_MODIFIERS: Mapping[str, int]
    SWIMMING_MODIFIERS: Mapping[str, int]
    WEAPONS: Mapping[str, Weapon]
    DAMAGE_SOURCES: Mapping[str, Weapon]
    MELEE_KEYS: tuple[str, ...]
    RANGED_KEYS: tuple[str, ...]
    VICTORY_POINTS: Mapping[str, int]


#: The tables as written.
BASE = GGTables(**_EDITABLE)


def untrained_text(tables: GGTables) -> str:
    """How an untrained skill is rolled, e.g. "d4-2" (the penalty is a club's to edit)."""
    penalty = tables.UNTRAINED_PENALTY
    return f"d{UNTRAINED_DIE}{penalty:+d}" if penalty else f"d{UNTRAINED_DIE}"


def reference_tables(*, tables: GGTables = BASE) -> dict[str, Any]:
    """Return every reference table as JSON-able data (the club's, from its snapshot)."""
    return {
        "weapons": [w.as_json() for w in tables.WEAPONS.values()],
        "hazards": [w.as_json() for w in HAZARDS],
        "modifiers": {
            "range": tables.RANGE_MODIFIERS,
            "cover": tables.COVER_MODIFIERS,
            "situation": tables.SITUATION_MODIFIERS,
            "swimming": tables.SWIMMING_MODIFIERS,
            "multi_action": tables.MULTI_ACTION_PENALTY,
            "gang_up_max": tables.GANG_UP_MAX,
            "joker": tables.JOKER_BONUS,
            "untrained": untrained_text(tables),
            "mounted_target_toughness": tables.MOUNTED_TOUGHNESS_BONUS,
        },
        "fortunes": [
            {"roll": f"{lo}-{hi}" if lo != hi else str(lo), "key": key, "effect": text}
            for lo, hi, key, text in FORTUNES
        ],
        "freak_events": [{"roll": r, "key": k, "effect": t} for r, k, t in FREAK_EVENTS],
        "freak_event_reroll": list(FREAK_EVENT_REROLL),
        "reserves": [{"roll": f"{lo}-{hi}", "key": k} for lo, hi, k in RESERVES],
        "sentries": [
            {"roll": f"{lo}-{min(hi, 6)}" if lo != hi else str(lo), "key": k}
            for lo, hi, k in SENTRIES
        ]
        + [{"joker_bonus": SENTRY_JOKER_BONUS}],
        "stealth": {
            "reveals": list(STEALTH_REVEALS),
            "range_brackets": list(STEALTH_RANGE_BRACKETS),
            "range_bonus": STEALTH_RANGE_BONUS,
            "cover_bonus": STEALTH_COVER_BONUS,
            "dark_bonus": DARK_STEALTH_BONUS,
        },
        "area_effect_deviation": {
            "die": {key: f"d{sides}" for key, sides in DEVIATION_DIE.items()},
            "range_multiplier": DEVIATION_RANGE_MULTIPLIER,
            "direction": f"d{DEVIATION_DIRECTION_DIE} read as a clock",
            "most": "half the distance to the aiming point",
        },
        "difficult_ground": {
            "walking": f"{DIFFICULT_GROUND_DICE}d6, the lowest (never above Pace)",
            "running": f"{DIFFICULT_GROUND_RUN_DICE}d6, the lowest two; a 1 Shakes the unit",
        },
        "victory_points": tables.VICTORY_POINTS,
        "scenarios": [s.as_json() for s in SCENARIOS],
        "scenario_die": f"d{SCENARIO_DIE}",
        "end_game": {"first_roll_after_turn": END_GAME_FIRST_TURN, "die": f"d{END_GAME_DIE}"},
    }
