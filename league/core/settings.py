"""A league's scoring settings, validated, with JSON-friendly conversion for the Django side."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

from league.core.errors import SettingsError

HEAD_TO_HEAD = "head_to_head"
VP_DIFFERENCE = "vp_difference"
STRENGTH_OF_SCHEDULE = "strength_of_schedule"
FEWEST_FIGURES_LOST = "fewest_figures_lost"
#: Every tie-breaker a league may list, with the label the admin and the CSV show.
TIE_BREAKERS: dict[str, str] = {
    HEAD_TO_HEAD: "Head to head",
    VP_DIFFERENCE: "Victory-point difference",
    STRENGTH_OF_SCHEDULE: "Strength of schedule",
    FEWEST_FIGURES_LOST: "Fewest figures lost",
}
DEFAULT_TIE_BREAKERS = (HEAD_TO_HEAD, VP_DIFFERENCE, STRENGTH_OF_SCHEDULE, FEWEST_FIGURES_LOST)
_POINT_FIELDS = (
    "win_points",
    "draw_points",
    "loss_points",
    "bye_points",
    "major_victory_bonus",
    "late_joiner_points",
)


@dataclass(frozen=True)
class LeagueSettings:
    """How a league scores games and orders its table.

    `bye_points` defaults to a win's points: a player who sits out through no fault of their own
    should not fall behind the players who got a game. `late_joiner_points` is the score a player
    who joins after round 1 starts with (as an adjustment with a reason).
    """

    win_points: int = 3
    draw_points: int = 1
    loss_points: int = 0
    bye_points: int | None = None
    major_victory_bonus: int = 0
    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS
    max_games_per_pair: int = 1
    late_joiner_points: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.tie_breakers, str):  # a bare name would split into letters
            raise SettingsError({"tie_breakers": "must be a list of tie-breaker names"})
        object.__setattr__(self, "tie_breakers", tuple(self.tie_breakers))
        if self.bye_points is None:
            object.__setattr__(self, "bye_points", self.win_points)
        errors = settings_errors(self)
        if errors:
            raise SettingsError(errors)

    @property
    def points_for_bye(self) -> int:
        return self.win_points if self.bye_points is None else self.bye_points

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> LeagueSettings:
        """Build settings from stored JSON, rejecting unknown keys; missing keys take defaults."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError({name: "is not a league setting" for name in unknown})
        return cls(**data)  # type: ignore[arg-type]  # each value is checked in __post_init__

    def as_mapping(self) -> dict[str, object]:
        """Return the settings as JSON-ready data (tie-breakers as a list)."""
        data = asdict(self)
        data["tie_breakers"] = list(self.tie_breakers)
        return data


def settings_errors(settings: LeagueSettings) -> dict[str, str]:
    """Return {setting: message} for every invalid setting (empty when all are valid)."""
    errors = {
        name: message
        for name in _POINT_FIELDS
        if (message := _points_error(getattr(settings, name)))
    }
    if not errors and not settings.win_points >= settings.draw_points >= settings.loss_points:
        errors["draw_points"] = "points must run win >= draw >= loss"
    tie_breaker_error = _tie_breakers_error(settings.tie_breakers)
    if tie_breaker_error:
        errors["tie_breakers"] = tie_breaker_error
    max_games = settings.max_games_per_pair
    if not _is_int(max_games) or max_games < 1:
        errors["max_games_per_pair"] = f"must be a whole number of at least 1, not {max_games!r}"
    return errors


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _points_error(value: object) -> str:
    if not _is_int(value):
        return f"must be a whole number, not {value!r}"
    if value < 0:  # type: ignore[operator]  # _is_int checked it is an int
        return f"cannot be negative ({value}); take points away with an adjustment instead"
    return ""


def _tie_breakers_error(tie_breakers: tuple[str, ...]) -> str:
    unknown = [name for name in tie_breakers if name not in TIE_BREAKERS]
    if unknown:
        choices = ", ".join(TIE_BREAKERS)
        return f"unknown tie-breaker {unknown[0]!r}; choose from {choices}"
    if len(set(tie_breakers)) != len(tie_breakers):
        return "each tie-breaker may be listed once"
    return ""
