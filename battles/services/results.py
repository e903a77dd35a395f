"""Result entry after the fact: per figure wounds, status, skills and kills; per side result.

Everything is validated against the battle's rule system: statuses from `system.statuses`,
skills from the stats its checks exercise, campaign options from `system.options`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model

from battles.models import Battle, BattleFigure, BattleSide, SideResult
from battles.services.common import PLAYABLE, as_validation, locked, require_status, system_of
from common.users import User
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


#: A battle's figure or side, matched to the result entered for it.
Row = TypeVar("Row", bound=Model)


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
    result = str(data.get("result", side.result) or "").upper()
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
    points = data.get("victory_points", side.victory_points)
    if isinstance(points, bool) or not isinstance(points, int):
        raise ValidationError(
            {"sides": [f"side {side.index + 1}: victory points are a whole number"]}
        )
    side.victory_points = points


def _side_name(side: BattleSide) -> str:
    return side.force.name if side.force_id else f"side {side.index + 1}"


def scores_victory_points(system: RuleSystem, options: Mapping[str, Any]) -> bool:
    """Say whether the battle's system scores victory points under its options (Grits & Glory)."""
    return "victory_points" in system.options.names and bool(options.get("victory_points"))


def check_side_results(
    sides: Sequence[BattleSide], *, scored: bool, complete: bool = False
) -> None:
    """Refuse results that contradict each other: one winner (the others lose) or a draw for
    all; where the system scores victory points and they were entered, the winner has the
    most and a draw equal ones.

    Undecided sides are allowed while the result is being entered; `complete` (finishing)
    wants every side decided.
    """
    results = [s.result for s in sides]
    undecided = [_side_name(s) for s in sides if not s.result]
    if complete and undecided:
        raise ValidationError({"sides": [f"enter a result for {', '.join(undecided)}"]})
    winners = [s for s in sides if s.result == SideResult.WIN]
    if len(winners) > 1:
        names = " and ".join(_side_name(s) for s in winners)
        raise ValidationError({"sides": [f"only one side can win: {names} are both saved as Win"]})
    decided = {r for r in results if r}
    if SideResult.DRAW in decided and len(decided) > 1:
        raise ValidationError({"sides": ["a draw is a draw for every side: no side wins or loses"]})
    if not undecided and decided == {SideResult.LOSS}:
        raise ValidationError({"sides": ["every side cannot lose: one side wins, or it is a draw"]})
    # Victory points left at 0 on every side were not recorded (a scenario's own objective
    # decided, or the units' fates wait for the post-game Vigor test): nothing to compare.
    recorded = any(s.victory_points for s in sides)
    if scored and recorded and not undecided:
        _check_points(sides, winners)


def _check_points(sides: Sequence[BattleSide], winners: Sequence[BattleSide]) -> None:
    if winners:
        winner = winners[0]
        beaten = [s for s in sides if s is not winner and s.victory_points >= winner.victory_points]
        if beaten:
            raise ValidationError(
                {
                    "sides": [
                        f"{_side_name(winner)} won with {winner.victory_points} victory points "
                        f"but {_side_name(beaten[0])} has {beaten[0].victory_points}: the winner "
                        "scores the most"
                    ]
                }
            )
    elif len({s.victory_points for s in sides}) > 1:
        points = ", ".join(f"{_side_name(s)} {s.victory_points}" for s in sides)
        raise ValidationError({"sides": [f"a draw needs equal victory points, not {points}"]})


def _by_id(
    rows: Sequence[Row], entries: Sequence[Mapping[str, Any]], key: str, what: str
) -> list[tuple[Row, Mapping[str, Any]]]:
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
    user: User | None = None,
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
    all_sides = list(battle.sides.select_related("force").order_by("index"))
    entered = _by_id(all_sides, sides, "side", "sides")
    for side, data in entered:
        _enter_side(side, data)
    if options:
        with as_validation("options"):
            battle.options = system.options.validate({**battle.options, **options})
        battle.save(update_fields=["options"])
    check_side_results(all_sides, scored=scores_victory_points(system, battle.options))
    # Losers first: a new winner is saved after the old one stepped down (battle_side_one_winner).
    for side, _ in sorted(entered, key=lambda pair: pair[0].result == SideResult.WIN):
        side.save(update_fields=["result", "victory_points"])
    return battle
