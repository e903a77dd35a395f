"""The admin's roster forms: a character's and a unit's stat blocks as typed fields (built by
`common.schema_forms` from the rule system's schema), and a force's rule system.
"""

from __future__ import annotations

from typing import Any

from django import forms

from common.django_bases import ModelForm
from common.schema_forms import SchemaFormMixin
from rosters.models import Character, Force, Unit
from rules.system import system_choices


class CharacterAdminForm(SchemaFormMixin, ModelForm):
    permanent_wounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text="One permanent wound per line.",
    )

    class Meta:
        model = Character
        fields = ["name", "rank", "force", "unit", "status", "permanent_wounds", "photo", "notes"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["permanent_wounds"] = "\n".join(self.instance.permanent_wounds)

    def clean_permanent_wounds(self) -> list[str]:
        text = self.cleaned_data.get("permanent_wounds") or ""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        force, unit = cleaned.get("force") or self.instance_force(), cleaned.get("unit")
        if force is not None and unit is not None and unit.force_id != force.pk:
            self.add_error("unit", f"{unit} is not a unit of {force}")
        return cleaned

    def instance_force(self) -> Force | None:
        return self.instance.force if self.instance.force_id else None


class UnitAdminForm(SchemaFormMixin, ModelForm):
    class Meta:
        model = Unit
        fields = ["name", "order", "leader"]


class ForceAdminForm(ModelForm):
    system = forms.ChoiceField(choices=system_choices, help_text="The rule system it plays.")

    class Meta:
        model = Force
        fields = ["name", "owner", "campaign", "system", "faction", "notes"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields.pop("system", None)  # fixed once created; shown read-only

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        campaign = cleaned.get("campaign")
        system = cleaned.get("system") or self.instance.system
        if campaign is not None and system and campaign.system != system:
            self.add_error("campaign", f"{campaign} is played under {campaign.system}")
        return cleaned
