"""Adding and changing characters: one, several at once, edit, move, retire, dead or captured.

Every change goes through a roster service, which writes the service-record entry (a creation
or a hand edit, by this user) in the same transaction. The new-character form also runs the
system's own creation rules (`pages.creation`): a roll fills the form, the player saves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.schema_forms import STAT_PREFIX
from common.stats import starting_stats
from common.users import signed_in
from pages.character_forms import (
    CharacterFormBase,
    EditCharacterFormBase,
    MoveForm,
    StatusForm,
    character_form_class,
    edit_form_class,
    many_form_class,
)
from pages.creation import DiceTyped, Rolled, apply_recipe, creation_note, recipe, recipes_for
from pages.display import Stat, value_text
from pages.roster_access import editable_character, editable_force
from pages.roster_forms import errors_onto, stats_initial
from rosters import services
from rosters.house_rules import rules_for_force
from rosters.models import Character, CharacterStatus, Force
from rosters.recruits import characters_create_many
from rules.schema import Field
from rules.system import RuleSystem


def _new_initial(request: HttpRequest, system: RuleSystem) -> dict[str, Any]:
    # Values the schema derives (horsemanship from experience, Parry from Fighting) start
    # empty, so they follow what the player chooses instead of the defaults'.
    schema = system.stats
    fresh = starting_stats(schema)
    derived = {f.name for f in schema.fields if f.default is None and not f.required}
    initial = stats_initial(schema, {k: v for k, v in fresh.items() if k not in derived})
    if request.GET.get("unit", "").isdigit():
        initial["unit"] = int(request.GET["unit"])
    return initial


def _as_initial(
    form_class: type[CharacterFormBase], data: QueryDict, force: Force
) -> dict[str, Any]:
    """Return what the browser sent as initial values (lists for multi-valued fields)."""
    fields = form_class(force=force).fields
    return {
        name: data.getlist(name)
        if hasattr(field, "choices") and field.widget.allow_multiple_selected
        else data.get(name)
        for name, field in fields.items()
        if name in data
    }


def _rolled_form(
    request: HttpRequest, force: Force, system: RuleSystem, form_class: type[CharacterFormBase]
) -> tuple[CharacterFormBase, Rolled | None, str]:
    """Apply the chosen creation recipe to what the form holds; return (form, rolled, error)."""
    chosen = recipe(system.key, request.POST.get("recipe", ""))
    current: dict[str, object] = {k.removeprefix(STAT_PREFIX): v for k, v in request.POST.items()}
    current["varied"] = request.POST.get("varied")
    initial = _as_initial(form_class, request.POST, force)
    rolled: Rolled | None = None
    problem = ""
    if chosen is not None:
        try:
            # Under the campaign's house rules: a club's own ability table is the one rolled on.
            dice = request.POST.get("dice", "")
            rolled = apply_recipe(chosen, current, dice, checks=system.checks)
        except DiceTyped as exc:
            problem = str(exc)
        else:
            initial.update(stats_initial(system.stats, rolled.values))
            initial["rolled"] = rolled.token
    return form_class(force=force, initial=initial), rolled, problem


def _said(field: Field, value: object) -> str:
    named = dict(field.choices).get(value) if field.kind == "int" else None
    return named or value_text(field, value)


def _shown(system: RuleSystem, values: Mapping[str, object]) -> tuple[Stat, ...]:
    """Return what a roll filled in, in the game's words ("Troop type Veteran")."""
    return tuple(
        Stat(name, system.stats[name].title, _said(system.stats[name], value))
        for name, value in values.items()
        if value is not None
    )


def _create(request: HttpRequest, force: Force, form: CharacterFormBase) -> Character:
    data = form.cleaned_data
    return services.character_create(
        force=force,
        name=data["name"],
        stats=form.schema_values,
        unit=data["unit"],
        rank=data["rank"],
        notes=data["notes"],
        photo=data["photo"],
        user=signed_in(request.user),
        note=creation_note(data.get("rolled", ""), form.schema_values),
    )


