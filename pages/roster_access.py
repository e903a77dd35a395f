"""Who may open which roster page, exactly as the API decides it.

Reading is scoped like the API's querysets: a force, unit or character outside what the user
may see answers 404, so a stranger learns nothing. Changing it is the force's owner's, or an
organiser's of its campaign (`rosters.selectors.forces_editable_by`); a member who may only
read gets 403.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from common.users import Visitor
from rosters.models import Character, Force, Unit
from rosters.selectors import (
    characters_visible_to,
    forces_editable_by,
    forces_visible_to,
    units_visible_to,
)

REFUSED = "Only the force's owner or an organiser of its campaign may change it."


def may_edit(force: Force, user: Visitor) -> bool:
    # The owner is the common case and needs no query; organisers and admins ask the selector.
    return force.owner_id == user.pk or forces_editable_by(user).filter(pk=force.pk).exists()


def _check(force: Force, request: HttpRequest) -> None:
    if not may_edit(force, request.user):
        raise PermissionDenied(REFUSED)


def editable_force(request: HttpRequest, pk: int) -> Force:
    """Return a force the user may change: 404 if they cannot see it, 403 if only read it."""
    forces = forces_visible_to(request.user).select_related("campaign", "owner")
    force = get_object_or_404(forces, pk=pk)
    _check(force, request)
    return force


def editable_unit(request: HttpRequest, pk: int) -> Unit:
    units = units_visible_to(request.user).select_related("force__campaign", "force__owner")
    unit = get_object_or_404(units, pk=pk)
    _check(unit.force, request)
    return unit


def editable_character(request: HttpRequest, pk: int) -> Character:
    characters = characters_visible_to(request.user).select_related(
        "force__campaign", "force__owner", "unit"
    )
    character = get_object_or_404(characters, pk=pk)
    _check(character.force, request)
    return character
