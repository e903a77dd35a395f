"""Admin forms for the league: typed settings (never a JSON box) and a pairing's result."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from common.django_bases import ModelForm
from league.core import TIE_BREAKERS, LeagueSettings, SettingsError
from league.models import League, Pairing
from league.selectors import settings_mapping
from league.services.results import Claim

TIE_BREAKER_SLOTS = 4
TIE_BREAKER_CHOICES = [("", "—"), *TIE_BREAKERS.items()]
#: A result as a player states it: the fields of a `Claim`, in its order.
RESULT_FIELDS: tuple[str, ...] = tuple(Claim.__dataclass_fields__)
PLACE_FIELDS = ("table", "home", "away")
LEAGUE_FORM_FIELDS: tuple[str, ...] = (
    "win_points",
    "draw_points",
    "loss_points",
    "bye_points",
    "major_victory_bonus",
    "max_games_per_pair",
    "late_joiner_points",
    "season_start",
    "season_end",
)

#: Scoring fields an organiser may leave empty to get the league default.
DEFAULTED = (
    "win_points",
    "draw_points",
    "loss_points",
    "major_victory_bonus",
    "max_games_per_pair",
    "late_joiner_points",
)


def tie_breaker_slot(index: int) -> str:
    return f"tie_breaker_{index + 1}"


def _league_default(name: str) -> object:
    """The league's own default for a scoring field the organiser left empty."""
    field = League._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"League.{name} is a relation, not a field with a default")
    return field.get_default()


def _tie_breaker_field(index: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=TIE_BREAKER_CHOICES, required=False, label=f"Tie-breaker {index + 1}"
    )


class LeagueForm(ModelForm):
    """League settings; the ordered tie-breakers are one select per place."""

    tie_breaker_1 = _tie_breaker_field(0)
    tie_breaker_2 = _tie_breaker_field(1)
    tie_breaker_3 = _tie_breaker_field(2)
    tie_breaker_4 = _tie_breaker_field(3)

    class Meta:
        model = League
        fields: tuple[str, ...] = LEAGUE_FORM_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in DEFAULTED:
            self.fields[name].required = False  # left empty: the league default
        chosen = list(self.instance.tie_breakers or [])
        for index in range(TIE_BREAKER_SLOTS):
            self.initial.setdefault(
                tie_breaker_slot(index), chosen[index] if index < len(chosen) else ""
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        for name in DEFAULTED:
            if cleaned.get(name) is None and name not in self.errors:
                cleaned[name] = _league_default(name)
                setattr(self.instance, name, cleaned[name])
        slots = [cleaned.get(tie_breaker_slot(i)) for i in range(TIE_BREAKER_SLOTS)]
        cleaned["tie_breakers"] = [name for name in slots if name]
        # clean() runs before the form copies its values onto the instance: check these ones.
        for name in LEAGUE_FORM_FIELDS:
            if name in cleaned:
                setattr(self.instance, name, cleaned[name])
        self.instance.tie_breakers = cleaned["tie_breakers"]
        try:
            LeagueSettings.from_mapping(settings_mapping(self.instance))
        except SettingsError as exc:
            field_of = {"tie_breakers": tie_breaker_slot(0)}
            raise ValidationError({field_of.get(k, k): m for k, m in exc.errors.items()}) from None
        return cleaned

    def league_changes(self) -> dict[str, object]:
        return {name: self.cleaned_data[name] for name in (*LEAGUE_FORM_FIELDS, "tie_breakers")}


class PairingForm(ModelForm):
    """A pairing's place (table, home, away) and its result; `version` rides along so a save
    over someone else's newer result is refused rather than silently overwriting it."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Pairing
        fields = [*PLACE_FIELDS, "battle", *RESULT_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("version", self.instance.version)

    def result_changed(self) -> bool:
        return any(name in self.changed_data for name in RESULT_FIELDS)

    def result_data(self) -> dict[str, object]:
        return {name: self.cleaned_data.get(name) for name in RESULT_FIELDS}

    def seen_version(self) -> int | None:
        """Return the version the organiser loaded (None for a new pairing)."""
        return self.cleaned_data.get("version") if self.instance.pk else None
