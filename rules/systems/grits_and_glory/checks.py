"""Grits & Glory's checks: trait tests, attacks, damage, soak, fear, volleys and table rolls.

Every trait roll is an aced die plus Wild Dice (Wild Cards and group rolls); `aces.py` says why
every probability here is an exact Fraction.

A check that reads a value a club may edit (a modifier in a choice's label, a field's help or
a roll, the weapon choices) is built by a function from a tables snapshot (`GGTables`), called
once for the rules as written (the module's constant, from `t.BASE`) and again for each
house-rules pack (`house.py`'s built_from): its resolver and odds are bound to the snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from math import comb
from typing import Any

from rules.checks import Effect, Outcome, Resolver
from rules.dice import Dice
from rules.plans import PlannedCheck, new_outcome, planned
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.aces import (
    ONE,
    ZERO,
    ace_tail,
    best_tail,
    dice_runs,
    grade,
    grade_odds,
    roll_aced,
    roll_aced_pool,
    sum_tail,
)
from rules.systems.grits_and_glory.plans import trait_roller
from rules.systems.grits_and_glory.stats import DIE_CHOICES, SKILL_CHOICES

Params = Mapping[str, Any]
GRADES = ("failure", "success", "raise")
HITS = ("miss", "hit", "raise")
_HIT_OF = {"failure": "miss", "success": "hit", "raise": "raise"}


# --- parameter fields ---------------------------------------------------------------------


def die_field(name: str = "die", help_text: str = "The trait or skill die.") -> Field:
    return Field(name, "die", default=6, choices=DIE_CHOICES, help=help_text)


def _skill_die(tables: t.GGTables, what: str) -> Field:
    """A skill die that may be untrained, e.g. `what` "Fighting die"."""
    help_text = f"{what} (untrained: {t.untrained_text(tables)})."
    return Field("die", "die", default=6, choices=SKILL_CHOICES, help=help_text)


def int_field(name: str, default: int, low: int, high: int, help_text: str) -> Field:
    return Field(name, "int", default=default, min=low, max=high, help=help_text)


def flag_field(name: str, help_text: str) -> Field:
    return Field(name, "bool", default=False, help=help_text)


def signed(value: int) -> str:
    """A modifier as the checks' help writes it: +2, -2, +0."""
    return f"{value:+d}"


def _pick(name: str, table: Mapping[str, int], default: str, help_text: str) -> Field:
    return Field(
        name,
        "choice",
        default=default,
        choices=tuple((key, f"{key} ({value:+d})") for key, value in table.items()),
        help=help_text,
    )


MODIFIER = int_field("modifier", 0, -20, 20, "Any other modifiers, summed.")
WILD_CARD = flag_field("wild_card", "A Wild Card rolls a Wild Die (d6) and takes the best.")
TN = int_field("tn", t.STANDARD_TN, 1, 30, "Target number (4 unless something says otherwise).")
WOUNDS = int_field("wounds", 0, 0, t.WILD_CARD_MAX_WOUNDS, "The roller's wounds: -1 each.")


def untrained_field(tables: t.GGTables) -> Field:
    return flag_field(
        "untrained", f"No such skill: roll {t.untrained_text(tables)} instead of the die."
    )


def joker_field(tables: t.GGTables) -> Field:
    return flag_field(
        "joker", f"Acting on a Joker: {signed(tables.JOKER_BONUS)} to trait and damage rolls."
    )


def _actions_field(tables: t.GGTables) -> Field:
    penalty = signed(tables.MULTI_ACTION_PENALTY)
    return int_field(
        "actions", 1, 1, 4, f"Actions this round: {penalty} for each beyond the first."
    )


def _situation_flag(tables: t.GGTables, name: str, situation: str, words: str) -> Field:
    """A flag for one situation modifier, its value in its help: "Ran this round: -2."."""
    return flag_field(name, f"{words}: {signed(tables.SITUATION_MODIFIERS[situation])}.")


# --- shared roll helpers ------------------------------------------------------------------


def _wild_dice(p: Params) -> int:
    return 1 if p.get("wild_card") else 0


def _common_modifier(tables: t.GGTables, p: Params) -> int:
    """Sum the situational modifiers every trait-based attack shares."""
    # Each editable value is read only when a parameter asks for it: most attacks are a
    # single action, not running, not on a Joker, and then read none of these at all.
    total: int = p["modifier"] - p.get("wounds", 0)
    if p.get("joker"):
        total += tables.JOKER_BONUS
    actions = p.get("actions", 1)
    if actions > 1:
        total += tables.MULTI_ACTION_PENALTY * (actions - 1)
    return total + (tables.SITUATION_MODIFIERS["running"] if p.get("running") else 0)


