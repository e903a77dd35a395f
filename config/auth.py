"""Authentication backends: django-axes' rate limit in front of Django's model backend."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class RateLimitBackend(AxesStandaloneBackend):
    """Refuse locked-out logins (django-axes); calls without a request are not logins.

    Axes needs the request (it keys on the client's address) and raises without one, which
    would break `authenticate()` from the shell, management commands and tests. Those calls
    are not attempts from the network, so this backend stands aside and the model backend
    answers them as usual.
    """

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
