"""Result entry after the fact: per figure wounds, status, skills and kills; per side result.

Everything is validated against the battle's rule system: statuses from `system.statuses`,
skills from the stats its checks exercise, campaign options from `system.options`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from battles.models import Battle, BattleFigure, BattleSide, SideResult
from battles.services.common import PLAYABLE, as_validation, locked, require_status, system_of
from rules.aftermath import CARE_CHOICES, check_care
from rules.schema import Field, Schema
from rules.system import RuleSystem

#: Per-figure campaign details a post-battle procedure reads from `FigureRecord.extra`.
FIGURE_EXTRA = Schema(
    (
        Field("care", "choice", "Care after the battle", None, choices=CARE_CHOICES),
        Field("hazard", "int", "Hazardous aftermath", None, 0, 2),
        Field("captured", "bool", "Captured by the enemy", False),
        Field("wound_locations", "list", "Where the wounds are", [], max=6),
        Field(
            "hero",
            "choice",
            "Heroes rule this battle",
            None,
            choices=(("inspired", "inspired"), ("falters", "falters")),
        ),
        Field("figures_removed", "int", "Figures removed (units)", None, 0, 100),
        Field("ran_off", "bool", "Ran off the table", False),
    )
)
EXTRA_NAMES = FIGURE_EXTRA.names
BATTLE_ONLY_STATUSES = ("captured",)


def allowed_statuses(system: RuleSystem) -> tuple[str, ...]:
    return (*system.statuses, *(s for s in BATTLE_ONLY_STATUSES if s not in system.statuses))


def allowed_skills(system: RuleSystem) -> tuple[str, ...]:
    """Return the stats the system's checks exercise (what improvement rolls look at)."""
    return tuple(sorted({c.skill for c in system.checks.values() if c.skill}))


def clean_extra(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a figure's campaign details and drop the ones left unset."""
    with as_validation("figures"):
        values = FIGURE_EXTRA.validate(data)
        check_care(values["care"] or "none", values["hazard"] or 0)
    return {k: v for k, v in values.items() if v not in (None, [], False)}


def _clean_figure(system: RuleSystem, figure: BattleFigure, data: Mapping[str, Any]) -> None:
    name = figure.name
    if "status" in data and data["status"] not in allowed_statuses(system):
        raise ValidationError(
            {
                "figures": [
                    f"{name}: status {data['status']!r} is not one of "
                    f"{', '.join(allowed_statuses(system))}"
                ]
            }
        )
    unknown = set(data.get("skills_used") or ()) - set(allowed_skills(system))
    if unknown:
        raise ValidationError(
            {"figures": [f"{name}: {system.name} has no skill {', '.join(sorted(unknown))}"]}
        )
    for key in ("wounds", "kills"):
        if key in data and (not isinstance(data[key], int) or data[key] < 0):
            raise ValidationError({"figures": [f"{name}: {key} must be a whole number >= 0"]})


def _enter_figure(system: RuleSystem, figure: BattleFigure, data: Mapping[str, Any]) -> None:
    _clean_figure(system, figure, data)
    if "wounds" in data:
        carried = int(system.initial_state(figure.stats).get("wounds", 0))
        figure.state = {**figure.state, "wounds": carried + data["wounds"]}
    if "status" in data:
        figure.final_status = data["status"]
        figure.state = {**figure.state, "status": data["status"]}
    if "skills_used" in data:
        figure.skills_used = sorted(set(data["skills_used"]))
    if "kills" in data:
        figure.kills = data["kills"]
    extra = {k: data[k] for k in EXTRA_NAMES if k in data}
    if extra:
        figure.extra = clean_extra({**figure.extra, **extra})


def _enter_side(side: BattleSide, data: Mapping[str, Any]) -> None:
    result = str(data.get("result", side.result)).upper()
    if result not in SideResult.values:
        raise ValidationError(
            {
                "sides": [
                    f"side {side.index + 1}: result must be one of "
                    f"WIN, DRAW, LOSS, not {data.get('result')!r}"
                ]
            }
        )
    side.result = result
    side.victory_points = int(data.get("victory_points", side.victory_points))


def _by_id(
    rows: Sequence[Any], entries: Sequence[Mapping[str, Any]], key: str, what: str
) -> list[tuple[Any, Mapping[str, Any]]]:
    index = {row.pk: row for row in rows}
    missing = [e.get(key) for e in entries if e.get(key) not in index]
    if missing:
        raise ValidationError({what: [f"not in this battle: {missing}"]})
    return [(index[e[key]], e) for e in entries]


@transaction.atomic
def battle_record_result(
    *,
    battle: Battle,
    figures: Sequence[Mapping[str, Any]] = (),
    sides: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    user: AbstractBaseUser | None = None,
) -> Battle:
    """Enter (or correct) the result of a battle fought without the assistant."""
    battle = locked(battle.pk)
    require_status(battle, PLAYABLE, "enter a result")
    system = system_of(battle)
    rows = _by_id(list(battle.figures.all()), figures, "figure", "figures")
    for figure, data in rows:
        _enter_figure(system, figure, data)
    BattleFigure.objects.bulk_update(
        [f for f, _ in rows], ["state", "final_status", "skills_used", "kills", "extra"]
    )
    for side, data in _by_id(list(battle.sides.all()), sides, "side", "sides"):
        _enter_side(side, data)
        side.save(update_fields=["result", "victory_points"])
    if options:
        with as_validation("options"):
            battle.options = system.options.validate({**battle.options, **options})
        battle.save(update_fields=["options"])
    return battle
