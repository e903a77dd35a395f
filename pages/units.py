"""A force's units: add, rename, reorder, choose the leader, unit stats, delete an empty one.

Reordering is a pair of buttons (up, down), so it works without JavaScript; with htmx the unit
list is swapped in place.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from common.users import signed_in
from pages.creation import dice_for
from pages.force_edit import edit_context
from pages.roster_access import editable_force, editable_unit
from pages.roster_forms import (
    NewUnitForm,
    SquadForm,
    UnitFormBase,
    errors_onto,
    unit_form_class,
)
from rosters import services
from rosters.house_rules import rules_for_force
from rosters.models import Unit
from rosters.recruits import squad_create


def _back_to_units(force_pk: int) -> HttpResponse:
    return redirect(reverse("force-edit", args=[force_pk]) + "#units")


@login_required
@require_POST
def unit_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a unit at the end of the force's roster."""
    force = editable_force(request, pk)
    form = NewUnitForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            services.unit_create(force=force, name=name, order=services.unit_next_order(force))
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, f"{name} is added to {force.name}.")
            return _back_to_units(force.pk)
    context = edit_context(request, force, new_unit=form)
    return render(request, "pages/forces/edit.html", context, status=400)


@login_required
@require_POST
def squad_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """Roll a whole Rencounter unit with the squad creator (Muster's dice)."""
    force = editable_force(request, pk)
    form = SquadForm(request.POST)
    if form.is_valid():
        try:
            unit = squad_create(
                force=force,
                name=form.cleaned_data["name"],
                dice=dice_for(""),
                varied=form.cleaned_data["varied"],
                order=services.unit_next_order(force),
                user=signed_in(request.user),
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            count = unit.characters.count()
            messages.success(request, f"The squad creator rolled {unit.name}: {count} figures.")
            return _back_to_units(force.pk)
    context = edit_context(request, force, squad_form=form)
    return render(request, "pages/forces/edit.html", context, status=400)


@login_required
def unit_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename a unit, choose its leader and (where the unit is the piece) its stats."""
    unit = editable_unit(request, pk)
    form_class = unit_form_class(rules_for_force(unit.force))
    form = form_class(request.POST or None, unit=unit)
    if request.method == "POST" and form.is_valid():
        try:
            _save_unit(unit, form)
        except (ValidationError, IntegrityError) as exc:
            errors_onto(form, exc if isinstance(exc, ValidationError) else _clash(unit))
        else:
            messages.success(request, f"{unit.name} is saved.")
            return _back_to_units(unit.force_id)
    status = 400 if form.errors else 200
    context = {"unit": unit, "force": unit.force, "form": form}
    return render(request, "pages/forces/unit_edit.html", context, status=status)


def _clash(unit: Unit) -> ValidationError:
    return ValidationError({"name": [f"{unit.force} already has a unit of that name"]})


def _save_unit(unit: Unit, form: UnitFormBase) -> None:
    changes = {"name": form.cleaned_data["name"], "leader": form.cleaned_data["leader"]}
    if form.schema is not None:
        changes["stats"] = form.schema_values
    services.unit_update(unit=unit, **changes)


@login_required
@require_POST
def unit_shift(request: HttpRequest, pk: int) -> HttpResponse:
    """Move a unit one place up or down the roster."""
    unit = editable_unit(request, pk)
    services.unit_shift(unit=unit, by=-1 if request.POST.get("direction") == "up" else 1)
    return _back_to_units(unit.force_id)


@login_required
@require_POST
def unit_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a unit that has nobody in it."""
    unit = editable_unit(request, pk)
    try:
        services.unit_delete(unit=unit, user=signed_in(request.user), only_if_empty=True)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{unit.name} is deleted.")
    return _back_to_units(unit.force_id)
