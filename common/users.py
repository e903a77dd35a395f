"""The signed-in user, typed: what a view hands a service once its login check has passed.

`request.user` is a `User` or an `AnonymousUser`; services act for a `User` (the author of an
event, the owner of a force). A view behind `@login_required` or DRF's `IsAuthenticated` never
sees an anonymous visitor, so `signed_in` only refuses one if a view lost its login check.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

__all__ = ["User", "Visitor", "signed_in"]

#: Whoever reaches a page or the API: a signed-in user or an anonymous visitor. Reads
#: (selectors) take a `Visitor` and show an anonymous one nothing.
Visitor = User | AnonymousUser


def signed_in(user: User | AnonymousUser) -> User:
    """Return the signed-in user; refuse an anonymous visitor (403) rather than act for nobody."""
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user
