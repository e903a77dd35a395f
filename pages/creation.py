"""The systems' own character-creation rules, offered on the new-character form.

Each recipe fills some of the form's stats: Rencounter's squad creator rolls a man or a leader,
d12 rolls troop type (with expertise) and ability on its tables, Grits & Glory starts a Wild
Card or a card of Extras. A roll uses the engine's dice (the server's seeded dice, or the
player's own typed in) and only fills the form: the player still reads, changes and saves it.
What was rolled travels with the form, signed, so the creation entry of the service record can
say so honestly.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.core import signing

from rules.checks import Check
from rules.dice import Dice, GivenDice, SeededDice, parse_given
from rules.errors import DiceError
from rules.systems.d12_skirmish.chargen import ABILITY, TROOP_TYPE
from rules.systems.rencounter.squads import roll_figure

#: A recipe's roll: the dice, the form's current stats, and the checks of the rules in force
#: (a campaign's house rules: a club's own ability table is the one rolled on).
Maker = Callable[[Dice, Mapping[str, object], Mapping[str, Check]], dict[str, object]]
SIGNING_SALT = "pages.creation.roll"


@dataclass(frozen=True)
class Recipe:
    key: str
    label: str
    help: str
    make: Maker
    rolls: bool = True


def _squad_man(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    stats = roll_figure(dice, leader=False, varied=bool(current.get("varied")))
    return {k: stats[k] for k in ("experience", "fire", "melee")}


def _squad_leader(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    stats = roll_figure(dice, leader=True, varied=bool(current.get("varied")))
    return {k: stats[k] for k in ("experience", "fire", "melee")}


def _d12_troop_and_ability(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    troop = checks.get("troop_type", TROOP_TYPE).resolve({}, dice)
    ability = checks.get("ability", ABILITY).resolve({}, dice).outcome
    return {
        "troop": troop.outcome,
        "expertise": troop.details["expertise"],
        "ability": ability,
        "wounds": None,  # left empty: the schema counts them from rank and ability
    }


def _d12_troop(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    troop = checks.get("troop_type", TROOP_TYPE).resolve({}, dice)
    return {"troop": troop.outcome, "expertise": troop.details["expertise"]}


def _d12_ability(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    ability = checks.get("ability", ABILITY).resolve({}, dice).outcome
    return {"ability": ability, "wounds": None}


def _wild_card(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    return {"wild_card": True, "figures": 1}


def _extras(
    dice: Dice, current: Mapping[str, object], checks: Mapping[str, Check]
) -> dict[str, object]:
    return {"wild_card": False, "figures": 4}


RECIPES: dict[str, tuple[Recipe, ...]] = {
    "rencounter": (
        Recipe(
            "squad_man",
            "Roll a man",
            "Squad creator: d6 for experience (1-2 Novice, 3-4 Average, 5-6 Veteran); "
            "fire and melee are twice the experience.",
            _squad_man,
        ),
        Recipe(
            "squad_leader",
            "Roll a leader",
            "Squad creator: d6 for the leader (1 Novice, 2-3 Average, 4-5 Veteran, 6 Hero).",
            _squad_leader,
        ),
    ),
    "d12_skirmish": (
        Recipe(
            "troop_and_ability",
            "Roll troop type and ability",
            "Three d12: troop type (12 Elite, 10-11 Veteran, 2-9 Regular, 1 Raw), "
            "field of expertise, then the ability table.",
            _d12_troop_and_ability,
        ),
        Recipe("troop", "Roll troop type", "Two d12: troop type, then expertise.", _d12_troop),
        Recipe("ability", "Roll ability", "One d12 on the ability table.", _d12_ability),
    ),
    "grits_and_glory": (
        Recipe(
            "wild_card",
            "Wild Card",
            "A hero or named villain: one figure with the Wild Die, three wounds, own Bennies.",
            _wild_card,
            rolls=False,
        ),
        Recipe(
            "extras",
            "Extras",
            "Common soldiers: several figures sharing one card, no Wild Die.",
            _extras,
            rolls=False,
        ),
    ),
}


def recipes_for(system_key: str) -> tuple[Recipe, ...]:
    return RECIPES.get(system_key, ())


def recipe(system_key: str, key: str) -> Recipe | None:
    return next((r for r in recipes_for(system_key) if r.key == key), None)


class DiceTyped(ValueError):
    """The player's typed dice were unusable; the message says why."""


def dice_for(typed: str) -> Dice:
    """Return the player's own dice when typed in, else fresh server dice."""
    if not typed.strip():
        return SeededDice(secrets.token_hex(16), "character creation")
    try:
        return GivenDice(parse_given(typed))
    except DiceError as exc:
        raise DiceTyped(str(exc)) from None


@dataclass(frozen=True)
class Rolled:
    values: dict[str, object]
    note: str
    token: str


def _dice_words(dice: Dice) -> str:
    return ", ".join(f"{r.label} {r.die} {r.value}" for r in dice.rolls)


def apply_recipe(
    chosen: Recipe,
    current: Mapping[str, object],
    typed_dice: str = "",
    *,
    checks: Mapping[str, Check] | None = None,
) -> Rolled:
    """Run a recipe with the `checks` of the rules in force (the system's, under a campaign's
    house rules; none given: the rules as written); return the stats it sets, a sentence for
    the record and a signed token."""
    dice = dice_for(typed_dice) if chosen.rolls else SeededDice("unused")
    try:
        values = chosen.make(dice, current, checks or {})
    except DiceError as exc:
        raise DiceTyped(str(exc)) from None
    if isinstance(dice, GivenDice):
        try:
            dice.ensure_all_used()
        except DiceError as exc:
            raise DiceTyped(str(exc)) from None
    source = "your dice" if isinstance(dice, GivenDice) else "Muster's dice"
    note = (
        f"{chosen.label} ({source}: {_dice_words(dice)})"
        if chosen.rolls
        else f"Started as {chosen.label}"
    )
    token = signing.dumps({"values": values, "note": note}, salt=SIGNING_SALT)
    return Rolled(values, note, token)


def creation_note(token: str, stats: Mapping[str, object]) -> str:
    """Return the record's note for a roll carried by the form, saying if it was changed."""
    if not token:
        return ""
    try:
        rolled = signing.loads(token, salt=SIGNING_SALT, max_age=24 * 3600)
    except signing.BadSignature:
        return ""
    kept = all(stats.get(k) == v for k, v in rolled["values"].items())
    return rolled["note"] if kept else f"{rolled['note']}, then changed by hand"
