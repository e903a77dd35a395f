"""Forms for characters: add one, add several at once, edit, move, and mark a status.

The stats are typed fields from the system's schema, built by the admin's generator
(`common.schema_forms.schema_form_class`): a range is a number input with min and max, a choice a
select, equipment from the system's tables a set of checkboxes, each with the schema's help.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from common.form_fields import field_of
from pages.roster_forms import StatsForm, stats_initial, with_stats
from rosters.models import Character, CharacterStatus, Force, Unit
from rosters.selectors import piece_stats
from rules.system import RuleSystem, get_system


def piece_note(force: Force) -> str:
    """Say, on a figure's form, where its stats live when the unit is the playing piece."""
    system = get_system(force.system)
    if system.piece != "unit":
        return ""
    return (
        f"In {system.name} the unit is the playing piece: a figure in a unit plays with its "
        "unit's stats (set them on the unit); the stats here count only for a figure in no unit."
    )


#: The most figures one "add several" form makes (a big unit, not a whole army by accident).
MANY_LIMIT = 40


class CharacterFormBase(StatsForm):
    name = forms.CharField(max_length=120)
    rank = forms.CharField(max_length=80, required=False, help_text="Rank or title.")
    unit = forms.ModelChoiceField(
        queryset=Unit.objects.none(), required=False, empty_label="Not in a unit"
    )
    photo = forms.FileField(
        required=False, help_text="A JPEG, PNG, WebP or GIF picture of the figure."
    )
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    rolled = forms.CharField(widget=forms.HiddenInput, required=False)

    #: The character being edited, whose own name is no clash.
    character: Character | None = None

    def __init__(self, *args: Any, force: Force, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.force = force
        field_of(self, "unit", forms.ModelChoiceField).queryset = force.units.order_by(
            "order", "name", "pk"
        )
        self.piece_note = piece_note(force)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        others = self.force.characters.filter(name=name)
        if self.character is not None:
            others = others.exclude(pk=self.character.pk)
        if others.exists():
            raise forms.ValidationError(f"{self.force.name} already has a character named {name}.")
        return name


class EditCharacterFormBase(CharacterFormBase):
    permanent_wounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text="One permanent wound per line.",
    )
    field_order = ["name", "rank", "unit", "photo", "permanent_wounds", "notes"]

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        schema = self.schema
        piece = get_system(character.force.system).piece
        #: The unit whose stats this figure plays with (read-only here), if the unit is the piece.
        self.stats_unit = character.unit if piece == "unit" and character.unit_id else None
        initial = {
            "name": character.name,
            "rank": character.rank,
            "unit": character.unit_id,
            "notes": character.notes,
            "permanent_wounds": "\n".join(character.permanent_wounds),
            **(stats_initial(schema, piece_stats(character, piece)) if schema else {}),
        }
        self.character = character
        super().__init__(*args, initial=initial, force=character.force, **kwargs)
        self.fields.pop("rolled")
        if self.stats_unit is not None:
            self.piece_note = (
                f"In {get_system(character.force.system).name} the unit is the playing piece: "
                f"{character.name} plays with {self.stats_unit.name}'s stats, shown here; "
                "change them on the unit."
            )
            for name in self.schema_names():
                self.fields[name].disabled = True  # one place for each stat: the unit

    def clean_permanent_wounds(self) -> list[str]:
        text = self.cleaned_data.get("permanent_wounds") or ""
        return [line.strip() for line in text.splitlines() if line.strip()]


