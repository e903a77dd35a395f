"""The force page: the roster by unit, print buttons with their options, export and import."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from common.throttling import throttle_page
from common.users import Visitor, signed_in
from pages.roster_access import may_edit
from pages.selectors import force_sheet
from printing.cards import CARD_SIZES
from printing.models import LabelPreset
from printing.sheets import DEFAULT_PRESET, PAGE_SIZES, PRESETS
from rosters.house_rules import rules_for_force
from rosters.interchange import ImportRejected, force_import_csv
from rosters.models import Force
from rosters.selectors import forces_visible_to

MAX_IMPORT_BYTES = 1_000_000


def _label_presets(user: Visitor) -> list[tuple[str, str]]:
    own = [
        (f"user-{p.pk}", f"{p.name} (yours)")
        for p in LabelPreset.objects.filter(owner_id=user.pk).order_by("name", "pk")
    ]
    return [(key, preset.name) for key, preset in PRESETS.items()] + own


def _context(request: HttpRequest, force: Force, **extra: object) -> dict[str, object]:
    return {
        "sheet": force_sheet(force, rules_for_force(force)),
        "force": force,
        "can_edit": may_edit(force, request.user),
        "label_presets": _label_presets(request.user),
        "default_preset": DEFAULT_PRESET,
        "card_sizes": list(CARD_SIZES),
        "page_sizes": list(PAGE_SIZES),
        **extra,
    }


def _visible_force(request: HttpRequest, pk: int) -> Force:
    forces = forces_visible_to(request.user).select_related("campaign", "owner")
    return get_object_or_404(forces, pk=pk)


@login_required
def force_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a force's roster: units, each figure's stat line, wounds and status, print options."""
    force = _visible_force(request, pk)
    return render(request, "pages/force.html", _context(request, force))


def _upload_text(request: HttpRequest) -> tuple[bytes, str]:
    upload = request.FILES.get("file")
    if upload is None:
        return b"", "Choose a CSV file to import."
    if (upload.size or 0) > MAX_IMPORT_BYTES:
        return b"", "That file is over 1 MB: split it into smaller files."
    # The import decodes it strictly (UTF-8, BOM or not) and says so if it is not.
    return upload.read(), ""


@login_required
@require_POST
@throttle_page("imports")
def force_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Add characters to the force from a CSV file (the export's columns); all or nothing."""
    force = _visible_force(request, pk)
    if not may_edit(force, request.user):
        raise PermissionDenied("Only the force's owner or its campaign's organisers may import.")
    text, problem = _upload_text(request)
    if not problem:
        try:
            created = force_import_csv(force=force, text=text, user=signed_in(request.user))
        except ImportRejected as exc:
            problems = [str(m) for m in exc.messages]
            context = _context(request, force, import_problems=problems)
            return render(request, "pages/force.html", context, status=400)
        messages.success(
            request, f"Imported {len(created)} character{'' if len(created) == 1 else 's'}."
        )
        return redirect("force-page", pk=force.pk)
    context = _context(request, force, import_problems=[problem])
    return render(request, "pages/force.html", context, status=400)