def range_and_cover(tables: t.GGTables, p: Params) -> int:
    """The range and cover modifiers of a shot (tables a club may edit, read on every shot)."""
    return tables.RANGE_MODIFIERS[p["range"]] + tables.COVER_MODIFIERS[p["cover"]]


def skill_dice(tables: t.GGTables, die: int, modifier: int) -> tuple[int, int]:
    """Return (sides, modifier), rolling an untrained skill (die 0) as d4-2 (a house setting)."""
    return (die, modifier) if die else (t.UNTRAINED_DIE, modifier + tables.UNTRAINED_PENALTY)


def fold_grades(key_of: Callable[[str], str], odds: Mapping[str, Fraction]) -> dict[str, Fraction]:
    folded: dict[str, Fraction] = {}
    for grade_key, p in odds.items():
        folded[key_of(grade_key)] = folded.get(key_of(grade_key), ZERO) + p
    return folded


# --- trait, group roll, vigor test, recovery ----------------------------------------------


def _trait_dice(tables: t.GGTables, p: Params) -> tuple[int, int]:
    base = (
        (t.UNTRAINED_DIE, p["modifier"] + tables.UNTRAINED_PENALTY)
        if p["untrained"]
        else (p["die"], p["modifier"])
    )
    return base


def _trait_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = _trait_dice(tables, p)
    roll, tn = trait_roller(sides, _wild_dice(p), "trait"), p["tn"]
    raise_at = tn + t.RAISE_STEP

    def trait(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        total = best + modifier
        key = "failure" if total < tn else "success" if total < raise_at else "raise"
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier, "total": total}
        details["raises"] = (total - tn) // t.RAISE_STEP if total >= tn else 0
        return new_outcome(Outcome, (key, details, ()))

    return trait


@lru_cache(maxsize=1024)
def cached_grade_odds(sides: int, wild: int, modifier: int, tn: int) -> dict[str, Fraction]:
    return grade_odds(sides, wild, modifier, tn)


def _trait_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = _trait_dice(tables, p)
    return cached_grade_odds(sides, _wild_dice(p), modifier, p["tn"])


def trait_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "trait",
        "Trait test",
        Schema((die_field(), MODIFIER, WILD_CARD, TN, untrained_field(tables))),
        GRADES,
        partial(_trait_plan, tables),
        partial(_trait_odds, tables),
        f"Roll the aced die ({t.untrained_text(tables)} untrained), Wild Cards add an aced Wild "
        "Die and keep the best; TN or more succeeds, every 4 over is a raise.",
        "trait die (and its aces), then the Wild Die (and its aces)",
    )


TRAIT = trait_check(t.BASE)


def _group_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = _trait_dice(tables, p)
    roll, tn = trait_roller(sides, 1, "group roll"), p["tn"]
    raise_at = tn + t.RAISE_STEP

    def group_roll(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        total = best + modifier
        key = "failure" if total < tn else "success" if total < raise_at else "raise"
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier, "total": total}
        return new_outcome(Outcome, (key, details, ()))

    return group_roll


def _group_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = _trait_dice(tables, p)
    return cached_grade_odds(sides, 1, modifier, p["tn"])


def group_roll_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "group_roll",
        "Group roll",
        Schema((die_field(), MODIFIER, TN, untrained_field(tables))),
        GRADES,
        partial(_group_plan, tables),
        partial(_group_odds, tables),
        "A unit of two or more figures rolls one trait die and one Wild Die for all of them.",
        "trait die (and its aces), then the Wild Die (and its aces)",
    )


GROUP_ROLL = group_roll_check(t.BASE)


_KILLED = (Effect("actor", "status", "set", "dead"),)


