"""Rencounter's reference tables as data: the checks and the quick-reference sheets read these.

Every number here comes from the rule text; nothing else in the package repeats one.

A club may edit some of these tables (rules/systems/rencounter/house.py says which and within
what limits). Those are not module attributes: they are the fields of one frozen snapshot,
`RencounterTables`, whose values as written are `BASE`. A check, sheet or procedure is built
from a snapshot and reads its tables there (`RuleSystem.with_house` builds a club's snapshot
with `dataclasses.replace`), so no import can freeze the wrong value.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rules.aftermath import AFTERMATH_BANDS, Bands

#: Experience ratings: value -> name (the text's alternates in brackets on the sheet).
EXPERIENCE_NAMES: dict[int, str] = {
    1: "Scum",
    2: "Raw",
    3: "Green",
    4: "Average",
    5: "Veteran",
    6: "Master",
}
MASTER = 6
#: An action roll of 8+ is a permanent morale failure; better troops hold out longer.
PERMANENT_MORALE_FAILURE_BASE = 8
PERMANENT_MORALE_FAILURE_BONUS: dict[int, int] = {4: 1, 5: 2, 6: 3}
#: An action roll of exactly this is a temporary fall back (7 means "retreat, hide, surrender").
FALL_BACK_ROLL = 7
#: A figure carrying this many wound points or more is "seriously wounded": 8+ overcomes him.
SERIOUS_WOUND_POINTS = 2
#: A natural 1 always acts for a figure with at most this many wound points.
NATURAL_ONE_MAX_WOUNDS = 2
#: Master's "fallible" variant: a natural 6 is confirmed as a failure on this or more on a d6.
MASTER_CONFIRM_FAIL_FROM = 4
#: Wound points by wound level; six points kill.
WOUND_POINTS: dict[str, int] = {"minor": 1, "serious": 2, "crippling": 3}
DEATH_POINTS = 6
MAX_WOUND_POINTS = 5
#: The duck back check is an action check at this penalty.
DUCK_BACK_PENALTY = 2


@dataclass(frozen=True)
class Armour:
    rating: int
    name: str


ARMOUR: tuple[Armour, ...] = (
    Armour(0, "No armour"),
    Armour(1, "Light armour"),
    Armour(2, "Half armour"),
    Armour(3, "Nearly full armour"),
    Armour(4, "Full armour"),
)
#: Armour from this rating on adds to melee damage and slows low-velocity firearms.
HEAVY_ARMOUR_FROM = 3

#: Shields: key -> (label, to-hit modifier against the bearer).
_SHIELDS: dict[str, tuple[str, int]] = {
    "none": ("No shield", 0),
    "small_medium": ("Small or medium shield", -1),
    "large": ("Large shield", -2),
}
#: Shield construction -> modifier when the shield is the parrying item (weapon breakage).
SHIELD_MAKES: dict[str, tuple[str, int]] = {
    "metal_faced": ("Metal faced", -1),
    "rimmed": ("Wood or hide with metal rim or boss", 0),
    "plain_wood": ("Plain wood", 1),
    "hide_wicker": ("Plain hide or wicker", 2),
}

# --- damage -------------------------------------------------------------------------------

#: Modified d12 damage roll -> result: (highest roll, result); above the last row, no effect.
_DAMAGE_TABLE: tuple[tuple[int, str], ...] = (
    (2, "dead"),
    (4, "crippling"),
    (7, "serious"),
    (12, "minor"),
)
DAMAGE_RESULTS: tuple[str, ...] = ("no_effect", "minor", "serious", "crippling", "dead")
#: A hit that succeeded by at least this much (need - roll) is a better hit.
GOOD_HIT_MARGIN = 3
FIRE_GOOD_HIT_DAMAGE = -1
MELEE_GOOD_HIT_DAMAGE = -2
#: Melee damage against armour 3 or 4.
MELEE_HEAVY_ARMOUR_DAMAGE = 1
#: Missile weapons hit less hard at extreme range (unless the weapon has its own rule).
EXTREME_RANGE_DAMAGE = 1

#: Optional hit locations, by d6 rolled after damage.
HIT_LOCATIONS: dict[int, str] = {
    1: "left leg",
    2: "right leg",
    3: "left arm",
    4: "right arm",
    5: "body",
    6: "head",
}

# --- fire ---------------------------------------------------------------------------------

#: Natural-1 confirmation: roll needed (0 .. -4) -> confirming d12 at or under.
CONFIRMATION: dict[int, int] = {0: 9, -1: 7, -2: 5, -3: 3, -4: 1}
FIRE_AUTO_MISS = 12

RANGE_BANDS: tuple[str, ...] = ("too_close", "short", "medium", "long", "extreme")
_RANGE_TO_HIT: dict[str, int] = {
    "too_close": -2,
    "short": 0,
    "medium": -2,
    "long": -4,
    "extreme": -6,
}

#: Cover -> (to-hit modifier, solid): a miss that only the solid cover caused may duck back.
_COVER: dict[str, tuple[int, bool, str]] = {
    "none": (0, False, "In the open"),
    "obscuring": (-1, False, "Partially obscuring cover"),
    "leafy": (-2, False, "Mostly obscured by leafy cover"),
    "half_solid": (-2, True, "About half covered by solid cover"),
    "three_quarter_solid": (-3, True, "Three quarters covered by solid cover"),
    "gun_only": (-4, True, "Just enough showing to see and fire a gun"),
    "loophole": (-5, True, "All but a small part covered (loophole)"),
}

#: The fire modifiers a fire check applies itself, by rule key (the sheet's list holds each
#: in a row naming its rule; a club's pack may change the number there).
FIRE_RULES: dict[str, int] = {"extra_shot": -1}
#: The sheet's fire modifiers: (situation, to-hit modifier, rule key or None). A row with a
#: rule is applied by the fire check; the others the player adds into the check's `modifier`.
_FIRE_MODIFIERS: tuple[tuple[str, int, str | None], ...] = (
    ("Mounted target", 1, None),
    ('Kneeling target (ignored at 2" or less)', -1, None),
    ('Prone target (ignored at 2" or less)', -2, None),
    ("Aimed half a turn", 0, None),
    ("Aimed one turn", 2, None),
    ("Aimed two or more turns", 3, None),
    ("Aim braced or rested", 1, None),
    ("Snap fire combined with another action", -2, None),
    ("Snap fire while moving fast (bows on horseback, firearms, crossbows)", -4, None),
    (
        "Each shot after the first in a turn (cumulative)",
        FIRE_RULES["extra_shot"],
        "extra_shot",
    ),
    ('Target moving 3.5-6"', -1, None),
    ('Target moving 6.5-12"', -2, None),
    ('Target moving 12.5-18"', -3, None),
    ("Target first seen in its own preceding activation", -1, None),
    ("Target first seen in this activation", -2, None),
    ("Target in melee with a friend", -2, None),
    ("Unfamiliar weapon", -2, None),
    ("Wounded firer (per wound point)", -1, None),
)
#: A target engaged with a friend: the shot hits the friend on these d12 faces instead.
FRIEND_IN_MELEE_CHANCE = 2


@dataclass(frozen=True)
class MissileWeapon:
    """One row of the missile weapons table.

    `reload` is in turns (0.5 = half a turn); `shots` is the loaded capacity as text ("5-17"
    for magazines); `repeat` is N, S, F, Fx2 or Fx3. `kind` says how armour affects it.
    `damage` is None for the shotgun family, whose damage varies by range band.
    """

    key: str
    name: str
    ranges: tuple[int, int, int, int]
    damage: int | None
    reload: float
    shots: str
    repeat: str
    kind: str


def _mw(
    key: str,
    name: str,
    ranges: tuple[int, int, int, int],
    damage: int | None,
    reload: float,
    shots: str,
    repeat: str,
    kind: str,
) -> MissileWeapon:
    return MissileWeapon(key, name, ranges, damage, reload, shots, repeat, kind)


# kind: thrown/bow/crossbow add target armour and shield to the to-hit; low_velocity firearms
# take -1 against armour 3-4; other firearms ignore armour.
_MISSILE_WEAPONS: dict[str, MissileWeapon] = {
    w.key: w
    for w in (
        _mw("javelin", "Javelin", (3, 6, 9, 12), 1, 1, "1", "N", "thrown"),
        _mw("weak_bow", "Weak bow", (4, 8, 12, 20), 1, 1, "1", "N", "bow"),
        _mw("short_bow", "Short bow", (8, 16, 24, 40), 1, 1, "1", "N", "bow"),
        _mw("long_bow", "Long bow", (12, 24, 36, 60), 0, 1, "1", "N", "bow"),
        _mw("light_crossbow", "Light crossbow", (10, 20, 30, 50), 1, 3, "1", "N", "crossbow"),
        _mw("heavy_crossbow", "Heavy crossbow", (15, 30, 40, 60), 0, 6, "1", "N", "crossbow"),
        _mw(
            "matchlock_musket",
            "Matchlock musket",
            (10, 18, 26, 45),
            -1,
            4,
            "1",
            "N",
            "low_velocity",
        ),
        _mw(
            "flintlock_musket",
            "Flintlock musket",
            (10, 20, 30, 50),
            -1,
            2,
            "1",
            "N",
            "low_velocity",
        ),
        _mw("flintlock_rifle", "Flintlock rifle", (18, 36, 48, 72), 0, 4, "1", "N", "firearm"),
        _mw(
            "cap_and_ball_rifle", "Cap and ball rifle", (18, 36, 48, 72), 0, 3, "1", "N", "firearm"
        ),
        _mw("breechloader", "Breechloader", (20, 40, 60, 80), 0, 0.5, "1", "N", "firearm"),
        _mw(
            "breechloader_carbine",
            "Single shot breechloader carbine",
            (16, 32, 48, 60),
            0,
            0.5,
            "1",
            "N",
            "firearm",
        ),
        _mw("magazine_rifle", "Magazine rifle", (20, 40, 60, 80), 0, 1, "5-17", "S", "firearm"),
        _mw("magazine_carbine", "Magazine carbine", (16, 32, 48, 60), 0, 1, "5-17", "S", "firearm"),
        _mw("flintlock_pistol", "Flintlock pistol", (3, 6, 9, 12), 0, 2, "1", "N", "low_velocity"),
        _mw(
            "cap_and_ball_pistol",
            "Cap & ball pistol",
            (4, 8, 12, 18),
            0,
            2,
            "1",
            "N",
            "low_velocity",
        ),
        _mw(
            "cap_and_ball_revolver",
            "Cap & ball revolver",
            (5, 10, 15, 25),
            0,
            6,
            "6",
            "S",
            "firearm",
        ),
        _mw(
            "small_da_revolver",
            "Small double action revolver",
            (5, 10, 15, 25),
            1,
            2,
            "6",
            "F",
            "firearm",
        ),
        _mw(
            "large_da_revolver",
            "Large double action revolver",
            (5, 10, 15, 25),
            0,
            2,
            "6",
            "F",
            "firearm",
        ),
        _mw(
            "small_sa_revolver",
            "Small single action revolver",
            (5, 10, 15, 25),
            1,
            2,
            "6",
            "S",
            "firearm",
        ),
        _mw(
            "large_sa_revolver",
            "Large single action revolver",
            (5, 10, 15, 25),
            0,
            2,
            "6",
            "S",
            "firearm",
        ),
        _mw("blunderbuss", "Blunderbuss", (4, 8, 12, 18), None, 2.5, "1", "N", "low_velocity"),
        _mw(
            "double_shotgun",
            "Double barrel shotgun",
            (5, 10, 15, 25),
            None,
            1.5,
            "2",
            "S",
            "low_velocity",
        ),
        _mw("machine_pistol", "Machine pistol", (5, 10, 15, 25), 1, 1, "20", "Fx2", "firearm"),
        _mw("submachinegun", "Submachinegun", (7, 14, 21, 35), 0, 1, "20", "Fx3", "firearm"),
        _mw("lmg_unbraced", "Light MG, unbraced", (16, 32, 48, 60), 0, 2, "30", "Fx3", "firearm"),
        _mw("lmg_braced", "Light MG, braced", (25, 50, 75, 125), 0, 2, "30", "Fx3", "firearm"),
    )
}
#: Most shots in one turn by repeat rate.
REPEAT_SHOTS: dict[str, int] = {"N": 1, "S": 2, "F": 4, "Fx2": 8, "Fx3": 12}
REPEAT_NAMES: dict[str, str] = {
    "N": "single shot",
    "S": "slow repeater",
    "F": "fast repeater",
    "Fx2": "automatic, up to 8",
    "Fx3": "automatic, up to 12",
}
#: Shotguns and blunderbusses: to-hit bonus from short to long range, damage by range band.
SHOTGUN_TO_HIT: dict[str, int] = {"short": 2, "medium": 2, "long": 2}
SHOTGUN_DAMAGE: dict[str, int] = {
    "too_close": -2,
    "short": -1,
    "medium": 0,
    "long": 1,
    "extreme": 2,
}
#: Targets a shotgun may roll against, by range band (for the sheet).
SHOTGUN_SPREAD: dict[str, str] = {
    "short": "two adjacent targets",
    "medium": 'two targets within 1"',
    "long": 'targets up to 2" apart and any between',
    "extreme": 'all in a 4" wide area',
}
ARMOUR_KINDS = frozenset({"thrown", "bow", "crossbow"})
LOW_VELOCITY_HEAVY_ARMOUR = -1
#: Reload extras (turns), for the sheet.
RELOAD_NOTES: tuple[tuple[str, str], ...] = (
    ("Socket bayonet fixed", "+1 turn to reload"),
    ("Plug bayonet fitted", "2 turns to pull, 1 to sheathe, before loading"),
    ("Revolver", "2 chambers a turn, or all 6 in 2 turns"),
    ("Magazine weapon", "may load single rounds at half a turn each"),
    ("Running throw", "ranges +50%, with the snap fire penalty"),
)


@dataclass(frozen=True)
class MeleeWeapon:
    """One row of the melee weapons table."""

    key: str
    name: str
    to_hit: int
    damage: int
    ranks: int
    shield: bool


_MELEE_WEAPONS: dict[str, MeleeWeapon] = {
    w.key: w
    for w in (
        MeleeWeapon("sword", "Sword", 1, 0, 1, True),
        MeleeWeapon("spear", "Spear/Bayonet", 0, 0, 2, True),
        MeleeWeapon("pike", "Pike", -1, 0, 4, False),
        MeleeWeapon("axe", "Axe/Mace", -1, -1, 1, True),
        MeleeWeapon("halberd", "Halberd", 0, -1, 2, False),
        MeleeWeapon("knife", "Knife", -1, 1, 1, True),
        MeleeWeapon("unarmed", "Unarmed", -2, 2, 1, True),
        MeleeWeapon("club", "Improvised club", -2, 1, 1, True),
        MeleeWeapon("javelin", "Javelin", 0, 0, 1, True),
    )
}
#: The melee modifiers a melee check applies itself, by rule key: each active attacker after
#: the first (waived against a master) adds to the attack and takes from the parry; each point
#: of the target's armour takes from the stroke (and from a riposte against an armoured
#: attacker). Shields are the `SHIELDS` table's, the one place their modifiers live.
MELEE_RULES: dict[str, int] = {"gang_up_attack": 1, "gang_up_parry": -1, "armour": -1}
#: The sheet's melee modifiers: (situation, modifier, rule key or None), as the fire list.
_MELEE_MODIFIERS: tuple[tuple[str, int, str | None], ...] = (
    ("Above opponent (cavalry vs foot, foot vs prone)", 1, None),
    ('Charging at 4"+ with a thrusting weapon', 1, None),
    ('Mounted charge at 7-18"', 1, None),
    ("Drawing or switching weapon in the same turn", -2, None),
    ("Wounded attacker (per wound point)", -1, None),
    ("Target half covered", -2, None),
    ("Target three quarters covered", -4, None),
    (
        "Each active attacker after the first: attackers",
        MELEE_RULES["gang_up_attack"],
        "gang_up_attack",
    ),
    (
        "Each active attacker after the first: parry",
        MELEE_RULES["gang_up_parry"],
        "gang_up_parry",
    ),
    ("Target armour (per point)", MELEE_RULES["armour"], "armour"),
    ("Each rank behind the first", -1, None),
    ("Parrying from a well-ordered close formation", 2, None),
    ("Unfamiliar weapon", -2, None),
    ("Attacked from behind: parry (and no shield)", -2, None),
)
#: Aggressive attack: the attacker may lower his skill, but not below this.
AGGRESSIVE_FLOOR = 6
MELEE_AUTO_SUCCESS, MELEE_AUTO_FAIL = 1, 12
#: Weapon breakage: a modified roll at or under this breaks the opposing weapon or shield.
BREAKAGE_AT = 2

# --- morale ---------------------------------------------------------------------------------

MORALE_TRIGGERS: tuple[str, ...] = (
    "A man of the unit killed or crippled since its last activation",
    'The unit saw a friendly unit eliminated within 24"',
    "In its last activation a man was overcome by wounds (8+)",
    "In its last activation a man ran away (8+)",
)
#: Morale modifiers to the action roll.
MORALE_PER_MAN_LOST = 1
MORALE_LEADER_LOST = 2
MORALE_UNIT_ELIMINATED: dict[str, int] = {"none": 0, "within_24": 1, "within_12": 2}
#: Optional leader-influenced morale: a steady leader offsets this much.
MORALE_LEADER_STEADY = -1

# --- horses, falls, grenades ---------------------------------------------------------------

HORSEMANSHIP_OVER_EXPERIENCE = 2
#: Falls from horses or vehicles: top speed (inches) -> damage modifier; faster: -1 per 6".
FALL_DAMAGE: tuple[tuple[int, int], ...] = ((6, 6), (12, 4), (18, 2), (24, 0))
#: Beyond the table's fastest row, each further 6" (or part) is -1 more.
FALL_SPEED_STEP = 6
#: A leader's direct order ("buttkicking"): a wounded man needs under this minus his wounds.
ORDER_BASE = 7
#: Weapons stuck optional rule: a natural 12 on the unsticking roll means it broke.
STUCK_BROKEN_ON = 12
#: Horse collision into foot: speed band -> damage modifier.
TRAMPLE_DAMAGE: tuple[tuple[str, int], ...] = (('over 12"', 2), ('7-12"', 4))
GRENADE_DAMAGE = 1
#: An unwounding grenade roll at or under this still tests for knock down.
GRENADE_KNOCKDOWN_UP_TO = 14
GRENADE_DUD = 12

# --- artillery ------------------------------------------------------------------------------

#: Canister and grape by range (inches): (band, to-hit modifier, damage modifier).
CANISTER: dict[int, tuple[str, int, int]] = {
    5: ("too_close", 3, -6),
    12: ("short", 0, -5),
    24: ("medium", -2, -4),
    48: ("long", -4, -3),
    96: ("extreme", -6, -2),
}
GRAPE_TO_HIT: dict[str, int] = {
    "too_close": -1,
    "short": -1,
    "medium": -1,
    "long": -2,
    "extreme": -2,
}
GUN_SIZE_TO_HIT: dict[str, int] = {"3lb": -1, "6lb": 0, "9lb": 1, "12lb": 2}
GROUND_TO_HIT: dict[str, int] = {"normal": 0, "hard": 2, "soft": -2}
ARTILLERY_SKILL = 9
#: Misfire and accident table on a d12: (highest roll, key, description).
MISFIRES: tuple[tuple[int, str, str], ...] = (
    (2, "explodes", 'Gun explodes: damage to all within 6", +1 per inch away'),
    (3, "premature_two_crew", "Fires early, unaimed; damage rolls for 2 crew"),
    (4, "premature_one_crew", "Fires early, unaimed; damage roll for 1 crew"),
    (5, "premature", "Fires early, unaimed; no crew hurt"),
    (8, "crew_hurt", "Crew member burned or struck by the recoil: damage roll for 1"),
    (12, "loading_mistake", "No fire until 1-6 actions spent to clear and reload"),
)
#: An unaimed premature shot: d6 1-3 goes high, 4-6 goes low.
PREMATURE_HIGH_UP_TO = 3
QUICK_LOAD_SLIP = 6

# --- campaign and squads ---------------------------------------------------------------------

BREAKPOINTS: dict[str, tuple[int, int]] = {"1/2": (1, 2), "1/3": (1, 3), "1/4": (1, 4)}
SQUAD_SIZE_BONUS = 4
SQUAD_LEADER: dict[int, int] = {1: 3, 2: 4, 3: 4, 4: 5, 5: 5, 6: 6}
SQUAD_MAN: dict[int, int] = {1: 3, 2: 3, 3: 4, 4: 4, 5: 5, 6: 5}
SQUAD_SKILL_VARIATION: dict[int, int] = {1: -2, 2: -1, 3: 0, 4: 0, 5: 1, 6: 2}
SQUAD_SKILL_PER_EXPERIENCE = 2

#: Improvement rolls: stat -> (die rolled, lowest and highest value the stat can hold).
IMPROVEMENT_DICE: dict[str, tuple[int, int, int]] = {
    "experience": (6, 1, 6),
    "horsemanship": (6, 1, 8),
    "fire": (12, 2, 12),
    "melee": (12, 2, 12),
}
#: The highest value an improvement roll raises each stat to (a club may set it lower).
_IMPROVEMENT_CAPS: dict[str, int] = {
    stat: highest for stat, (_, _, highest) in IMPROVEMENT_DICE.items()
}

# --- what a club may edit ----------------------------------------------------------------------

Modifiers = tuple[tuple[str, int, str | None], ...]


@dataclass(frozen=True, eq=False)
class RencounterTables:
    """The tables a club may edit, as one snapshot: the checks, the sheet and the campaign
    procedure read them here. Compared and hashed by identity: a snapshot is built once per
    pack, so caches of work done with it key on the snapshot itself."""

    shields: dict[str, tuple[str, int]]
    damage_table: tuple[tuple[int, str], ...]
    range_to_hit: dict[str, int]
    cover: dict[str, tuple[int, bool, str]]
    fire_modifiers: Modifiers
    missile_weapons: dict[str, MissileWeapon]
    melee_weapons: dict[str, MeleeWeapon]
    melee_modifiers: Modifiers
    improvement_caps: dict[str, int]
    #: The house campaign rules' wound aftermath bands (rules/aftermath.py).
    aftermath_bands: Bands = AFTERMATH_BANDS


#: The tables as the text has them.
BASE = RencounterTables(
    shields=_SHIELDS,
    damage_table=_DAMAGE_TABLE,
    range_to_hit=_RANGE_TO_HIT,
    cover=_COVER,
    fire_modifiers=_FIRE_MODIFIERS,
    missile_weapons=_MISSILE_WEAPONS,
    melee_weapons=_MELEE_WEAPONS,
    melee_modifiers=_MELEE_MODIFIERS,
    improvement_caps=_IMPROVEMENT_CAPS,
)


def rule_modifier(
    rows: tuple[tuple[str, int, str | None], ...], as_written: dict[str, int], rule: str
) -> int:
    """The modifier of the sheet row naming `rule`; the text's value when no row names it (a
    pack kept from before the rows named their rules)."""
    for _, modifier, named in rows:
        if named == rule:
            return modifier
    return as_written[rule]


def as_json(value: Any) -> Any:
    """Turn table rows (dataclasses, tuples) into plain JSON values."""
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [as_json(v) for v in value]
    return value
