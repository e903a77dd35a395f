"""Grits & Glory's opposed rolls, each one check: interrupting from Hold, setting weapons against
a charge, Intimidation, Taunt, and Notice against Stealth.

Both sides roll aced trait dice (a Wild Die for Wild Cards and group rolls); the side making the
roll rolls first, then the side opposing it (the text: "The acting figure gets his trait total
first"). `contest.py` gives the exact odds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple

from rules.checks import Effect, Outcome, Resolver
from rules.dice import Dice
from rules.plans import PlannedCheck, new_outcome, planned
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.aces import ONE
from rules.systems.grits_and_glory.checks import int_field, skill_dice
from rules.systems.grits_and_glory.contest import Side, over
from rules.systems.grits_and_glory.plans import trait_roller
from rules.systems.grits_and_glory.stats import DIE_CHOICES, SKILL_CHOICES

Params = Mapping[str, Any]


# --- the two sides ------------------------------------------------------------------------


class SideKeys(NamedTuple):
    """The parameter names of one side of an opposed roll."""

    die: str
    modifier: str
    wild_card: str


OURS = SideKeys("die", "modifier", "wild_card")
FOES = SideKeys("foe_die", "foe_modifier", "foe_wild_card")


def _side_fields(
    keys: SideKeys, trait: str, whose: str, skill: t.GGTables | None
) -> tuple[Field, ...]:
    """Die, modifier and Wild Die for one side; a skill (given the tables that say how an
    untrained one rolls) may be untrained (die 0: d4-2)."""
    untrained = f" (untrained: {t.untrained_text(skill)})" if skill else ""
    return (
        Field(
            keys.die,
            "die",
            default=6,
            choices=SKILL_CHOICES if skill else DIE_CHOICES,
            help=f"{whose} {trait} die{untrained}.",
        ),
        int_field(keys.modifier, 0, -20, 20, f"{whose} modifiers, summed."),
        Field(
            keys.wild_card,
            "bool",
            default=False,
            help=f"{whose} a Wild Card, or a unit of two or more rolling as a group, adds a "
            "Wild Die.",
        ),
    )


def _side(tables: t.GGTables, p: Params, keys: SideKeys, bonus: int = 0) -> tuple[int, int, int]:
    """Return (sides, Wild Dice, modifier) of one side; die 0 is an untrained d4-2."""
    sides, modifier = skill_dice(tables, p[keys.die], p[keys.modifier] + bonus)
    return sides, 1 if p[keys.wild_card] else 0, modifier


def _odds_side(tables: t.GGTables, p: Params, keys: SideKeys, bonus: int = 0) -> Side:
    sides, wild, modifier = _side(tables, p, keys, bonus)
    return Side((sides,) + (t.WILD_DIE,) * wild, modifier)


#: Both totals of an opposed roll, and its details.
Contest = Callable[[Dice], tuple[int, int, dict[str, Any]]]


def _contest(
    tables: t.GGTables, p: Params, labels: tuple[str, str], bonus: int = 0, foe_bonus: int = 0
) -> Contest:
    """Plan the side making the roll, then the side opposing it, each die with its aces.

    `labels` label each side's trait die; its Wild Die is "<label>: wild die" (`roll_trait`'s).
    """
    sides, wild_dice, modifier = _side(tables, p, OURS, bonus)
    foe_sides, foe_wild_dice, foe_modifier = _side(tables, p, FOES, foe_bonus)
    ours = trait_roller(sides, wild_dice, labels[0])
    theirs = trait_roller(foe_sides, foe_wild_dice, labels[1])

    def contest(dice: Dice) -> tuple[int, int, dict[str, Any]]:
        trait, wild, best = ours(dice)
        foe_trait, foe_wild, foe_best = theirs(dice)
        total, foe_total = best + modifier, foe_best + foe_modifier
        details = {
            "trait_die": trait,
            "wild_dice": wild,
            "modifier": modifier,
            "total": total,
            "foe_trait_die": foe_trait,
            "foe_wild_dice": foe_wild,
            "foe_modifier": foe_modifier,
            "foe_total": foe_total,
        }
        return total, foe_total, details

    return contest


# --- who goes first: interrupting from Hold, setting weapons ------------------------------

#: Interrupting uses the held action whatever the roll: a Held action lasts until it is used.
_HOLD_SPENT = (Effect("actor", "on_hold", "set", False, "the held action is used"),)


def _who_first(total: int, foe_total: int, keys: tuple[str, str, str]) -> str:
    if total == foe_total:
        return keys[1]
    return keys[0] if total > foe_total else keys[2]


def _first_odds(ours: Side, theirs: Side, keys: tuple[str, str, str]) -> dict[str, Fraction]:
    ahead, level = over(ours, theirs, 1), over(ours, theirs, 0)
    return {keys[0]: ahead, keys[1]: level - ahead, keys[2]: ONE - level}


INTERRUPT_KEYS = ("interrupts", "simultaneous", "acts_after")
_INTERRUPT_LABELS = ("agility (holding)", "agility (acting)")


def _interrupt_plan(tables: t.GGTables, p: Params) -> Resolver:
    contest = _contest(tables, p, _INTERRUPT_LABELS)

    def interrupt(p: Params, dice: Dice) -> Outcome:
        total, foe_total, details = contest(dice)
        key = _who_first(total, foe_total, INTERRUPT_KEYS)
        return new_outcome(Outcome, (key, details, _HOLD_SPENT))

    return interrupt


def _interrupt_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    ours, theirs = _odds_side(tables, p, OURS), _odds_side(tables, p, FOES)
    return _first_odds(ours, theirs, INTERRUPT_KEYS)


def interrupt_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "interrupt",
        "Interrupting from Hold",
        Schema(
            (
                *_side_fields(OURS, "Agility", "The unit on Hold:", skill=None),
                *_side_fields(FOES, "Agility", "The unit acting:", skill=None),
            )
        ),
        INTERRUPT_KEYS,
        partial(_interrupt_plan, tables),
        partial(_interrupt_odds, tables),
        "A unit on Hold interrupts with an opposed Agility roll: the higher total acts first, a "
        "tie acts simultaneously. No TN: someone has to go first. A Joker interrupts without a "
        "roll.",
        "the holding unit's Agility die (and its aces) and Wild Die (and its aces), then the "
        "acting unit's Agility die and Wild Die",
        skill="agility",
    )


INTERRUPT = interrupt_check(t.BASE)

SET_WEAPON_KEYS = ("set_first", "simultaneous", "charge_first")
#: The winner adds the +4 charge bonus to damage, the loser none; a tie has no winner.
_SET_WEAPON_DAMAGE = {
    "set_first": (t.SET_WEAPON_DAMAGE_BONUS, 0),
    "simultaneous": (0, 0),
    "charge_first": (0, t.SET_WEAPON_DAMAGE_BONUS),
}


def _set_bonus(p: Params) -> int:
    return t.SET_WEAPON_REACH_BONUS * int(p["reach"])


_SET_WEAPON_LABELS = ("agility (set weapon)", "agility (rider)")


def _set_weapons_plan(tables: t.GGTables, p: Params) -> Resolver:
    contest = _contest(tables, p, _SET_WEAPON_LABELS, _set_bonus(p))

    def set_weapons(p: Params, dice: Dice) -> Outcome:
        total, foe_total, details = contest(dice)
        key = _who_first(total, foe_total, SET_WEAPON_KEYS)
        details["damage_bonus"], details["foe_damage_bonus"] = _SET_WEAPON_DAMAGE[key]
        return new_outcome(Outcome, (key, details, _HOLD_SPENT))

    return set_weapons


def _set_weapons_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    ours = _odds_side(tables, p, OURS, _set_bonus(p))
    return _first_odds(ours, _odds_side(tables, p, FOES), SET_WEAPON_KEYS)


def set_weapons_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "set_weapons",
        "Setting weapons against a charge",
        Schema(
            (
                *_side_fields(
                    OURS, "Agility", "The figure on Hold with a Reach weapon:", skill=None
                ),
                int_field(
                    "reach", 1, 1, 3, "The weapon's Reach (spear 1, lance 2): +2 Agility each."
                ),
                *_side_fields(FOES, "Agility", "The charging rider:", skill=None),
            )
        ),
        SET_WEAPON_KEYS,
        partial(_set_weapons_plan, tables),
        partial(_set_weapons_odds, tables),
        "The interrupt roll of a figure on Hold charged by a mount, +2 Agility per point of "
        "Reach: the winner attacks first with +4 damage (damage `modifier=4`, and the rider "
        "rolls no charge d6), the loser gains no bonus; a tie strikes at once with no bonus.",
        "the set weapon's Agility die (and its aces) and Wild Die (and its aces), then the "
        "rider's Agility die and Wild Die",
        skill="agility",
    )


SET_WEAPONS = set_weapons_check(t.BASE)


# --- Tests of Wills: Intimidation and Taunt; Notice against Stealth ------------------------

WILL_KEYS = ("resisted", "upper_hand", "shaken")
_UPPER_HAND = Effect(
    "actor", "upper_hand", "set", t.TEST_OF_WILL_BONUS, "+2 to the next action against that foe"
)
#: A Test of Wills Shakes but never wounds: a second Shaken from it does nothing more.
_WILL_EFFECTS = {
    "resisted": (),
    "upper_hand": (_UPPER_HAND,),
    "shaken": (_UPPER_HAND, Effect("target", "shaken", "add", 1, "Shaken by a Test of Wills")),
}


def _contest_key(total: int, foe_total: int, keys: tuple[str, str, str]) -> str:
    """Failure unless the total reaches 4 and beats the foe; a raise is 4 over the better."""
    if total < t.STANDARD_TN or total <= foe_total:
        return keys[0]
    return keys[2] if total >= max(t.STANDARD_TN, foe_total) + t.RAISE_STEP else keys[1]


def _contest_odds(ours: Side, theirs: Side, keys: tuple[str, str, str]) -> dict[str, Fraction]:
    wins = over(ours, theirs, 1, t.STANDARD_TN)
    raises = over(ours, theirs, t.RAISE_STEP, t.STANDARD_TN + t.RAISE_STEP)
    return {keys[0]: ONE - wins, keys[1]: wins - raises, keys[2]: raises}


def _will_check(
    tables: t.GGTables, name: str, skill: str, resisted_by: str, help_text: str
) -> PlannedCheck:
    labels = (skill.lower(), resisted_by.lower())

    def plan(p: Params) -> Resolver:
        contest = _contest(tables, p, labels)

        def test_of_wills(p: Params, dice: Dice) -> Outcome:
            total, foe_total, details = contest(dice)
            key = _contest_key(total, foe_total, WILL_KEYS)
            return new_outcome(Outcome, (key, details, _WILL_EFFECTS[key]))

        return test_of_wills

    def odds(p: Params) -> dict[str, Fraction]:
        ours, theirs = _odds_side(tables, p, OURS), _odds_side(tables, p, FOES)
        return _contest_odds(ours, theirs, WILL_KEYS)

    return planned(
        name,
        f"{skill} (a Test of Wills)",
        Schema(
            (
                *_side_fields(OURS, skill, f"The figure using {skill}:", skill=None),
                *_side_fields(FOES, resisted_by, 'The foe within 8":', skill=None),
            )
        ),
        WILL_KEYS,
        plan,
        odds,
        help_text,
        f"the {skill} die (and its aces) and Wild Die (and its aces), then the foe's "
        f"{resisted_by} die and Wild Die",
        skill=skill.lower(),
    )


def intimidate_check(tables: t.GGTables) -> PlannedCheck:
    return _will_check(
        tables,
        "intimidate",
        "Intimidation",
        "Spirit",
        "Opposed Intimidation against Spirit (needs the skill): beating the foe with 4 or more "
        "gives +2 to the next action against that foe; a raise also Shakes the foe. Ties resist.",
    )


def taunt_check(tables: t.GGTables) -> PlannedCheck:
    return _will_check(
        tables,
        "taunt",
        "Taunt",
        "Smarts",
        "Opposed Taunt against Smarts (needs the ability): beating the foe with 4 or more gives "
        "+2 to the next action against that foe; a raise also Shakes the foe. Ties resist.",
    )


INTIMIDATE = intimidate_check(t.BASE)
TAUNT = taunt_check(t.BASE)

#: Failure, success, raise: any win spots the hidden unit.
NOTICE_GRADES = ("unseen", "spotted", "spotted")


def _stealth_bonus(p: Params) -> int:
    dark = t.DARK_STEALTH_BONUS if p["dark"] else 0
    return t.STEALTH_RANGE_BONUS[p["range"]] + t.STEALTH_COVER_BONUS[p["cover"]] + dark


_NOTICE_LABELS = ("notice", "stealth")


def _notice_plan(tables: t.GGTables, p: Params) -> Resolver:
    contest = _contest(tables, p, _NOTICE_LABELS, foe_bonus=_stealth_bonus(p))

    def notice(p: Params, dice: Dice) -> Outcome:
        total, foe_total, details = contest(dice)
        key = _contest_key(total, foe_total, NOTICE_GRADES)
        return new_outcome(Outcome, (key, details, ()))

    return notice


def _notice_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    ours, theirs = _odds_side(tables, p, OURS), _odds_side(tables, p, FOES, _stealth_bonus(p))
    spotted = over(ours, theirs, 1, t.STANDARD_TN)
    return {"unseen": ONE - spotted, "spotted": spotted}


def _bonus_choice(name: str, bonuses: Mapping[str, int], meaning: str) -> Field:
    """A choice whose label shows the bonus it gives the hidden unit's Stealth."""
    return Field(
        name,
        "choice",
        default=next(iter(bonuses)),
        choices=tuple((key, f"{key} ({value:+d} Stealth)") for key, value in bonuses.items()),
        help=meaning,
    )


def notice_check(tables: t.GGTables) -> PlannedCheck:
    """Notice against Stealth; built by a function as its dice help names the untrained die."""
    return planned(
        "notice",
        "Notice against Stealth",
        Schema(
            (
                *_side_fields(OURS, "Notice", "The figure looking:", skill=tables),
                *_side_fields(FOES, "Stealth", "The hidden unit:", skill=tables),
                _bonus_choice(
                    "range", t.STEALTH_RANGE_BONUS, 'Range to the hidden unit: up to 5", 10", 20".'
                ),
                _bonus_choice("cover", t.STEALTH_COVER_BONUS, "The hidden unit's cover."),
                Field("dark", "bool", default=False, help="The Dark of Night: +2 to Stealth."),
            )
        ),
        ("unseen", "spotted"),
        partial(_notice_plan, tables),
        partial(_notice_odds, tables),
        "Opposed Notice against Stealth (a sentry's test, or any unit looking): a Notice total "
        'of 4 or more that beats the Stealth total reveals the unit. Beyond 20" there is no '
        "roll.",
        "the Notice die (and its aces) and Wild Die (and its aces), then the hidden unit's "
        "Stealth die and Wild Die",
        skill="notice",
    )


NOTICE = notice_check(t.BASE)