@login_required
def character_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a character with typed stats, equipment, photo and notes; or roll it up first."""
    force = editable_force(request, pk)
    system = rules_for_force(force)
    form_class = character_form_class(system)
    rolled, problem = None, ""
    if request.method == "POST" and "recipe" in request.POST:
        form, rolled, problem = _rolled_form(request, force, system, form_class)
    elif request.method == "POST":
        form = form_class(request.POST, request.FILES, force=force)
        if form.is_valid():
            try:
                character = _create(request, force, form)
            except ValidationError as exc:
                errors_onto(form, exc)
            except IntegrityError:
                form.add_error("name", f"{force.name} already has a character of that name.")
            else:
                messages.success(request, f"{character.name} joins {force.name}.")
                return redirect("force-page", pk=force.pk)
    else:
        form = form_class(force=force, initial=_new_initial(request, system))
    context = {
        "force": force,
        "system": system,
        "form": form,
        "recipes": recipes_for(system.key),
        "rolled": rolled,
        "rolled_values": _shown(system, rolled.values) if rolled else (),
        "dice_problem": problem,
    }
    status = 400 if (form.is_bound and form.errors) or problem else 200
    return render(request, "pages/characters/new.html", context, status=status)


@login_required
def character_many(request: HttpRequest, pk: int) -> HttpResponse:
    """Add several characters at once with the same stats: numbered or listed names."""
    force = editable_force(request, pk)
    system = rules_for_force(force)
    form_class = many_form_class(system)
    if request.method == "POST":
        form = form_class(request.POST, force=force)
        if form.is_valid():
            try:
                made = characters_create_many(
                    force=force,
                    names=form.cleaned_data["all_names"],
                    stats=form.schema_values,
                    unit=form.cleaned_data["unit"],
                    rank=form.cleaned_data["rank"],
                    user=signed_in(request.user),
                )
            except (ValidationError, IntegrityError) as exc:
                problem = exc if isinstance(exc, ValidationError) else _clash(force)
                errors_onto(form, problem)
            else:
                messages.success(request, f"{len(made)} characters join {force.name}.")
                return redirect("force-page", pk=force.pk)
    else:
        form = form_class(force=force, initial=_new_initial(request, system))
    status = 400 if form.is_bound and form.errors else 200
    context = {"force": force, "system": system, "form": form}
    return render(request, "pages/characters/many.html", context, status=status)


def _clash(force: Force) -> ValidationError:
    return ValidationError({"names": [f"one of those names is already in {force}"]})


def _edit_changes(form: EditCharacterFormBase) -> dict[str, Any]:
    data = form.cleaned_data
    changes = {name: data[name] for name in ("name", "rank", "unit", "notes", "permanent_wounds")}
    if data.get("photo"):
        changes["photo"] = data["photo"]
    if form.stats_unit is not None:
        return changes  # the unit is the piece: its stats are edited on the unit, not here
    return {**changes, "stats": form.schema_values}


def _edit_context(
    character: Character, form: EditCharacterFormBase, **extra: object
) -> dict[str, object]:
    return {
        "character": character,
        "force": character.force,
        "form": form,
        "move_form": extra.pop("move_form", None) or MoveForm(character=character),
        "status_form": extra.pop("status_form", None) or StatusForm(),
        **extra,
    }


@login_required
def character_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a character's name, rank, unit, stats, equipment, photo, wounds and notes."""
    character = editable_character(request, pk)
    form_class = edit_form_class(rules_for_force(character.force))
    form = form_class(request.POST or None, request.FILES or None, character=character)
    if request.method == "POST" and form.is_valid():
        try:
            services.character_update(
                character=character, user=signed_in(request.user), **_edit_changes(form)
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, f"{character.name} is saved.")
            return redirect("character-page", pk=character.pk)
    status = 400 if form.errors else 200
    return render(
        request, "pages/characters/edit.html", _edit_context(character, form), status=status
    )


@login_required
@require_POST
def character_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Move a character to another unit of the force (or out of any unit)."""
    character = editable_character(request, pk)
    form = MoveForm(request.POST, character=character)
    if form.is_valid():
        services.character_move(
            character=character, unit=form.cleaned_data["unit"], user=signed_in(request.user)
        )
        messages.success(request, f"{character.name} is moved.")
        return redirect("character-page", pk=character.pk)
    form_class = edit_form_class(rules_for_force(character.force))
    context = _edit_context(character, form_class(character=character), move_form=form)
    return render(request, "pages/characters/edit.html", context, status=400)


def _set_status(request: HttpRequest, character: Character, status: str, reason: str) -> None:
    if status == "RETIRED":
        services.character_retire(character=character, user=signed_in(request.user), note=reason)
    else:
        services.character_mark(
            character=character, status=status, reason=reason, user=signed_in(request.user)
        )


@login_required
@require_POST
def character_status(request: HttpRequest, pk: int) -> HttpResponse:
    """Retire a character, or mark them dead, captured or back in service, with a reason."""
    character = editable_character(request, pk)
    form = StatusForm(request.POST)
    if form.is_valid():
        status, reason = form.cleaned_data["status"], form.cleaned_data["reason"]
        try:
            _set_status(request, character, status, reason)
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            label = dict(CharacterStatus.choices).get(status, status).lower()
            messages.success(request, f"{character.name} is now {label}.")
            return redirect("character-page", pk=character.pk)
    form_class = edit_form_class(rules_for_force(character.force))
    context = _edit_context(character, form_class(character=character), status_form=form)
    return render(request, "pages/characters/edit.html", context, status=400)