class ManyCharactersFormBase(StatsForm):
    count = forms.IntegerField(
        min_value=1,
        max_value=MANY_LIMIT,
        initial=6,
        required=False,
        label="How many",
        help_text="Named from the name below, numbered: Musketeer 1, Musketeer 2 ...",
    )
    name = forms.CharField(max_length=110, required=False, label="Name", help_text="e.g. Musketeer")
    first = forms.IntegerField(
        min_value=1,
        max_value=999,
        initial=1,
        required=False,
        label="Numbered from",
        help_text="Start above the numbers the force already uses.",
    )
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label="Or list their names",
        help_text="One name per line; this replaces the numbered names.",
    )
    rank = forms.CharField(max_length=80, required=False, help_text="The same for all of them.")
    unit = forms.ModelChoiceField(
        queryset=Unit.objects.none(), required=False, empty_label="Not in a unit"
    )

    def __init__(self, *args: Any, force: Force, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.force = force
        field_of(self, "unit", forms.ModelChoiceField).queryset = force.units.order_by(
            "order", "name", "pk"
        )
        self.piece_note = piece_note(force)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        listed = [n.strip() for n in (cleaned.get("names") or "").splitlines() if n.strip()]
        if listed:
            cleaned["all_names"] = self._check_listed(listed)
        elif cleaned.get("name") and cleaned.get("count"):
            cleaned["all_names"] = self._check_numbered(
                numbered_names(cleaned["name"], cleaned["count"], cleaned.get("first") or 1)
            )
        elif not self.has_error("count"):
            self.add_error("name", "Give a name to number, or list the names one per line.")
        return cleaned

    def _taken(self) -> set[str]:
        return set(self.force.characters.values_list("name", flat=True))

    def _check_listed(self, listed: list[str]) -> list[str]:
        if len(listed) > MANY_LIMIT:
            self.add_error("names", f"At most {MANY_LIMIT} at once.")
        if any(len(n) > 120 for n in listed):
            self.add_error("names", "A name may be at most 120 characters.")
        twice = sorted({n for n in listed if listed.count(n) > 1})
        if twice:
            self.add_error("names", f"Listed twice: {', '.join(twice)}.")
        clash = sorted(set(listed) & self._taken())
        if clash:
            self.add_error("names", f"Already in {self.force.name}: {', '.join(clash)}.")
        return listed

    def _check_numbered(self, names: list[str]) -> list[str]:
        # The same form sent twice makes the same names, so a double submit is refused here
        # rather than adding the batch again.
        clash = set(names) & self._taken()
        if clash:
            free = next_free_number(names[0].rsplit(" ", 1)[0], self._taken())
            shown = ", ".join(n for n in names if n in clash)
            self.add_error("first", f"Already in {self.force.name}: {shown}. Start at {free}.")
        return names


def numbered_names(base: str, count: int, first: int = 1) -> list[str]:
    """Return `count` names "base 1", "base 2" ... from `first` on (a trailing number dropped)."""
    stem = re.sub(r"\s+\d+$", "", base.strip())
    return [f"{stem} {number}" for number in range(first, first + count)]


def next_free_number(stem: str, taken: set[str]) -> int:
    """Return the number after the highest "stem N" already taken."""
    pattern = re.compile(rf"^{re.escape(stem)} (\d+)$")
    numbers = [int(m.group(1)) for m in map(pattern.match, taken) if m]
    return max(numbers, default=0) + 1


class MoveForm(forms.Form):
    prefix = "move"  # the edit page holds the character's own unit field too
    unit = forms.ModelChoiceField(
        queryset=Unit.objects.none(), required=False, empty_label="Not in a unit", label="Unit"
    )

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        kwargs["initial"] = {"unit": character.unit_id}
        super().__init__(*args, **kwargs)
        field_of(self, "unit", forms.ModelChoiceField).queryset = character.force.units.order_by(
            "order", "name", "pk"
        )


STATUS_ACTIONS = (
    ("RETIRED", "Retire from service"),
    (CharacterStatus.DEAD, "Dead"),
    (CharacterStatus.CAPTURED, "Captured"),
    (CharacterStatus.ACTIVE, "Back in service"),
)


class StatusForm(forms.Form):
    prefix = "mark"
    status = forms.ChoiceField(choices=STATUS_ACTIONS, widget=forms.RadioSelect, label="Now")
    reason = forms.CharField(
        max_length=300,
        required=False,
        label="What happened",
        help_text="Goes in the service record; needed for dead or captured.",
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        status = cleaned.get("status")
        if (
            status in (CharacterStatus.DEAD, CharacterStatus.CAPTURED)
            and not (cleaned.get("reason") or "").strip()
        ):
            self.add_error("reason", "Say what happened (it goes in the service record).")
        return cleaned


def character_form_class(system: RuleSystem) -> type[CharacterFormBase]:
    return with_stats(CharacterFormBase, system.stats, f"{system.key}CharacterForm")


def edit_form_class(system: RuleSystem) -> type[EditCharacterFormBase]:
    return with_stats(EditCharacterFormBase, system.stats, f"{system.key}EditCharacterForm")


def many_form_class(system: RuleSystem) -> type[ManyCharactersFormBase]:
    return with_stats(ManyCharactersFormBase, system.stats, f"{system.key}ManyCharactersForm")
