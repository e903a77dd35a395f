"""Admin forms for result entry: one form per figure and per side, typed from the system."""

from __future__ import annotations

from typing import Any

from django import forms

from battles.models import BattleFigure, BattleSide, SideResult
from battles.services.results import allowed_skills, allowed_statuses
from common.form_fields import field_of
from rules.aftermath import CARE_CHOICES
from rules.system import RuleSystem


class FigureResultForm(forms.Form):
    figure = forms.IntegerField(widget=forms.HiddenInput)
    wounds = forms.IntegerField(min_value=0, max_value=99, initial=0)
    status = forms.ChoiceField(choices=())
    skills_used = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple
    )
    kills = forms.IntegerField(min_value=0, max_value=99, initial=0)
    care = forms.ChoiceField(choices=(("", "campaign default"), *CARE_CHOICES), required=False)
    hazard = forms.TypedChoiceField(
        choices=(("", "campaign default"), (0, "0"), (1, "-1"), (2, "-2")),
        coerce=int,
        empty_value=None,
        required=False,
    )
    captured = forms.BooleanField(required=False)

    def __init__(self, *args: Any, system: RuleSystem, figure: BattleFigure, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.label = f"{figure.side.index + 1}: {figure.name}"
        field_of(self, "status", forms.ChoiceField).choices = [
            (s, s) for s in allowed_statuses(system)
        ]
        field_of(self, "skills_used", forms.MultipleChoiceField).choices = [
            (s, s) for s in allowed_skills(system)
        ]

    def entry(self) -> dict[str, object]:
        """Return the cleaned values as one figure entry for `battle_record_result`."""
        data = dict(self.cleaned_data)
        for key in ("care", "hazard"):
            if data[key] in ("", None):
                data.pop(key)
        return data


class SideResultForm(forms.Form):
    side = forms.IntegerField(widget=forms.HiddenInput)
    result = forms.ChoiceField(
        choices=[("", "— choose —"), *(c for c in SideResult.choices if c[0])],
        error_messages={"required": "Choose how this side came out of the battle."},
    )
    victory_points = forms.IntegerField(initial=0)

    def __init__(self, *args: Any, side: BattleSide, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.label = f"Side {side.index + 1}: {side.force}"


def figure_initial(system: RuleSystem, figure: BattleFigure) -> dict[str, object]:
    carried = int(system.initial_state(figure.stats).get("wounds", 0))
    return {
        "figure": figure.pk,
        "wounds": max(0, figure.state.get("wounds", 0) - carried),
        "status": figure.final_status or figure.state.get("status", "unhurt"),
        "skills_used": figure.skills_used,
        "kills": figure.kills,
        "care": figure.extra.get("care", ""),
        "hazard": figure.extra.get("hazard"),
        "captured": figure.extra.get("captured", False),
    }
