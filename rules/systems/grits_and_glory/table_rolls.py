"""Grits & Glory's table rolls as checks: running, the game's end, events, reserves, sentries,
stealth, line of sight, obstacles and swimming."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import partial
from typing import Any

from rules.checks import Check, Effect, Outcome, Resolver, face_odds
from rules.dice import D6, Dice, d
from rules.plans import PlannedCheck, new_outcome, planned
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.aces import ONE, ZERO, best_tail, grade
from rules.systems.grits_and_glory.checks import (
    MODIFIER,
    WILD_CARD,
    cached_grade_odds,
    die_field,
    flag_field,
    fold_grades,
    int_field,
    skill_dice,
)
from rules.systems.grits_and_glory.plans import trait_roller
from rules.systems.grits_and_glory.stats import SKILL_CHOICES

Params = Mapping[str, Any]
NO_PARAMS = Schema(())


def _uniform(keys: list[str]) -> dict[str, Fraction]:
    """The odds of each key of a die whose faces read `keys` (a key may fill several faces)."""
    return face_odds(keys, str)


_RUN_DIE = d(t.RUN_DIE)
_STUMBLED = (Effect("actor", "shaken", "set", 1, "stumbled while running"),)


def _run_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(_RUN_DIE, "run")
    if roll == 1:
        details = {"roll": roll, "move": t.RUN_STUMBLE_MOVE}
        return new_outcome(Outcome, ("stumbles", details, _STUMBLED))
    return new_outcome(Outcome, ("runs", {"roll": roll, "extra_inches": roll}, ()))


RUN = Check(
    "run",
    "Running",
    NO_PARAMS,
    ("runs", "stumbles"),
    _run_resolve,
    lambda p: _uniform(["stumbles"] + ["runs"] * (t.RUN_DIE - 1)),
    'A d6 of extra inches (-2 to trait tests this round); a 1 stops the unit after 6" '
    "and Shakes it.",
    "the run d6",
)


_END_GAME_DIE = d(t.END_GAME_DIE)


def _end_plan(p: Params) -> Resolver:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    needs = deck.end_game_needs(p["turn"])
    if needs is None:
        return _too_soon_to_end
    reached: int = needs

    def end_game(p: Params, dice: Dice) -> Outcome:
        # `deck.game_ends`'s roll, its score needed worked out once.
        roll = dice.roll(_END_GAME_DIE, "end of game")
        key = "ends" if roll >= reached else "continues"
        return new_outcome(Outcome, (key, {"roll": roll, "needs": reached}, ()))

    return end_game


def _too_soon_to_end(p: Params, dice: Dice) -> Outcome:
    return new_outcome(Outcome, ("continues", {"roll": None, "needs": None}, ()))


def _end_odds(p: Params) -> dict[str, Fraction]:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    needs = deck.end_game_needs(p["turn"])
    ends = ZERO if needs is None else Fraction(t.END_GAME_DIE - needs + 1, t.END_GAME_DIE)
    return {"ends": ends, "continues": ONE - ends}


END_GAME = planned(
    "end_game",
    "End of the game",
    Schema((int_field("turn", t.END_GAME_FIRST_TURN, 1, 60, "The turn just ended."),)),
    ("ends", "continues"),
    _end_plan,
    _end_odds,
    "From turn 6 on, a d10 at the end of each turn: 10 ends it after turn 6, 9-10 "
    "after turn 7 and so on; a 1 always continues.",
    "the d10 (none before turn 6)",
)


def _fortune_plan(p: Params) -> Resolver:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    roll_event = deck.roll_event

    def fortune(p: Params, dice: Dice) -> Outcome:
        event = roll_event(dice)
        return new_outcome(Outcome, (event["fortune"], event, ()))

    return fortune


def _fortune_odds(p: Params) -> dict[str, Fraction]:
    return _uniform([t.fortune_for(a + b) for a in range(1, 7) for b in range(1, 7)])


FORTUNE = planned(
    "fortune",
    "Events: fortunes",
    NO_PARAMS,
    t.FORTUNE_KEYS,
    _fortune_plan,
    _fortune_odds,
    "2d6 whenever a Joker is turned; 2 or 12 rolls a freak event.",
    "two d6, then the freak event d20(s) on a 2 or 12",
)


def _freak_plan(p: Params) -> Resolver:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    roll_freak_event = deck.roll_freak_event

    def freak_event(p: Params, dice: Dice) -> Outcome:
        return new_outcome(Outcome, (roll_freak_event(dice), _NO_DETAILS, ()))

    return freak_event


#: A freak event's details: none (the same empty mapping an Outcome's default is).
_NO_DETAILS = Outcome("").details


FREAK_EVENT = planned(
    "freak_event",
    "Events: freak events",
    NO_PARAMS,
    t.FREAK_EVENT_KEYS,
    _freak_plan,
    lambda p: _uniform(list(t.FREAK_EVENT_KEYS)),
    "A d20; the text has no 16, so a 16 is rolled again (each entry 1/19).",
    "the d20, again after each 16",
)


#: The reserves table by the d6's face (the table is the text's: a club does not edit it).
_RESERVES_BY_FACE = {face: t.band_for(t.RESERVES, face) for face in D6.faces}


def _reserves_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(D6, "reserves")
    return new_outcome(Outcome, (_RESERVES_BY_FACE[roll], {"roll": roll}, ()))


RESERVES = Check(
    "reserves",
    "Reserves",
    NO_PARAMS,
    tuple(k for _, _, k in t.RESERVES),
    _reserves_resolve,
    lambda p: _uniform([t.band_for(t.RESERVES, r) for r in range(1, 7)]),
    "A d6 per unit not yet on the table, each turn before cards are dealt.",
    "the d6",
)


def _sentry_plan(p: Params) -> Resolver:
    bonus = t.SENTRY_JOKER_BONUS if p["joker"] else 0
    # The sentries table by the d6's face (the text's table: a club does not edit it).
    by_face = {face: t.band_for(t.SENTRIES, face + bonus) for face in D6.faces}

    def sentry(p: Params, dice: Dice) -> Outcome:
        face = dice.roll(D6, "sentry")
        roll, key = face + bonus, by_face[face]
        details: dict[str, Any] = {"roll": roll}
        if key == "suspicion":
            details["moves_inches"] = roll
        return new_outcome(Outcome, (key, details, ()))

    return sentry


def _sentry_odds(p: Params) -> dict[str, Fraction]:
    bonus = t.SENTRY_JOKER_BONUS if p["joker"] else 0
    return _uniform([t.band_for(t.SENTRIES, r + bonus) for r in range(1, 7)])


SENTRY = planned(
    "sentry",
    "Sentries",
    Schema((flag_field("joker", "The sentry acts on a Joker: +2."),)),
    tuple(k for _, _, k in t.SENTRIES),
    _sentry_plan,
    _sentry_odds,
    "A d6 per unaware sentry unit at the start of its turn.",
    "the d6",
)


def _stealth_params(tables: t.GGTables) -> Schema:
    return Schema(
        (
            Field(
                "die",
                "die",
                default=6,
                choices=SKILL_CHOICES,
                help=f"Stealth die (untrained: {t.untrained_text(tables)}).",
            ),
            WILD_CARD,
            int_field("figures", 1, 1, t.UNIT_MAX_FIGURES, "Figures (2+: a group roll)."),
            flag_field("dark", "The Dark of Night: +2 to Stealth."),
            MODIFIER,
        )
    )


def _stealth_roll(tables: t.GGTables, p: Params) -> tuple[int, int, int]:
    wild = 1 if p["wild_card"] or p["figures"] > 1 else 0
    sides, modifier = skill_dice(tables, p["die"], p["modifier"] + (2 if p["dark"] else 0))
    return sides, wild, modifier


def _stealth_plan(tables: t.GGTables, p: Params) -> Resolver:
    sides, wild_dice, modifier = _stealth_roll(tables, p)
    roll = trait_roller(sides, wild_dice, "stealth")
    hidden_from = t.STANDARD_TN - modifier  # the best die (before the modifier) that hides

    def stealth(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        key = "hidden" if best >= hidden_from else "seen"
        return new_outcome(Outcome, (key, details, ()))

    return stealth


def _stealth_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, wild, modifier = _stealth_roll(tables, p)
    hidden = best_tail(sides, wild, t.STANDARD_TN - modifier)
    return {"hidden": hidden, "seen": ONE - hidden}


def stealth_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "stealth",
        "Deploying hidden",
        _stealth_params(tables),
        ("hidden", "seen"),
        partial(_stealth_plan, tables),
        partial(_stealth_odds, tables),
        "A (group) Stealth roll: success starts the unit hidden.",
        "Stealth die (and its aces), then the Wild Die (and its aces)",
        skill="stealth",
    )


STEALTH = stealth_check(t.BASE)


_LOS_DIE = d(t.LOS_DIE)


def _los_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(_LOS_DIE, "line of sight")
    key = "sees" if roll >= t.LOS_SEEN_FROM else "blocked"
    return new_outcome(Outcome, (key, {"roll": roll}, ()))


LINE_OF_SIGHT = Check(
    "line_of_sight",
    "Doubtful line of sight",
    NO_PARAMS,
    ("sees", "blocked"),
    _los_resolve,
    lambda p: _uniform(
        ["sees" if r >= t.LOS_SEEN_FROM else "blocked" for r in range(1, t.LOS_DIE + 1)]
    ),
    "When nobody can tell: a d6, 4-6 the figure sees its foe.",
    "the d6",
)
OBSTACLE_KEYS = {"failure": "balks", "success": "crosses", "raise": "crosses_and_moves_on"}


def _natural_one_odds(sides: int, wild: int) -> Fraction:
    return Fraction(1, sides) * Fraction(1, 6) ** wild


def _plan_with_ones(
    tables: t.GGTables,
    p: Params,
    label: str,
    keys: Mapping[str, str],
    ones: tuple[str, tuple[Effect, ...]],
) -> Resolver:
    """A skill roll at TN 4 graded by `keys`, where every die a natural 1 is `ones` (its key
    and effects) whatever the total."""
    sides, modifier = skill_dice(tables, p["die"], p["modifier"])
    roll = trait_roller(sides, 1 if p["wild_card"] else 0, label)
    # The best die (before the modifier) that reaches TN 4, and a raise over it.
    success_from = t.STANDARD_TN - modifier
    raise_from = success_from + t.RAISE_STEP
    failure, success, raised = keys["failure"], keys["success"], keys["raise"]
    one_key, one_effects = ones

    def skill(p: Params, dice: Dice) -> Outcome:
        die, wild, best = roll(dice)
        details = {"trait_die": die, "wild_dice": wild, "modifier": modifier}
        details["total"] = best + modifier
        if best == 1:  # the best die a 1: every die a natural 1
            return new_outcome(Outcome, (one_key, details, one_effects))
        key = failure if best < success_from else success if best < raise_from else raised
        return new_outcome(Outcome, (key, details, ()))

    return skill


def _odds_with_ones(
    tables: t.GGTables, p: Params, keys: Mapping[str, str], one_key: str
) -> dict[str, Fraction]:
    sides, modifier = skill_dice(tables, p["die"], p["modifier"])
    wild = 1 if p["wild_card"] else 0
    ones = _natural_one_odds(sides, wild)
    odds = fold_grades(keys.__getitem__, cached_grade_odds(sides, wild, modifier, t.STANDARD_TN))
    odds[keys[grade(1 + modifier, t.STANDARD_TN)]] -= ones
    return {**odds, one_key: ones}


_FELL = ("shaken", (Effect("actor", "shaken", "set", 1),))


def _obstacle_plan(tables: t.GGTables, p: Params) -> Resolver:
    return _plan_with_ones(tables, p, "agility", OBSTACLE_KEYS, _FELL)


def _obstacle_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    return _odds_with_ones(tables, p, OBSTACLE_KEYS, "shaken")


def obstacle_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "obstacle",
        "Crossing an obstacle",
        Schema((die_field(help_text="Agility die."), WILD_CARD, MODIFIER)),
        (*OBSTACLE_KEYS.values(), "shaken"),
        partial(_obstacle_plan, tables),
        partial(_obstacle_odds, tables),
        "Agility: success crosses and stops, a raise keeps moving; a natural 1 Shakes the unit.",
        "Agility die (and its aces), then the Wild Die (and its aces)",
        skill="agility",
    )


OBSTACLE = obstacle_check(t.BASE)
SWIM_KEYS = {"failure": "wades", "success": "swims", "raise": "swims"}


def _swim_modifier(tables: t.GGTables, p: Params) -> dict[str, Any]:
    return {**p, "modifier": p["modifier"] + tables.SWIMMING_MODIFIERS.get(p["load"], 0)}


_DROWNED = ("drowns", (Effect("actor", "figures", "add", -1),))


def _swim_plan(tables: t.GGTables, p: Params) -> Resolver:
    return _plan_with_ones(tables, _swim_modifier(tables, p), "swimming", SWIM_KEYS, _DROWNED)


def _swim_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    return _odds_with_ones(tables, _swim_modifier(tables, p), SWIM_KEYS, "drowns")


def swim_check(tables: t.GGTables) -> PlannedCheck:
    return planned(
        "swim",
        "Swimming",
        Schema(
            (
                Field(
                    "die",
                    "die",
                    default=0,
                    choices=SKILL_CHOICES,
                    help=f"Swimming die (untrained: {t.untrained_text(tables)}).",
                ),
                WILD_CARD,
                Field(
                    "load",
                    "choice",
                    default="normal",
                    choices=(
                        ("normal", "normal kit (+0)"),
                        *((k, f"{k} ({v:+d})") for k, v in tables.SWIMMING_MODIFIERS.items()),
                    ),
                ),
                MODIFIER,
            )
        ),
        ("swims", "wades", "drowns"),
        partial(_swim_plan, tables),
        partial(_swim_odds, tables),
        "Swimming: success moves the full Pace, failure as difficult ground, a natural 1 drowns.",
        "Swimming die (and its aces), then the Wild Die (and its aces)",
        skill="swimming",
    )


SWIM = swim_check(t.BASE)
