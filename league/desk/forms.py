"""Forms of the organiser's desk: one result row per pairing of a round, and a round's deadline."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from common.form_fields import field_of
from common.widgets import DateInput
from league.desk.words import away_name
from league.forms import RESULT_FIELDS
from league.models import Pairing, Winner
from league.services import claim_from

COUNTS = ("home_vp", "away_vp", "home_figures_lost", "away_figures_lost")


class CountField(forms.IntegerField):
    """A whole number of at least 0; left empty, it is 0 (nothing scored, nobody lost)."""

    def to_python(self, value: object) -> int:
        number = super().to_python(value)
        return 0 if number is None else number


def _count(label: str) -> forms.IntegerField:
    return CountField(
        label=label,
        min_value=0,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
    )


class RoundResultForm(forms.Form):
    """A pairing's result: the winner chosen by name, the score, figures lost, no-shows.

    Only a row the organiser changed is saved; `version` is the one they loaded, so a report
    that arrived meanwhile is not overwritten unseen.
    """

    winner = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    home_vp = _count("victory points")
    away_vp = _count("victory points")
    home_figures_lost = _count("figures lost")
    away_figures_lost = _count("figures lost")
    major_victory = forms.BooleanField(required=False, label="Major victory")
    home_no_show = forms.BooleanField(required=False, label="did not turn up")
    away_no_show = forms.BooleanField(required=False, label="did not turn up")
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, pairing: Pairing, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"p{pairing.pk}")
        kwargs.setdefault("initial", initial_of(pairing))
        super().__init__(*args, **kwargs)
        self.pairing = pairing
        home, away = pairing.home.player_name, away_name(pairing)
        field_of(self, "winner", forms.ChoiceField).choices = [
            (Winner.HOME, home),
            (Winner.AWAY, away),
            (Winner.DRAW, "Draw"),
            ("", "Not played yet"),
        ]
        for side, name in (("home", home), ("away", away)):
            for field in (f"{side}_vp", f"{side}_figures_lost", f"{side}_no_show"):
                # the page shows a short label beside the player's name; readers hear both
                label = f"{name}: {self.fields[field].label}"
                self.fields[field].label = label
                self.fields[field].widget.attrs["aria-label"] = label

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors or not self.has_changed():
            return cleaned
        both_gone = cleaned.get("home_no_show") and cleaned.get("away_no_show")
        one_gone = cleaned.get("home_no_show") != cleaned.get("away_no_show")
        if not cleaned.get("winner") and not (both_gone or one_gone):
            raise ValidationError("Choose who won (or a draw) before saving this game.")
        try:
            self.claim = claim_from(self.result_data())
        except ValidationError as exc:
            raise ValidationError(exc.messages) from None
        return cleaned

    def result_data(self) -> dict[str, object]:
        data = {name: self.cleaned_data.get(name) for name in RESULT_FIELDS}
        for name in COUNTS:
            data[name] = data[name] or 0
        if data["home_no_show"] and data["away_no_show"]:
            data["winner"] = ""
        return data

    def has_changed(self) -> bool:
        return any(name in self.changed_data for name in RESULT_FIELDS)


def initial_of(pairing: Pairing) -> dict[str, object]:
    values = {name: getattr(pairing, name) for name in RESULT_FIELDS}
    values["version"] = pairing.version
    return values


class DeadlineForm(forms.Form):
    deadline = forms.DateField(
        required=False,
        label="Deadline",
        help_text="The last day to play and report this round's games.",
        widget=DateInput(),
    )