def _vigor_plan(p: Params) -> Resolver:
    roll, modifier = trait_roller(p["die"], _wild_dice(p), "vigor"), p["modifier"]
    # The best die (before the modifier) that reaches TN 4.
    survives_from = t.STANDARD_TN - modifier

    def vigor_test(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        if best >= survives_from:
            return new_outcome(Outcome, ("survives", details, ()))
        return new_outcome(Outcome, ("killed", details, _KILLED))

    return vigor_test


def _vigor_odds(p: Params) -> dict[str, Fraction]:
    odds = cached_grade_odds(p["die"], _wild_dice(p), p["modifier"], t.STANDARD_TN)
    return {"survives": odds["success"] + odds["raise"], "killed": odds["failure"]}


VIGOR_TEST = planned(
    "vigor_test",
    "Post-game Vigor test",
    Schema((die_field(help_text="Vigor die."), MODIFIER, WILD_CARD)),
    ("survives", "killed"),
    _vigor_plan,
    _vigor_odds,
    "A unit removed from play rolls Vigor after the game: success is knocked out, failure "
    "killed. A unit of several figures rolls as a group (wild_card=true: a group roll has a "
    "Wild Die) with +1 per figure not removed.",
    "Vigor die (and its aces), then the Wild Die (and its aces)",
    skill="vigor",
)

RECOVERY_KEYS = {"failure": "still_shaken", "success": "recovers", "raise": "acts"}


_RECOVERED = (Effect("actor", "shaken", "set", 0),)


def _recover_plan(p: Params) -> Resolver:
    roll, modifier = trait_roller(p["die"], _wild_dice(p), "spirit"), p["modifier"]
    # The best die (before the modifier) that reaches TN 4, and a raise over it.
    recovers_from = t.STANDARD_TN - modifier
    acts_from = recovers_from + t.RAISE_STEP

    def recover(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        if best < recovers_from:
            return new_outcome(Outcome, ("still_shaken", details, ()))
        key = "recovers" if best < acts_from else "acts"
        return new_outcome(Outcome, (key, details, _RECOVERED))

    return recover


def _recover_odds(p: Params) -> dict[str, Fraction]:
    odds = cached_grade_odds(p["die"], _wild_dice(p), p["modifier"], t.STANDARD_TN)
    return fold_grades(RECOVERY_KEYS.__getitem__, odds)


RECOVER = planned(
    "recover",
    "Recover from Shaken",
    Schema((die_field(help_text="Spirit die."), MODIFIER, WILD_CARD)),
    tuple(RECOVERY_KEYS.values()),
    _recover_plan,
    _recover_odds,
    "A Shaken figure rolls Spirit at the start of its action: failure stays Shaken, success "
    "recovers but spends the action, a raise recovers and acts.",
    "Spirit die (and its aces), then the Wild Die (and its aces)",
    skill="spirit",
)


# --- attacks ------------------------------------------------------------------------------


def _fighting_modifier(tables: t.GGTables, p: Params) -> int:
    gang = min(int(p["gang_up"]), tables.GANG_UP_MAX) if p["gang_up"] else 0
    touch = tables.SITUATION_MODIFIERS["touch_attack"] if p["touch"] else 0
    off_hand = tables.SITUATION_MODIFIERS["off_hand"] if p["off_hand"] else 0
    return _common_modifier(tables, p) + gang + touch + off_hand


def _fighting_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = skill_dice(tables, p["die"], _fighting_modifier(tables, p))
    roll = trait_roller(sides, _wild_dice(p), "fighting")
    # The best die (before the modifier) that reaches the Parry, and a raise over it.
    hit_from = p["parry"] - modifier
    raise_from = hit_from + t.RAISE_STEP

    def fighting(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        key = "miss" if best < hit_from else "hit" if best < raise_from else "raise"
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        return new_outcome(Outcome, (key, details, ()))

    return fighting


def _fighting_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = skill_dice(tables, p["die"], _fighting_modifier(tables, p))
    odds = cached_grade_odds(sides, _wild_dice(p), modifier, p["parry"])
    return fold_grades(_HIT_OF.__getitem__, odds)


def fighting_check(tables: t.GGTables) -> PlannedCheck:
    gang_up = f"Other attackers next to the defender: +1 each, max {signed(tables.GANG_UP_MAX)}."
    return planned(
        "fighting",
        "Melee attack",
        Schema(
            (
                _skill_die(tables, "Fighting die"),
                WILD_CARD,
                int_field("parry", 5, 2, 20, "The defender's Parry: the TN to hit."),
                int_field("gang_up", 0, 0, 12, gang_up),
                joker_field(tables),
                WOUNDS,
                _actions_field(tables),
                _situation_flag(tables, "running", "running", "Ran this round"),
                _situation_flag(tables, "touch", "touch_attack", "Only touching the foe"),
                _situation_flag(
                    tables,
                    "off_hand",
                    "off_hand",
                    "Off-hand attack of a figure that is not Ambidextrous",
                ),
                MODIFIER,
            )
        ),
        HITS,
        partial(_fighting_plan, tables),
        partial(_fighting_odds, tables),
        "Fighting against the defender's Parry; a raise adds a d6 to the damage.",
        "Fighting die (and its aces), then the Wild Die (and its aces)",
        skill="fighting",
    )


FIGHTING = fighting_check(t.BASE)

SHOTS = ("miss", "hit", "raise", "miss_jammed", "hit_jammed", "raise_jammed")


def _shooting_modifier(tables: t.GGTables, p: Params) -> int:
    total = _common_modifier(tables, p) + range_and_cover(tables, p)
    if p["unstable_platform"] or p["dark"] or p["fog"]:
        situation = tables.SITUATION_MODIFIERS
        total += sum(situation[f] for f in ("unstable_platform", "dark", "fog") if p[f])
    return total


_JAMMED = (Effect("actor", "loaded", "set", False, "a natural 1: reload before firing"),)


def _shooting_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = skill_dice(tables, p["die"], _shooting_modifier(tables, p))
    roll = trait_roller(sides, _wild_dice(p), "shooting")
    # The best die (before the modifier) that reaches the TN, and a raise over it.
    hit_from = p["tn"] - modifier
    raise_from = hit_from + t.RAISE_STEP
    # Every die a natural 1 (the best die is 1) jams the gun, whatever the total.
    jammed = _HIT_OF[grade(1 + modifier, p["tn"])] + "_jammed"

    def shooting(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        if best == 1:
            return new_outcome(Outcome, (jammed, details, _JAMMED))
        key = "miss" if best < hit_from else "hit" if best < raise_from else "raise"
        return new_outcome(Outcome, (key, details, ()))

    return shooting


def _shooting_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = skill_dice(tables, p["die"], _shooting_modifier(tables, p))
    wild = _wild_dice(p)
    odds = fold_grades(_HIT_OF.__getitem__, cached_grade_odds(sides, wild, modifier, p["tn"]))
    jam = Fraction(1, sides) * Fraction(1, 6) ** wild
    jam_key = _HIT_OF[grade(1 + modifier, p["tn"])]
    result = {key: odds[key] for key in HITS}
    result[jam_key] -= jam
    result[f"{jam_key}_jammed"] = jam
    return result


def _range_field(tables: t.GGTables) -> Field:
    return _pick("range", tables.RANGE_MODIFIERS, "short", "Range bracket of the target.")


def _cover_field(tables: t.GGTables) -> Field:
    return _pick("cover", tables.COVER_MODIFIERS, "none", "The target's cover.")


def shooting_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "shooting",
        "Ranged attack",
        Schema(
            (
                _skill_die(tables, "Shooting (or Throwing) die"),
                WILD_CARD,
                _range_field(tables),
                _cover_field(tables),
                int_field(
                    "tn", t.STANDARD_TN, 1, 20, "4, or the defender's Parry for a pistol in melee."
                ),
                _situation_flag(
                    tables,
                    "unstable_platform",
                    "unstable_platform",
                    "Firing from horseback or a moving vehicle",
                ),
                _situation_flag(tables, "dark", "dark", "The Dark of Night"),
                _situation_flag(tables, "fog", "fog", "Shooting into fog"),
                joker_field(tables),
                WOUNDS,
                _actions_field(tables),
                _situation_flag(tables, "running", "running", "Ran this round"),
                MODIFIER,
            )
        ),
        SHOTS,
        partial(_shooting_plan, tables),
        partial(_shooting_odds, tables),
        "Shooting at TN 4 with range, cover and situation modifiers. A natural 1 on the "
        "Shooting die (and on the Wild Die too, for a Wild Card) means the gun must be "
        "reloaded: the outcome gains _jammed.",
        "Shooting die (and its aces), then the Wild Die (and its aces)",
        skill="shooting",
    )


SHOOTING = shooting_check(t.BASE)

HIT_COUNTS = tuple(f"hits_{n}" for n in range(t.FANFIRE_MAX_SHOTS + 1))


def _autofire_modifier(tables: t.GGTables, p: Params) -> int:
    penalty = tables.SITUATION_MODIFIERS["fanfire" if p["fanfire"] else "autofire"]
    return _common_modifier(tables, p) + penalty + range_and_cover(tables, p)


#: Any natural 1 on an automatic weapon's Shooting dice: one immutable Effect for every jam.
_AUTOFIRE_JAM_EFFECTS = (Effect("actor", "loaded", "set", False, "a natural 1: reload"),)


def _autofire_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = skill_dice(tables, p["die"], _autofire_modifier(tables, p))
    count, wild_card, need = p["shots"], p["wild_card"], p["tn"] - modifier

    def autofire(p: Params, dice: Dice) -> Outcome:
        shots = roll_aced_pool(dice, sides, count, "shooting")
        wild = roll_aced(dice, t.WILD_DIE, "shooting: wild die") if wild_card else None
        hits = len([s for s in shots if s >= need])
        if wild is not None and wild >= need and hits < count:
            hits += 1  # the Wild Die stands in for one missing Shooting die
        jammed = 1 in shots
        details = {
            "shooting_dice": list(shots),
            "wild_die": wild,
            "modifier": modifier,
            "jammed": jammed,
        }
        effects = _AUTOFIRE_JAM_EFFECTS if jammed else ()
        return new_outcome(Outcome, (HIT_COUNTS[hits], details, effects))

    return autofire


def _autofire_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = skill_dice(tables, p["die"], _autofire_modifier(tables, p))
    hit = ace_tail(sides, p["tn"] - modifier)
    binomial = _binomial(p["shots"], hit)
    if not p["wild_card"]:
        return {f"hits_{k}": pk for k, pk in enumerate(binomial)}
    wild = ace_tail(6, p["tn"] - modifier)
    odds = {
        f"hits_{k}": pk * (ONE - wild if k < p["shots"] else ONE) for k, pk in enumerate(binomial)
    }
    for k in range(p["shots"]):
        odds[f"hits_{k + 1}"] += binomial[k] * wild
    return odds


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (ONE - p) ** (n - k) for k in range(n + 1)]


def autofire_check(tables: t.GGTables) -> PlannedCheck:
    situation = tables.SITUATION_MODIFIERS
    autofire, fanfire = signed(situation["autofire"]), signed(situation["fanfire"])
    return planned(
        "autofire",
        "Automatic fire or fanfire",
        Schema(
            (
                _skill_die(tables, "Shooting die"),
                WILD_CARD,
                int_field(
                    "shots", 3, 2, t.FANFIRE_MAX_SHOTS, "Shooting dice (RoF; fanfire up to 6)."
                ),
                flag_field(
                    "fanfire",
                    f"Fanning a single-action six-shooter at short range: {fanfire}, not "
                    f"{autofire}.",
                ),
                _range_field(tables),
                _cover_field(tables),
                TN,
                joker_field(tables),
                WOUNDS,
                MODIFIER,
            )
        ),
        HIT_COUNTS,
        partial(_autofire_plan, tables),
        partial(_autofire_odds, tables),
        f"Several Shooting dice at {autofire} (fanfire {fanfire}); a Wild Card's one Wild Die "
        "may replace a missing die. Any natural 1 on a Shooting die means a reload (see "
        "details).",
        "each Shooting die in turn (with its aces), then the Wild Die (and its aces)",
        skill="shooting",
    )


AUTOFIRE = autofire_check(t.BASE)


def _volley_wild_dice(p: Params) -> int:
    return 1 + int(p["figures"]) // t.VOLLEY_FIGURES_PER_WILD_DIE


def _volley_modifier(tables: t.GGTables, p: Params) -> int:
    return int(p["modifier"]) + range_and_cover(tables, p)


#: A hit by a volley forces a Spirit test; Effects are immutable, so one serves every hit.
_VOLLEY_HIT_EFFECTS = (
    Effect("target", "spirit_test", "set", True, "hit by a volley: pass Spirit or Shaken"),
)


def _volley_plan(tables: t.GGTables, p: Params) -> Resolver:
    # The Wild Dice are rolled as one pool: the same dice, labels and details as `roll_trait`.
    die, wild_dice, modifier = p["die"], _volley_wild_dice(p), _volley_modifier(tables, p)
    tn = p["tn"]
    raise_at = tn + t.RAISE_STEP

    def volley_fire(p: Params, dice: Dice) -> Outcome:
        trait = roll_aced(dice, die, "volley")
        wild = roll_aced_pool(dice, t.WILD_DIE, wild_dice, "volley: wild die")
        total = max(trait, *wild) + modifier
        details = {"trait_die": trait, "wild_dice": list(wild), "modifier": modifier}
        details["total"] = total
        if total < tn:
            return new_outcome(Outcome, ("miss", details, ()))
        key = "hit" if total < raise_at else "raise"
        return new_outcome(Outcome, (key, details, _VOLLEY_HIT_EFFECTS))

    return volley_fire


def _volley_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    odds = cached_grade_odds(p["die"], _volley_wild_dice(p), _volley_modifier(tables, p), p["tn"])
    return fold_grades(_HIT_OF.__getitem__, odds)


def volley_fire_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "volley_fire",
        "Volley fire",
        Schema(
            (
                die_field(help_text="Shooting die of the volleying units."),
                int_field(
                    "figures", 10, 10, 36, "Figures firing (two or more units of 5+ in contact)."
                ),
                _range_field(tables),
                _cover_field(tables),
                TN,
                MODIFIER,
            )
        ),
        HITS,
        partial(_volley_plan, tables),
        partial(_volley_odds, tables),
        "A group Shooting roll with its Wild Die plus a bonus Wild Die per 5 figures firing; "
        "units hit must pass Spirit (use `fear`-style group Spirit) or be Shaken.",
        "Shooting die (and its aces), then each Wild Die in turn (and its aces)",
        skill="shooting",
    )


VOLLEY_FIRE = volley_fire_check(t.BASE)


# --- damage and soak ----------------------------------------------------------------------

DAMAGE = ("no_effect", "shaken", "wounded", "removed")


def _source(tables: t.GGTables, p: Params) -> t.Weapon:
    """The weapon or hazard of a damage roll, from the weapon table in force."""
    return tables.DAMAGE_SOURCES[p["weapon"]]


def _damage_dice(p: Params, weapon: t.Weapon) -> tuple[int, ...]:
    strength = (p["strength"],) if weapon.strength else ()
    extra = (t.BONUS_DAMAGE_DIE,) * (int(p["raise_hit"]) + int(p["charging"]))
    return strength + weapon.dice + extra


def _damage_bonus(tables: t.GGTables, p: Params, weapon: t.Weapon) -> int:
    joker = tables.JOKER_BONUS if p["joker"] else 0
    return weapon.bonus + joker + int(p["modifier"])


def _toughness(tables: t.GGTables, p: Params) -> int:
    return int(p["toughness"]) + (tables.MOUNTED_TOUGHNESS_BONUS if p["mounted_target"] else 0)


def _damage_result(p: Params, scored: int) -> tuple[str, int]:
    """Return (outcome key, wounds dealt) for a damage roll's raises over Toughness."""
    if scored < 0:
        return "no_effect", 0
    wounds = scored if scored else (1 if p["target_shaken"] else 0)
    if wounds == 0:
        return "shaken", 0
    if not p["target_wild_card"]:
        return "removed", 1
    over = p["target_wounds"] + wounds > t.WILD_CARD_MAX_WOUNDS
    return ("removed" if over else "wounded"), wounds


#: Effects are immutable, so each damage result's effects are built once (they are most of a
#: damage check's Python time otherwise).
_SHAKEN_BY_DAMAGE = (Effect("target", "shaken", "add", 1, "Shaken"),)
_FIGURE_REMOVED = Effect("target", "figures", "add", -1, "figure removed")
_WAS_SHAKEN = Effect("target", "shaken", "add", -1)
_UNIT_OUT = Effect("target", "status", "set", "out")
#: (the target unit's last figure, the target was Shaken) -> effects of removing a figure.
_REMOVAL = {
    (last, shaken): (
        _FIGURE_REMOVED,
        *((_WAS_SHAKEN,) if shaken else ()),
        *((_UNIT_OUT,) if last else ()),
    )
    for last in (False, True)
    for shaken in (False, True)
}


@lru_cache(maxsize=64)
def _wounding(wounds: int) -> tuple[Effect, ...]:
    return (Effect("target", "wounds", "add", wounds), Effect("target", "shaken", "set", 1))


def _damage_effects(p: Params, key: str, wounds: int) -> tuple[Effect, ...]:
    if key == "no_effect":
        return ()
    if key == "shaken":
        return _SHAKEN_BY_DAMAGE
    if key == "wounded":
        return _wounding(wounds)
    return _REMOVAL[p["target_figures"] == 1, bool(p["target_shaken"])]


#: Raises over Toughness whose result a damage plan works out in advance (more are rare).
_SCORES_PLANNED = range(-1, t.WILD_CARD_MAX_WOUNDS + 2)


def _damage_verdict(p: Params, scored: int) -> tuple[str, int, tuple[Effect, ...]]:
    """The outcome key, wounds dealt and effects of a damage roll scoring `scored` raises."""
    key, wounds = _damage_result(p, scored)
    return key, wounds, _damage_effects(p, key, wounds)


def _damage_plan(tables: t.GGTables, p: Params) -> Resolver:
    weapon = _source(tables, p)  # the weapon table is a club's to edit
    runs = dice_runs(_damage_dice(p, weapon))
    bonus, toughness = _damage_bonus(tables, p, weapon), _toughness(tables, p)
    verdicts = tuple(_damage_verdict(p, scored) for scored in _SCORES_PLANNED)
    unplanned = _SCORES_PLANNED.stop  # from here on, worked out when it comes

    def damage(p: Params, dice: Dice) -> Outcome:
        if len(runs) == 1:  # one size of die (Str d6 and a d6 sabre): one pool
            rolled = list(roll_aced_pool(dice, *runs[0], "damage"))
        else:
            rolled = []
            for sides, count in runs:
                rolled.extend(roll_aced_pool(dice, sides, count, "damage"))
        total = sum(rolled) + bonus
        scored = (total - toughness) // t.RAISE_STEP if total >= toughness else -1
        key, wounds, effects = (
            verdicts[scored + 1] if scored < unplanned else _damage_verdict(p, scored)
        )
        details = {"dice": rolled, "bonus": bonus, "total": total, "toughness": toughness}
        details["wounds"] = wounds
        return new_outcome(Outcome, (key, details, effects))

    return damage


def _damage_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    weapon = _source(tables, p)
    dice, need = _damage_dice(p, weapon), _toughness(tables, p) - _damage_bonus(tables, p, weapon)
    cap = t.WILD_CARD_MAX_WOUNDS + 1 - p["target_wounds"] if p["target_wild_card"] else 1
    tails = [sum_tail(dice, need + t.RAISE_STEP * k) for k in range(cap + 1)] + [ZERO]
    odds = {key: ZERO for key in DAMAGE}
    odds[_damage_result(p, -1)[0]] += ONE - tails[0]
    for scored in range(cap + 1):
        # The last band is "cap raises or more": every count past it is removed as well.
        band = tails[scored] - (tails[scored + 1] if scored < cap else ZERO)
        odds[_damage_result(p, scored)[0]] += band
    return odds


#: The damage check's weapon when none is given (the text's own sabre, unless a club's weapon
#: table drops it: then its first weapon).
DEFAULT_WEAPON = "sabre"


def _weapon_field(tables: t.GGTables) -> Field:
    """The damage check's weapon: every weapon of the (house) weapon table, then the hazards."""
    sources = tables.DAMAGE_SOURCES
    return Field(
        "weapon",
        "choice",
        default=DEFAULT_WEAPON if DEFAULT_WEAPON in sources else next(iter(sources)),
        choices=tuple((w.key, f"{w.name} ({w.damage_text})") for w in sources.values()),
        help="Weapon or hazard: melee weapons add the attacker's Strength.",
    )


def damage_check(tables: t.GGTables) -> PlannedCheck:
    mounted = signed(tables.MOUNTED_TOUGHNESS_BONUS)
    return planned(
        "damage",
        "Damage against Toughness",
        Schema(
            (
                _weapon_field(tables),
                die_field("strength", "The attacker's Strength die (melee weapons only)."),
                flag_field("raise_hit", "The attack hit with a raise: +d6 bonus damage."),
                flag_field("charging", 'A rider who charged more than 6": +d6.'),
                joker_field(tables),
                MODIFIER,
                int_field("toughness", 5, 1, 30, "The target's Toughness (armour included)."),
                flag_field("mounted_target", f"The target rides: {mounted} Toughness."),
                flag_field(
                    "target_wild_card", "The target is a Wild Card (takes wounds, not removal)."
                ),
                flag_field(
                    "target_shaken", "The target is already Shaken (a second Shaken is a wound)."
                ),
                int_field(
                    "target_wounds", 0, 0, t.WILD_CARD_MAX_WOUNDS, "Wounds the Wild Card has."
                ),
                int_field(
                    "target_figures", 1, 1, t.UNIT_MAX_FIGURES, "Figures left in the target unit."
                ),
            )
        ),
        DAMAGE,
        partial(_damage_plan, tables),
        partial(_damage_odds, tables),
        "Aced damage dice against Toughness: equal or more Shakes, each raise wounds. Extras "
        "are removed by a wound; a Wild Card is removed by a fourth wound.",
        "Strength die (melee), each weapon die, the raise d6, the charge d6 - each with its aces",
        # Rolled against whoever a blast or a shot into a melee struck, own figures included.
        friendly_fire=True,
    )


DAMAGE_CHECK = damage_check(t.BASE)

SOAK = ("soaked_all", "soaked_some", "soaked_none")


def _soak_plan(p: Params) -> Resolver:
    roll = trait_roller(p["die"], _wild_dice(p), "soak")
    modifier, wounds = p["modifier"], p["wounds"]
    # What soaking 0, 1 ... all the wounds gives: its key and effects, built once.
    soaks = [("soaked_none", ())] + [
        (
            "soaked_all" if soaked == wounds else "soaked_some",
            (Effect("actor", "wounds", "add", -soaked, "soaked"),),
        )
        for soaked in range(1, wounds + 1)
    ]

    def soak(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        total = best + modifier
        # A success and each raise cancel a wound, up to the attack's wounds.
        soaked = (total - t.STANDARD_TN) // t.RAISE_STEP + 1 if total >= t.STANDARD_TN else 0
        if soaked > wounds:
            soaked = wounds
        key, effects = soaks[soaked]
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier, "total": total}
        details["soaked"] = soaked
        return new_outcome(Outcome, (key, details, effects))

    return soak


def _soak_odds(p: Params) -> dict[str, Fraction]:
    def reach(total: int) -> Fraction:
        return best_tail(p["die"], _wild_dice(p), total - p["modifier"])

    all_ = reach(t.STANDARD_TN + t.RAISE_STEP * (p["wounds"] - 1))
    some = reach(t.STANDARD_TN)
    return {"soaked_all": all_, "soaked_some": some - all_, "soaked_none": ONE - some}


SOAK_CHECK = planned(
    "soak",
    "Soak roll",
    Schema(
        (
            die_field(help_text="Vigor die."),
            WILD_CARD,
            int_field("wounds", 1, 1, 8, "Wounds from this one attack."),
            MODIFIER,
        )
    ),
    SOAK,
    _soak_plan,
    _soak_odds,
    "After spending a Benny: Vigor; a success and each raise cancel one wound of the attack.",
    "Vigor die (and its aces), then the Wild Die (and its aces)",
    skill="vigor",
)


# --- fear ---------------------------------------------------------------------------------


def _fear_wild(p: Params) -> int:
    return 1 if p["wild_card"] or p["figures"] > 1 else 0


def _fear_plan(p: Params) -> Resolver:
    roll, modifier = trait_roller(p["die"], _fear_wild(p), "spirit"), p["modifier"]
    steady_from = t.STANDARD_TN - modifier  # the best die (before the modifier) that holds
    afraid = (
        (Effect("actor", "shaken", "set", p["figures"], "Fear: Shaken"),)
        if p["charged"]
        else (Effect("actor", "lost_action", "set", True, "Fear: refuses melee"),)
    )

    def fear(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        if best >= steady_from:
            return new_outcome(Outcome, ("steady", details, ()))
        return new_outcome(Outcome, ("afraid", details, afraid))

    return fear


def _fear_odds(p: Params) -> dict[str, Fraction]:
    odds = cached_grade_odds(p["die"], _fear_wild(p), p["modifier"], t.STANDARD_TN)
    return {"steady": odds["success"] + odds["raise"], "afraid": odds["failure"]}


FEAR = planned(
    "fear",
    "Fear test",
    Schema(
        (
            die_field(help_text="Spirit die."),
            WILD_CARD,
            int_field("figures", 1, 1, t.UNIT_MAX_FIGURES, "Figures testing (2+: a group roll)."),
            flag_field("charged", "Charged by the feared unit (else: wants to charge it)."),
            MODIFIER,
        )
    ),
    ("steady", "afraid"),
    _fear_plan,
    _fear_odds,
    "A group Spirit roll: a unit that fails refuses to charge and loses its action, or, when "
    "charged, is Shaken before the attack lands.",
    "Spirit die (and its aces), then the Wild Die (and its aces)",
    skill="spirit",
)
