"""The table assistant's check form: which check, whose stats fill it in, and what was typed.

Pure helpers (no database): the views pass in the figures they loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from battles.models import BattleFigure
from pages.schema_forms import Input, opening_values, schema_inputs, submitted_values
from rules.checks import Check
from rules.dice import parse_given
from rules.errors import DiceError, RulesError, ValidationError
from rules.schema import Field
from rules.system import RuleSystem

#: Prefixes by which a check's parameter names the target's value rather than the actor's.
TARGET_PREFIXES = ("target_", "defender_", "enemy_")


def _fits(field: Field, value: Any) -> bool:
    try:
        field.normalise(value)
    except (ValueError, TypeError):
        return False
    return True


def _source(
    name: str, check: Check, actor: BattleFigure | None, target: BattleFigure | None
) -> Any:
    for prefix in TARGET_PREFIXES:
        if name.startswith(prefix) and target is not None:
            key = name.removeprefix(prefix)
            return target.state.get(key, target.stats.get(key))
    if actor is None:
        return None
    if name == "skill" and check.skill:
        return actor.stats.get(check.skill)
    return actor.state.get(name, actor.stats.get(name))


def suggested_params(
    check: Check, actor: BattleFigure | None, target: BattleFigure | None
) -> dict[str, Any]:
    """Return the check's opening values, filled from the actor's and target's stats and state.

    A parameter named like a stat takes the actor's value (`experience`, `wounds` from the
    battle state); `target_armour` or `defender_rating` take the target's; `skill` takes the
    stat the check exercises. Anything that would not validate keeps its default.
    """
    values = opening_values(check.params)
    for f in check.params.fields:
        found = _source(f.name, check, actor, target)
        if found is not None and _fits(f, found):
            values[f.name] = found
    return values


@dataclass(frozen=True)
class CheckForm:
    """The check form as submitted or suggested: inputs, the valid params, errors in place."""

    check: Check
    inputs: tuple[Input, ...]
    params: dict[str, Any] | None
    dice: list[int] | None
    dice_text: str
    errors: dict[str, str]


def read_dice(data: QueryDict) -> tuple[list[int] | None, str, str]:
    """Return (given dice or None to roll, the text typed, an error)."""
    if data.get("dice_mode") != "given":
        return None, data.get("dice", ""), ""
    text = data.get("dice", "").strip()
    if not text:
        return None, text, "Type the dice you rolled, in the order shown."
    try:
        return parse_given(text), text, ""
    except DiceError as exc:
        return None, text, str(exc).capitalize()


def submitted_check(check: Check, data: QueryDict) -> CheckForm:
    """Validate the parameters and dice the player sent, keeping each error next to its field."""
    values, errors = submitted_values(check.params, data)
    dice, dice_text, dice_error = read_dice(data)
    params = None
    if not errors:
        try:
            params = check.params.validate(values)
        except ValidationError as exc:
            errors = dict(exc.errors)
        except RulesError as exc:
            errors = {"general": str(exc)}
    if dice_error:
        errors["dice"] = dice_error
    shown = params if params is not None else values
    inputs = schema_inputs(check.params, shown, errors, "param-")
    return CheckForm(check, inputs, params, dice, dice_text, errors)


def suggested_check(
    check: Check, actor: BattleFigure | None, target: BattleFigure | None
) -> CheckForm:
    values = suggested_params(check, actor, target)
    try:
        params = check.params.validate(values)
    except RulesError:
        params = None
    return CheckForm(check, schema_inputs(check.params, values, {}, "param-"), params, None, "", {})


def pick_check(system: RuleSystem, name: str | None) -> Check:
    """Return the named check, else the system's first."""
    return system.checks.get(name or "") or next(iter(system.checks.values()))


def figure_by_id(figures: Mapping[int, BattleFigure], raw: str | None) -> BattleFigure | None:
    return figures.get(int(raw)) if raw and raw.isdigit() else None
