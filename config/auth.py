"""Authentication backends: django-axes' rate limit in front of Django's model backend, and the
account key failed sign-ins are counted against."""

from __future__ import annotations

from collections.abc import Mapping

from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest

#: Longest key kept for a login that names no account (AccessAttempt.username holds 255).
UNKNOWN_LOGIN_MAX = 150


class RateLimitBackend(AxesStandaloneBackend):
    """Refuse locked-out logins (django-axes); calls without a request are not logins.

    Axes needs the request (it keys on the client's address) and raises without one, which
    would break `authenticate()` from the shell, management commands and tests. Those calls
    are not attempts from the network, so this backend stands aside and the model backend
    answers them as usual.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: object,
    ) -> User | None:
        if request is None:
            return None
        user: User | None = super().authenticate(request, username, password, **kwargs)
        return user  # django-axes is untyped


def _typed_login(request: HttpRequest | None, credentials: Mapping[str, object] | None) -> str:
    """What the visitor typed as their login: allauth sends `email` or `username`, the admin
    `username`, and the middleware only has the form."""
    for source in (credentials or {}, getattr(request, "POST", {}) or {}):
        for field in ("username", "email", "login"):
            value = source.get(field)
            if isinstance(value, str) and value:
                return value
    return ""


def account_key(
    request: HttpRequest | None, credentials: Mapping[str, object] | None = None
) -> str:
    """The account a sign-in attempt counts against (AXES_USERNAME_CALLABLE).

    "LoCkB", " lockb " and lockb's e-mail address are one account: the login is stripped and
    case-folded, and a username or e-mail naming exactly one user becomes that user's username,
    so every spelling shares one count and one lockout. A login naming nobody is counted as
    typed (folded, capped in length, so a 10,000-character login cannot overflow the column).
    """
    folded = _typed_login(request, credentials).strip().casefold()
    if not folded:
        return ""
    users = get_user_model().objects.filter(Q(username__iexact=folded) | Q(email__iexact=folded))
    names = list(users.values_list("username", flat=True)[:2])
    if len(names) == 1:
        return names[0].casefold()
    return folded[:UNKNOWN_LOGIN_MAX]
