"""Forms for a force and its units on the player pages.

Forms only read and check what the browser sent; the services write. A service's refusal is
put back on the form beside the field it names (`errors_onto`), so bad input re-shows the form
with the error in place and nothing saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from campaigns.models import Campaign
from campaigns.selectors import campaign_ids_for
from common.form_fields import field_of
from common.schema_forms import STAT_PREFIX, SchemaFormMixin, schema_form_class, stat_initial
from common.stats import StatsInvalid
from common.users import User, Visitor
from rosters.models import Character, Unit
from rules.schema import Schema
from rules.system import RuleSystem, system_choices


def errors_onto(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: stats on their typed fields, others by name."""
    if isinstance(exc, StatsInvalid):
        for name, message in exc.field_errors.items():
            target = STAT_PREFIX + name
            form.add_error(target if target in form.fields else None, _sentence(message))
        return
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for name, messages in exc.message_dict.items():
        field = name if name in form.fields else None
        for message in messages:
            form.add_error(field, _sentence(message) if field else message)


def _sentence(message: str) -> str:
    if not message:
        return message
    text = message[0].upper() + message[1:]
    return text if text.endswith(".") else text + "."


def stats_initial(schema: Schema, stats: dict[str, Any]) -> dict[str, Any]:
    """Return form initial values for stored stats, under their typed fields' names."""
    return {
        STAT_PREFIX + f.name: stat_initial(f, stats[f.name])
        for f in schema.fields
        if f.name in stats
    }


class StatsForm(SchemaFormMixin, forms.Form):
    """A plain form whose `stat_*` fields come from a schema (see `with_stats`)."""

    def stat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.schema_names()]

    def plain_fields(self) -> list[forms.BoundField]:
        names = set(self.schema_names())
        return [bound for bound in self if bound.name not in names]


_CLASSES: dict[tuple[type, str], type] = {}


def with_stats(base: type[StatsForm], schema: Schema | None, name: str) -> type:
    """Return `base` with one typed field per stat of `schema` (the admin's generator).

    Built once per (form, name): a schema is fixed for the process's life.
    """
    key = (base, name)
    if key not in _CLASSES:
        _CLASSES[key] = schema_form_class(base, schema, name)
    return _CLASSES[key]


# --- forces -------------------------------------------------------------------------------


def campaigns_joined(user: Visitor) -> QuerySet[Campaign]:
    """Return the campaigns a user plays in or organises: where their forces can go."""
    if not isinstance(user, User):  # an anonymous visitor plays nowhere
        return Campaign.objects.none()
    return Campaign.objects.filter(pk__in=campaign_ids_for(user)).order_by("name", "pk")


class ForceForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name")
    faction = forms.CharField(
        max_length=120, required=False, help_text="The side or nation it fights for."
    )
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class NewForceForm(ForceForm):
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        empty_label="No campaign: a force on its own",
        help_text="The force plays the campaign's rule system.",
    )
    system = forms.ChoiceField(
        choices=(),
        required=False,
        label="Rule system",
        help_text="Only for a force outside any campaign.",
    )
    field_order = ["campaign", "name", "faction", "system", "notes"]

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "campaign", forms.ModelChoiceField).queryset = campaigns_joined(user)
        field_of(self, "system", forms.ChoiceField).choices = [("", "—"), *system_choices()]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not cleaned.get("campaign") and not cleaned.get("system"):
            self.add_error("system", "Choose a campaign, or a rule system for a force on its own.")
        return cleaned


# --- units --------------------------------------------------------------------------------


class NewUnitForm(forms.Form):
    prefix = "unit"  # the force's own name field is on the same page
    name = forms.CharField(max_length=120, label="Unit name")


class SquadForm(forms.Form):
    prefix = "squad"
    name = forms.CharField(max_length=110, label="Name of the new unit")
    varied = forms.BooleanField(
        required=False, label="Vary each man's fire and melee (a d6 each: −2 to +2)"
    )


class UnitFormBase(StatsForm):
    name = forms.CharField(max_length=120, label="Name")
    leader = forms.ModelChoiceField(
        queryset=Character.objects.none(), required=False, empty_label="No leader"
    )

    def __init__(self, *args: Any, unit: Unit, **kwargs: Any) -> None:
        initial = {"name": unit.name, "leader": unit.leader_id}
        if self.schema is not None:
            initial.update(stats_initial(self.schema, unit.stats or {}))
        super().__init__(*args, initial=initial, **kwargs)
        field_of(self, "leader", forms.ModelChoiceField).queryset = unit.characters.order_by(
            "name", "pk"
        )


def unit_form_class(system: RuleSystem) -> type[UnitFormBase]:
    """Return the unit form: unit stats only where the system's piece is the unit."""
    schema = system.stats if system.piece == "unit" else None
    return with_stats(UnitFormBase, schema, f"{system.key}UnitForm")
