"""Creating and keeping a force: new, edit (name, faction, notes), archive, delete.

A force that fought keeps its history: it can be archived (and brought back), never deleted.
One that never fought can be deleted after a confirmation page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.users import signed_in
from pages.roster_access import editable_force
from pages.roster_forms import ForceForm, NewForceForm, NewUnitForm, SquadForm, errors_onto
from rosters import services
from rosters.house_rules import rules_for_force
from rosters.models import Force
from rosters.selectors import unit_head_counts


@login_required
def force_new(request: HttpRequest) -> HttpResponse:
    """Create a force in a campaign the player belongs to (or on its own)."""
    initial = {"campaign": request.GET.get("campaign")} if request.GET.get("campaign") else {}
    form = NewForceForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            force = services.force_create(
                owner=signed_in(request.user),
                name=form.cleaned_data["name"],
                campaign=form.cleaned_data["campaign"],
                system=None if form.cleaned_data["campaign"] else form.cleaned_data["system"],
                faction=form.cleaned_data["faction"],
                notes=form.cleaned_data["notes"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, f"{force.name} is mustered. Add its units and figures.")
            return redirect("force-edit", pk=force.pk)
    status = 400 if form.errors else 200
    return render(request, "pages/forces/new.html", {"form": form}, status=status)


def _force_form(force: Force, data: QueryDict | None = None) -> ForceForm:
    initial = {"name": force.name, "faction": force.faction, "notes": force.notes}
    return ForceForm(data, initial=initial)


def edit_context(request: HttpRequest, force: Force, **extra: object) -> dict[str, object]:
    """Return the edit page's context: the force's form and its units with head counts."""
    system = rules_for_force(force)
    units = list(force.units.order_by("order", "name", "pk").select_related("leader"))
    counts = unit_head_counts(force)
    return {
        "force": force,
        "system": system,
        "units": [(u, counts.get(u.pk, 0)) for u in units],
        "unit_stats": system.piece == "unit",
        "fought": services.force_has_fought(force),
        "form": _force_form(force),
        "new_unit": NewUnitForm(),
        "squad_form": SquadForm() if system.key == "rencounter" else None,
        **extra,
    }


@login_required
def force_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename the force, change its faction and notes; manage its units below."""
    force = editable_force(request, pk)
    form = _force_form(force, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.force_update(force=force, **form.cleaned_data)
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, f"{force.name} is saved.")
            return redirect("force-edit", pk=force.pk)
    status = 400 if form.errors else 200
    return render(
        request, "pages/forces/edit.html", edit_context(request, force, form=form), status=status
    )


@login_required
@require_POST
def force_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Archive the force, or bring it back (`restore`); its battles and records stay."""
    force = editable_force(request, pk)
    if request.POST.get("restore"):
        services.force_restore(force=force)
        messages.success(request, f"{force.name} is back in service.")
    else:
        services.force_archive(force=force)
        messages.success(request, f"{force.name} is archived; its history is kept.")
    return redirect("force-page", pk=force.pk)


@login_required
def force_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then delete a force that never fought."""
    force = editable_force(request, pk)
    fought = services.force_has_fought(force)
    if request.method == "POST" and not fought:
        services.force_delete(force=force)
        messages.success(request, f"{force.name} is deleted.")
        return redirect("home")
    context = {"force": force, "fought": fought, "count": force.characters.count()}
    refused = fought and request.method == "POST"
    return render(request, "pages/forces/delete.html", context, status=409 if refused else 200)
