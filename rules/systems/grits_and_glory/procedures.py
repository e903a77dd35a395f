"""Grits & Glory's procedures as checks: difficult ground, area-effect deviation, firing into a
melee, Reload N and Bennies. The area-effect attack and the Benny reroll show values a club may
edit (range modifiers, the untrained die), so they are built by functions (see checks.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

from rules.checks import Effect, Outcome, Resolver, distribution, multisets
from rules.dice import D6, Dice, d
from rules.plans import PlannedCheck, new_outcome, planned
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.aces import ONE, ZERO
from rules.systems.grits_and_glory.checks import (
    GRADES,
    MODIFIER,
    TN,
    WILD_CARD,
    WOUNDS,
    cached_grade_odds,
    die_field,
    flag_field,
    int_field,
    joker_field,
    skill_dice,
    untrained_field,
)
from rules.systems.grits_and_glory.plans import trait_roller
from rules.systems.grits_and_glory.stats import SKILL_CHOICES

Params = Mapping[str, Any]


# --- difficult ground ---------------------------------------------------------------------

GROUND_KEYS = ("full_pace", "slowed", "hindered")


def _ground_move(pace: int, running: bool, rolled: tuple[int, ...]) -> tuple[str, int]:
    """Return (outcome, inches): the lowest die caps the Pace, running adds the second lowest."""
    low, *rest = sorted(rolled)
    inches = min(low, pace) + (rest[0] if running else 0)
    if running and low == 1:
        return "hindered", inches
    return ("full_pace" if low >= pace else "slowed"), inches


def _ground_plan(p: Params) -> Resolver:
    pace, running = p["pace"], p["running"]
    count = t.DIFFICULT_GROUND_RUN_DICE if running else t.DIFFICULT_GROUND_DICE
    hindered = (Effect("actor", "shaken", "set", p["figures"], "hindered by the terrain"),)

    def difficult_ground(p: Params, dice: Dice) -> Outcome:
        rolled = dice.roll_many(count, D6, "difficult ground")
        key, inches = _ground_move(pace, running, rolled)
        details = {"dice": list(rolled), "inches": inches, "pace": pace}
        return new_outcome(Outcome, (key, details, hindered if key == "hindered" else ()))

    return difficult_ground


@lru_cache(maxsize=128)
def _ground_odds_for(pace: int, running: bool) -> dict[str, Fraction]:
    count = t.DIFFICULT_GROUND_RUN_DICE if running else t.DIFFICULT_GROUND_DICE
    # Only which faces came up matters (the lowest, a 1 among them): hands, not orderings.
    odds = distribution(
        multisets(range(1, 7), count), lambda rolled: _ground_move(pace, running, rolled)[0]
    )
    return {key: odds.get(key, ZERO) for key in GROUND_KEYS}


DIFFICULT_GROUND = planned(
    "difficult_ground",
    "Moving on difficult ground",
    Schema(
        (
            int_field("pace", 6, 1, 24, "The unit's Pace."),
            flag_field("running", "Running: a third d6, the lowest two count."),
            int_field("figures", 1, 1, t.UNIT_MAX_FIGURES, "Figures in the unit (all Shaken)."),
        )
    ),
    GROUND_KEYS,
    _ground_plan,
    lambda p: _ground_odds_for(p["pace"], p["running"]),
    "Entering or starting on difficult ground: 2d6, the lowest is the most inches moved (never "
    "more than Pace). Running: 3d6, the lowest two (the lowest still capped by Pace); a 1 among "
    "them Shakes the unit. full_pace: the lowest die reached the Pace.",
    "two d6 (three when running)",
)


# --- area effect ---------------------------------------------------------------------------

AREA_KEYS = ("on_target", "deviates")


def _area_roll(tables: t.GGTables, p: Params) -> tuple[int, int]:
    modifier = p["modifier"] + tables.RANGE_MODIFIERS[p["range"]] - p["wounds"]
    return skill_dice(tables, p["die"], modifier + (tables.JOKER_BONUS if p["joker"] else 0))


def _half(distance: int) -> int | float:
    return distance // 2 if distance % 2 == 0 else distance / 2


_DIRECTION_DIE = d(t.DEVIATION_DIRECTION_DIE)
_AREA_JAMMED = (Effect("actor", "loaded", "set", False, "a natural 1: reload"),)


def _deviation(p: Params) -> Callable[[Dice, dict[str, Any]], None]:
    """Plan a miss's deviation: its dice and how far, added to the attack's details."""
    die, multiplier = d(t.DEVIATION_DIE[p["delivery"]]), t.DEVIATION_RANGE_MULTIPLIER[p["range"]]
    distance = p["distance"]
    half = _half(distance)

    def deviate(dice: Dice, details: dict[str, Any]) -> None:
        rolled = dice.roll(die, "deviation")
        direction = dice.roll(_DIRECTION_DIE, "deviation direction (clock)")
        inches = rolled * multiplier
        capped = 2 * inches > distance
        details["deviation_die"] = rolled
        details["inches"] = half if capped else inches
        details["capped"] = capped
        details["direction"] = f"{direction} o'clock"

    return deviate


def _area_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, modifier = _area_roll(tables, p)
    roll = trait_roller(sides, 1 if p["wild_card"] else 0, "area attack")
    on_target_from = p["tn"] - modifier  # the best die (before the modifier) that centres it
    fired, deviate = p["delivery"] == "fired", _deviation(p)

    def area_effect(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        jammed = fired and best == 1  # the best die a 1: every die a natural 1
        effects = _AREA_JAMMED if jammed else ()
        details: dict[str, Any] = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        details["jammed"] = jammed
        if best >= on_target_from:
            return new_outcome(Outcome, ("on_target", details, effects))
        deviate(dice, details)
        return new_outcome(Outcome, ("deviates", details, effects))

    return area_effect


def _area_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, modifier = _area_roll(tables, p)
    odds = cached_grade_odds(sides, 1 if p["wild_card"] else 0, modifier, p["tn"])
    return {"on_target": ONE - odds["failure"], "deviates": odds["failure"]}


def _area_range_field(tables: t.GGTables) -> Field:
    ranges = tables.RANGE_MODIFIERS
    return Field(
        "range",
        "choice",
        default="short",
        choices=tuple(
            (key, f"{key} ({ranges[key]:+d}, deviation x{mult})")
            for key, mult in t.DEVIATION_RANGE_MULTIPLIER.items()
        ),
        help="Range bracket of the aiming point.",
    )


def area_effect_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "area_effect",
        "Area-effect attack",
        Schema(
            (
                Field(
                    "die",
                    "die",
                    default=6,
                    choices=SKILL_CHOICES,
                    help="Throwing (thrown) or Shooting (fired) die (untrained: "
                    f"{t.untrained_text(tables)}).",
                ),
                WILD_CARD,
                Field(
                    "delivery",
                    "choice",
                    default="thrown",
                    choices=(
                        ("thrown", 'thrown: deviates d6"'),
                        ("fired", 'fired: deviates d10"'),
                    ),
                    help="Thrown (a grenade) or fired (a launched projectile).",
                ),
                _area_range_field(tables),
                int_field(
                    "distance", 12, 1, 200, "Inches to the aiming point (caps the deviation)."
                ),
                joker_field(tables),
                WOUNDS,
                TN,
                MODIFIER,
            )
        ),
        AREA_KEYS,
        partial(_area_plan, tables),
        partial(_area_odds, tables),
        "Place the template and roll Shooting or Throwing: success centres it. Failure deviates "
        'd6" (thrown) or d10" (fired) times 1/2/3 for Short/Medium/Long, in the direction of a '
        "d12 read as a clock, never more than half the distance to the aiming point. Cover "
        "counts as Armour against the blast (add it to the damage check's toughness).",
        "the Shooting/Throwing die (and its aces), the Wild Die (and its aces); on a failure the "
        "deviation die (d6 thrown, d10 fired), then the d12 direction",
        # Everyone under the template is hit, friend or foe.
        friendly_fire=True,
    )


AREA_EFFECT = area_effect_check(t.BASE)


# --- firing into a melee -------------------------------------------------------------------

MELEE_HIT_KEYS = ("hits_target", "hits_other_foe", "hits_friend")


def _melee_hit(p: Params, face: int) -> str:
    """Face 1 is the intended target, then the other foes in contact, then the friends."""
    if face == 1:
        return "hits_target"
    return "hits_other_foe" if face <= 1 + p["foes"] else "hits_friend"


def _into_melee_plan(p: Params) -> Resolver:
    figures = 1 + p["foes"] + p["friends"]
    if figures == 1:
        return _only_the_target
    die, keys = d(figures), {face: _melee_hit(p, face) for face in range(1, figures + 1)}

    def into_melee(p: Params, dice: Dice) -> Outcome:
        face = dice.roll(die, "which figure is hit")
        return new_outcome(Outcome, (keys[face], {"roll": face, "figures": figures}, ()))

    return into_melee


def _only_the_target(p: Params, dice: Dice) -> Outcome:
    return new_outcome(Outcome, ("hits_target", {"roll": 1, "figures": 1}, ()))


def _into_melee_odds(p: Params) -> dict[str, Fraction]:
    figures = 1 + p["foes"] + p["friends"]
    return {
        "hits_target": Fraction(1, figures),
        "hits_other_foe": Fraction(p["foes"], figures),
        "hits_friend": Fraction(p["friends"], figures),
    }


INTO_MELEE = planned(
    "into_melee",
    "Firing into a melee",
    Schema(
        (
            int_field("foes", 0, 0, 8, "Other enemy figures in base contact with the target."),
            int_field("friends", 1, 0, 8, "Your figures in base contact with the target."),
        )
    ),
    MELEE_HIT_KEYS,
    _into_melee_plan,
    _into_melee_odds,
    "Each hit is given at random to the target or any figure in base contact with it, friend "
    "or foe alike; then roll damage as usual against the figure hit.",
    "one die with a face per figure (1 the target, then the other foes, then the friends); "
    "none when nobody else is in contact",
    # "When firing into melee you hit friends and foes with equal chance."
    friendly_fire=True,
)


# --- Reload N ------------------------------------------------------------------------------

RELOAD_KEYS = ("loaded", "reloading", "cannot_reload")
_RELOADED = (
    Effect("actor", "loaded", "set", True, "reloaded"),
    Effect("actor", "reloading", "set", 0),
)


def _reload_plan(p: Params) -> Resolver:
    effects: tuple[Effect, ...]
    if p["limited_ammunition"]:
        return _cannot_reload
    # A reload not yet begun (`reloading` 0) takes one action plus Reload N more rounds.
    left = (p["reloading"] if p["reloading"] else 1 + p["reload"]) - 1
    sole_action = p["reload"] > 0
    key, effects = "reloading", (Effect("actor", "reloading", "set", left),)
    if not left:
        key, effects = "loaded", _RELOADED

    def reload(p: Params, dice: Dice) -> Outcome:
        details = {"rounds_left": left, "sole_action": sole_action}
        return new_outcome(Outcome, (key, details, effects))

    return reload


def _cannot_reload(p: Params, dice: Dice) -> Outcome:
    return new_outcome(Outcome, ("cannot_reload", {"rounds_left": None}, ()))


def _reload_odds(p: Params) -> dict[str, Fraction]:
    if p["limited_ammunition"]:
        return {"cannot_reload": ONE}
    started = p["reloading"] if p["reloading"] else 1 + p["reload"]
    return {"loaded" if started == 1 else "reloading": ONE}


RELOAD = planned(
    "reload",
    "Reloading (Reload N)",
    Schema(
        (
            int_field("reload", 0, 0, 6, "The weapon's Reload N (musket 2; most firearms 0)."),
            int_field(
                "reloading",
                0,
                0,
                7,
                "The unit's `reloading` battle state: rounds still to spend (0: not begun).",
            ),
            flag_field("limited_ammunition", "The scenario's Limited Ammunition: no reloads."),
        )
    ),
    RELOAD_KEYS,
    _reload_plan,
    _reload_odds,
    "Reloading takes an action; Reload N adds N rounds, and such a reload is the unit's only "
    "action those rounds. Counts down the `reloading` battle state, then loads the weapon.",
    "no dice",
)


# --- Bennies -------------------------------------------------------------------------------

BENNY_GOALS = ("success", "raise")


def _benny_dice(tables: t.GGTables, p: Params) -> tuple[int, int, int]:
    sides, modifier = (
        (t.UNTRAINED_DIE, p["modifier"] + tables.UNTRAINED_PENALTY)
        if p["untrained"]
        else (p["die"], p["modifier"])
    )
    return sides, 1 if p["wild_card"] else 0, modifier


def _benny_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, wild, modifier = _benny_dice(tables, p)
    # The first roll, then one per Benny, each with its own label.
    rolls = [
        trait_roller(sides, wild, "trait" if attempt == 0 else f"benny {attempt}")
        for attempt in range(1 + p["bennies"])
    ]
    goal, tn = GRADES.index(p["goal"]), p["tn"]
    raise_at = tn + t.RAISE_STEP

    def benny_reroll(p: Params, dice: Dice) -> Outcome:
        best, tries = 0, []
        for roll in rolls:
            total = roll(dice)[2] + modifier
            tries.append(total)
            graded = 0 if total < tn else 1 if total < raise_at else 2  # GRADES' index
            if graded > best:
                best = graded
            if best >= goal:
                break
        details = {"totals": tries, "bennies_spent": len(tries) - 1, "best": max(tries)}
        return new_outcome(Outcome, (GRADES[best], details, ()))

    return benny_reroll


def _benny_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, wild, modifier = _benny_dice(tables, p)
    one = cached_grade_odds(sides, wild, modifier, p["tn"])
    tries = 1 + p["bennies"]
    failure = one["failure"] ** tries
    if p["goal"] == "raise":
        # Reroll anything short of a raise: the best of every try counts.
        raised = ONE - (ONE - one["raise"]) ** tries
        return {"failure": failure, "success": ONE - raised - failure, "raise": raised}
    # Stop at the first success or raise: it is the best roll, earlier ones all failed.
    reached = sum((one["failure"] ** k for k in range(tries)), ZERO)
    return {
        "failure": failure,
        "success": one["success"] * reached,
        "raise": one["raise"] * reached,
    }


def benny_reroll_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "benny_reroll",
        "Trait test with Bennies to spend",
        Schema(
            (
                die_field(),
                MODIFIER,
                WILD_CARD,
                TN,
                untrained_field(tables),
                int_field("bennies", 1, 1, 5, "Bennies the player will spend at most."),
                Field(
                    "goal",
                    "choice",
                    default="success",
                    choices=(("success", "reroll failures"), ("raise", "reroll until a raise")),
                    help="The result the player keeps spending Bennies for.",
                ),
            )
        ),
        GRADES,
        partial(_benny_plan, tables),
        partial(_benny_odds, tables),
        "A trait test rerolled with a Benny each time it falls short of the goal, until it is "
        "reached or the Bennies run out; the best roll counts. Not for damage or table rolls.",
        "the first roll's trait die and Wild Die (with aces), then each Benny's reroll in turn",
    )


BENNY_REROLL = benny_reroll_check(t.BASE)
