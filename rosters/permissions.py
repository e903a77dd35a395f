"""Who may change a roster: the force's owner, or an organiser of its campaign.

Reads are scoped by the viewsets' querysets (`rosters.selectors`), so a stranger gets 404 for
a private force; this class only decides writes on objects a user can already see.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from rosters.models import Character, Force, Unit
from rosters.selectors import force_is_editable_by


def force_of(obj: Force | Unit | Character) -> Force:
    return obj if isinstance(obj, Force) else obj.force


class CanEditRoster(BasePermission):
    message = "Only the force's owner or an organiser of its campaign may change it."

    def has_object_permission(
        self, request: Request, view: APIView, obj: Force | Unit | Character
    ) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return force_is_editable_by(force_of(obj), request.user)
