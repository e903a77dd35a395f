"""Character generation: the troop type table and the ability table, as checks and a generator."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import partial
from typing import Any

from rules.checks import Check, Outcome, Roller, by_face, counted, resolved_by
from rules.dice import D12, Dice
from rules.schema import Schema
from rules.systems.d12_skirmish import tables as t
from rules.systems.d12_skirmish.stats import STATS, build_stats, default_wounds
from rules.systems.d12_skirmish.tables import EXPERTISE_TABLE, TROOP_TYPE_TABLE, band

TROOP_OUTCOMES = ("elite", "veteran", "regular", "raw")
#: A club may move abilities between faces and reword them, never add or drop one: the keys
#: are the outcomes, and the checks and stats read what some of them do.
ABILITY_OUTCOMES = tuple(key for _, key, _, _ in t.BASE.ABILITIES)


def _troop_type(troop_roll: int, expertise_roll: int) -> Outcome:
    details = {
        "troop_roll": troop_roll,
        "expertise_roll": expertise_roll,
        "expertise": band(EXPERTISE_TABLE, expertise_roll),
    }
    return Outcome(band(TROOP_TYPE_TABLE, troop_roll), details)


def prepare_troop_type(params: Mapping[str, Any]) -> Roller:
    """The troop type d12, then the expertise d12: each pair of faces read once."""
    return by_face(
        D12,
        "troop type",
        lambda troop_roll: by_face(D12, "expertise", partial(_troop_type, troop_roll)),
    )


def troop_type_odds(params: Mapping[str, Any]) -> dict[str, Fraction]:
    return counted({key: high - low + 1 for low, high, key in TROOP_TYPE_TABLE}, 12)


def prepare_ability(tables: t.D12Tables, params: Mapping[str, Any]) -> Roller:
    """The ability d12 on `tables`' ability table."""
    return by_face(
        D12, "ability", lambda roll: Outcome(tables.ABILITY_BY_ROLL[roll], {"roll": roll})
    )


def ability_odds(params: Mapping[str, Any]) -> dict[str, Fraction]:
    return counted(dict.fromkeys(ABILITY_OUTCOMES, 1), 12)


TROOP_TYPE = Check(
    "troop_type",
    "Troop type (character generation)",
    Schema(()),
    TROOP_OUTCOMES,
    resolved_by(prepare_troop_type),
    troop_type_odds,
    "d12: 12 Elite, 10-11 Veteran, 2-9 Regular, 1 Raw; a second d12 picks the "
    "field of expertise (1-6 combat, 7-12 shooting)",
    "d12 troop type, then d12 expertise",
    takes_target=False,  # a new man's own roll; no parameters to source
    preparer=prepare_troop_type,
)


def ability_check(tables: t.D12Tables) -> Check:
    """The ability roll on `tables`' ability table (a club may move abilities between faces)."""
    preparer = partial(prepare_ability, tables)
    return Check(
        "ability",
        "Ability (character generation)",
        Schema(()),
        ABILITY_OUTCOMES,
        resolved_by(preparer),
        ability_odds,
        "d12 on the ability table",
        "one d12: ability",
        takes_target=False,
        preparer=preparer,
    )


ABILITY = ability_check(t.BASE)


def roll_character(
    dice: Dice,
    *,
    officer: bool = False,
    game: str = "unit",
    mount: str = "foot",
    weapons: tuple[str, ...] = ("rifled_musket",),
    tables: t.D12Tables = t.BASE,
) -> dict[str, Any]:
    """Roll troop type, expertise and ability on `tables` (the text's unless a club's); return
    validated stats.

    Dice order: troop type, expertise, ability (three d12s).
    """
    troop = TROOP_TYPE.resolve({}, dice)
    ability = ability_check(tables).resolve({}, dice).outcome
    stats = STATS if tables is t.BASE else build_stats(tables)
    return stats.validate(
        {
            "troop": troop.outcome,
            "expertise": troop.details["expertise"],
            "ability": ability,
            "officer": officer,
            "mount": mount,
            "weapons": list(weapons),
            "wounds": default_wounds(officer=officer, ability=ability, game=game),
        }
    )
