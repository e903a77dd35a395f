"""Grits & Glory's table rolls as checks: running, the game's end, events, reserves, sentries,
stealth, line of sight, obstacles and swimming."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import partial
from typing import Any

from rules.checks import Check, Effect, Outcome, face_odds
from rules.dice import Dice
from rules.schema import Field, Schema
from rules.systems.grits_and_glory import tables as t
from rules.systems.grits_and_glory.aces import ONE, ZERO, best_tail, grade, roll_trait
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
from rules.systems.grits_and_glory.stats import SKILL_CHOICES

Params = Mapping[str, Any]
NO_PARAMS = Schema(())


def _uniform(keys: list[str]) -> dict[str, Fraction]:
    """The odds of each key of a die whose faces read `keys` (a key may fill several faces)."""
    return face_odds(keys, str)


def _run_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(t.RUN_DIE, "run")
    if roll == 1:
        shaken = Effect("actor", "shaken", "set", 1, "stumbled while running")
        return Outcome("stumbles", {"roll": roll, "move": t.RUN_STUMBLE_MOVE}, (shaken,))
    return Outcome("runs", {"roll": roll, "extra_inches": roll})


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


def _end_resolve(p: Params, dice: Dice) -> Outcome:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    ends, roll = deck.game_ends(p["turn"], dice)
    return Outcome(
        "ends" if ends else "continues", {"roll": roll, "needs": deck.end_game_needs(p["turn"])}
    )


def _end_odds(p: Params) -> dict[str, Fraction]:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    needs = deck.end_game_needs(p["turn"])
    ends = ZERO if needs is None else Fraction(t.END_GAME_DIE - needs + 1, t.END_GAME_DIE)
    return {"ends": ends, "continues": ONE - ends}


END_GAME = Check(
    "end_game",
    "End of the game",
    Schema((int_field("turn", t.END_GAME_FIRST_TURN, 1, 60, "The turn just ended."),)),
    ("ends", "continues"),
    _end_resolve,
    _end_odds,
    "From turn 6 on, a d10 at the end of each turn: 10 ends it after turn 6, 9-10 "
    "after turn 7 and so on; a 1 always continues.",
    "the d10 (none before turn 6)",
)


def _fortune_resolve(p: Params, dice: Dice) -> Outcome:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    event = deck.roll_event(dice)
    return Outcome(event["fortune"], event)


def _fortune_odds(p: Params) -> dict[str, Fraction]:
    return _uniform([t.fortune_for(a + b) for a in range(1, 7) for b in range(1, 7)])


FORTUNE = Check(
    "fortune",
    "Events: fortunes",
    NO_PARAMS,
    t.FORTUNE_KEYS,
    _fortune_resolve,
    _fortune_odds,
    "2d6 whenever a Joker is turned; 2 or 12 rolls a freak event.",
    "two d6, then the freak event d20(s) on a 2 or 12",
)


def _freak_resolve(p: Params, dice: Dice) -> Outcome:
    from rules.systems.grits_and_glory import deck  # the activation deck: cold odds skip it

    return Outcome(deck.roll_freak_event(dice))


FREAK_EVENT = Check(
    "freak_event",
    "Events: freak events",
    NO_PARAMS,
    t.FREAK_EVENT_KEYS,
    _freak_resolve,
    lambda p: _uniform(list(t.FREAK_EVENT_KEYS)),
    "A d20; the text has no 16, so a 16 is rolled again (each entry 1/19).",
    "the d20, again after each 16",
)


def _reserves_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(6, "reserves")
    return Outcome(t.band_for(t.RESERVES, roll), {"roll": roll})


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


def _sentry_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(6, "sentry") + (t.SENTRY_JOKER_BONUS if p["joker"] else 0)
    key = t.band_for(t.SENTRIES, roll)
    details: dict[str, Any] = {"roll": roll}
    if key == "suspicion":
        details["moves_inches"] = roll
    return Outcome(key, details)


def _sentry_odds(p: Params) -> dict[str, Fraction]:
    bonus = t.SENTRY_JOKER_BONUS if p["joker"] else 0
    return _uniform([t.band_for(t.SENTRIES, r + bonus) for r in range(1, 7)])


SENTRY = Check(
    "sentry",
    "Sentries",
    Schema((flag_field("joker", "The sentry acts on a Joker: +2."),)),
    tuple(k for _, _, k in t.SENTRIES),
    _sentry_resolve,
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


def _stealth_resolve(tables: t.GGTables, p: Params, dice: Dice) -> Outcome:
    sides, wild, modifier = _stealth_roll(tables, p)
    roll = roll_trait(dice, sides, wild, modifier, "stealth")
    hidden = roll.total >= t.STANDARD_TN
    return Outcome("hidden" if hidden else "seen", roll.as_json())


def _stealth_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    sides, wild, modifier = _stealth_roll(tables, p)
    hidden = best_tail(sides, wild, t.STANDARD_TN - modifier)
    return {"hidden": hidden, "seen": ONE - hidden}


def stealth_check(tables: t.GGTables) -> Check:
    return Check(
        "stealth",
        "Deploying hidden",
        _stealth_params(tables),
        ("hidden", "seen"),
        partial(_stealth_resolve, tables),
        partial(_stealth_odds, tables),
        "A (group) Stealth roll: success starts the unit hidden.",
        "Stealth die (and its aces), then the Wild Die (and its aces)",
        skill="stealth",
    )


STEALTH = stealth_check(t.BASE)


def _los_resolve(p: Params, dice: Dice) -> Outcome:
    roll = dice.roll(t.LOS_DIE, "line of sight")
    return Outcome("sees" if roll >= t.LOS_SEEN_FROM else "blocked", {"roll": roll})


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


def _skill_with_ones(
    tables: t.GGTables, p: Params, label: str, keys: Mapping[str, str], one_key: str, dice: Dice
) -> Outcome:
    sides, modifier = skill_dice(tables, p["die"], p["modifier"])
    roll = roll_trait(dice, sides, 1 if p["wild_card"] else 0, modifier, label)
    if roll.all_ones:
        return Outcome(one_key, roll.as_json())
    return Outcome(keys[grade(roll.total, t.STANDARD_TN)], roll.as_json())


def _odds_with_ones(
    tables: t.GGTables, p: Params, keys: Mapping[str, str], one_key: str
) -> dict[str, Fraction]:
    sides, modifier = skill_dice(tables, p["die"], p["modifier"])
    wild = 1 if p["wild_card"] else 0
    ones = _natural_one_odds(sides, wild)
    odds = fold_grades(keys.__getitem__, cached_grade_odds(sides, wild, modifier, t.STANDARD_TN))
    odds[keys[grade(1 + modifier, t.STANDARD_TN)]] -= ones
    return {**odds, one_key: ones}


def _obstacle_resolve(tables: t.GGTables, p: Params, dice: Dice) -> Outcome:
    outcome = _skill_with_ones(tables, p, "agility", OBSTACLE_KEYS, "shaken", dice)
    if outcome.key == "shaken":
        return Outcome("shaken", outcome.details, (Effect("actor", "shaken", "set", 1),))
    return outcome


def _obstacle_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    return _odds_with_ones(tables, p, OBSTACLE_KEYS, "shaken")


def obstacle_check(tables: t.GGTables) -> Check:
    return Check(
        "obstacle",
        "Crossing an obstacle",
        Schema((die_field(help_text="Agility die."), WILD_CARD, MODIFIER)),
        (*OBSTACLE_KEYS.values(), "shaken"),
        partial(_obstacle_resolve, tables),
        partial(_obstacle_odds, tables),
        "Agility: success crosses and stops, a raise keeps moving; a natural 1 Shakes the unit.",
        "Agility die (and its aces), then the Wild Die (and its aces)",
        skill="agility",
    )


OBSTACLE = obstacle_check(t.BASE)
SWIM_KEYS = {"failure": "wades", "success": "swims", "raise": "swims"}


def _swim_modifier(tables: t.GGTables, p: Params) -> dict[str, Any]:
    return {**p, "modifier": p["modifier"] + tables.SWIMMING_MODIFIERS.get(p["load"], 0)}


def _swim_resolve(tables: t.GGTables, p: Params, dice: Dice) -> Outcome:
    swum = _swim_modifier(tables, p)
    outcome = _skill_with_ones(tables, swum, "swimming", SWIM_KEYS, "drowns", dice)
    if outcome.key == "drowns":
        return Outcome("drowns", outcome.details, (Effect("actor", "figures", "add", -1),))
    return outcome


def _swim_odds(tables: t.GGTables, p: Params) -> dict[str, Fraction]:
    return _odds_with_ones(tables, _swim_modifier(tables, p), SWIM_KEYS, "drowns")


def swim_check(tables: t.GGTables) -> Check:
    return Check(
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
        partial(_swim_resolve, tables),
        partial(_swim_odds, tables),
        "Swimming: success moves the full Pace, failure as difficult ground, a natural 1 drowns.",
        "Swimming die (and its aces), then the Wild Die (and its aces)",
        skill="swimming",
    )


SWIM = swim_check(t.BASE)
