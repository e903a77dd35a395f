"""The table assistant's check form: which check, whose stats fill it in, and what was typed.

Pure helpers (no database): the views pass in the figures they loaded. Which figure value
feeds which parameter is the rules engine's to say (`Check.sources`); nothing here guesses
from a parameter's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict

from battles.models import BattleFigure
from pages.schema_forms import Input, opening_values, schema_inputs, submitted_values
from rules.checks import Check, FigureView, filled_params, kept_per_figure
from rules.dice import parse_given
from rules.errors import DiceError, RulesError, ValidationError
from rules.schema import Field
from rules.system import RuleSystem

#: The words beside a value the player chose for this figure at an earlier check.
LAST_CHOICE = "your last choice"
#: The words beside a target's parameter while no target is picked: the default stands in.
NO_TARGET = "the default: pick a target to read it"


def figure_view(figure: BattleFigure | None) -> FigureView | None:
    return None if figure is None else FigureView(figure.name, figure.stats, figure.state)


def _fits(field: Field, value: Any) -> bool:
    try:
        field.normalise(value)
    except (ValueError, TypeError):
        return False
    return True


def _last_choices(check: Check, actor: BattleFigure | None) -> dict[str, Any]:
    """The values the player last chose for this figure and check, still valid for it."""
    if actor is None:
        return {}
    kept = (actor.table_choices or {}).get(check.name, {})
    fields = {f.name: f for f in check.params.fields}
    return {
        name: kept[name]
        for name in kept_per_figure(check)
        if name in kept and _fits(fields[name], kept[name])
    }


def suggested_params(
    check: Check, actor: BattleFigure | None, target: BattleFigure | None
) -> tuple[dict[str, Any], dict[str, str]]:
    """Return the check's opening values and, for each filled one, where it came from.

    The rules engine declares each parameter's source (`Check.sources`): the figures' stats,
    equipment and battle state fill theirs; the player's judgement and a weapon chosen keep
    their last value for the acting figure; the rest start at the schema's default.
    """
    values = opening_values(check.params)
    sources: dict[str, str] = {}
    for name, filled in filled_params(check, figure_view(actor), figure_view(target)).items():
        values[name] = filled.value
        sources[name] = filled.source
    for name, value in _last_choices(check, actor).items():
        if values[name] != value:
            values[name] = value
            sources[name] = LAST_CHOICE
    if target is None and check.takes_target:
        for name, source in check.sources.items():
            if source.who == "target" and name not in sources:
                sources[name] = NO_TARGET
    return values, sources


@dataclass(frozen=True)
class CheckForm:
    """The check form as submitted or suggested: inputs, the valid params, errors in place."""

    check: Check
    inputs: tuple[Input, ...]
    params: dict[str, Any] | None
    dice: list[int] | None
    dice_text: str
    errors: dict[str, str]
    #: The inputs the figures fill (shown up front, each with its source), then the player's.
    from_figures: tuple[Input, ...] = ()
    situation: tuple[Input, ...] = ()


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


def _split(
    check: Check, inputs: tuple[Input, ...], sources: Mapping[str, str] | None = None
) -> dict[str, tuple[Input, ...]]:
    """Part the inputs: those the figures give (with their source), and the player's situation."""
    sources = sources or {}
    inputs = tuple(replace(i, source=sources.get(i.name, "")) for i in inputs)

    def judged(i: Input) -> bool:
        declared = check.sources.get(i.name)
        return declared is None or declared.kind == "judgement"

    return {
        "from_figures": tuple(i for i in inputs if not judged(i)),
        "situation": tuple(i for i in inputs if judged(i)),
    }


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
    return CheckForm(check, inputs, params, dice, dice_text, errors, **_split(check, inputs))


def _typed(check: Check, typed: QueryDict | None) -> dict[str, Any]:
    """The player's calls still on the page (not yet resolved), where they are valid."""
    if typed is None:
        return {}
    values, _ = submitted_values(check.params, typed)
    fields = {f.name: f for f in check.params.fields}
    return {
        name: values[name]
        for name in kept_per_figure(check)
        if values.get(name) is not None and _fits(fields[name], values[name])
    }


def suggested_check(
    check: Check,
    actor: BattleFigure | None,
    target: BattleFigure | None,
    typed: QueryDict | None = None,
) -> CheckForm:
    """The check form as the figures fill it: what the engine says comes from them, the
    player's calls for the actor (still on the page in `typed`, else kept from his last
    check), else the defaults."""
    values, sources = suggested_params(check, actor, target)
    for name, value in _typed(check, typed).items():
        if value != values[name]:
            values[name] = value
            sources.pop(name, None)  # the player's own call, not the figure's
    try:
        params = check.params.validate(values)
    except RulesError:
        params = None
    inputs = schema_inputs(check.params, values, {}, "param-")
    return CheckForm(check, inputs, params, None, "", {}, **_split(check, inputs, sources))


def pick_check(system: RuleSystem, name: str | None) -> Check:
    """Return the named check, else the system's first."""
    return system.checks.get(name or "") or next(iter(system.checks.values()))


def figure_by_id(figures: Mapping[int, BattleFigure], raw: str | None) -> BattleFigure | None:
    return figures.get(int(raw)) if raw and raw.isdigit() else None
