"""Login rate limiting (django-axes): 5 wrong passwords for one username from one address lock
that pair out for 15 minutes, with a clear message; other users and addresses are unaffected."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


def _attempt(client, username, password, address="10.0.0.1", url=LOGIN):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def _fail(client, username, times, address="10.0.0.1", url=LOGIN):
    return [_attempt(client, username, "wrong", address, url).status_code for _ in range(times)]


def test_the_limit_is_five_failures_for_fifteen_minutes_by_username_and_address():
    assert settings.AXES_ENABLED is True
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AUTHENTICATION_BACKENDS[0] == "config.auth.RateLimitBackend"


def test_four_wrong_passwords_still_let_the_right_one_in(client):
    UserFactory(username="alice")

    codes = _fail(client, "alice", 4)
    signed_in = _attempt(client, "alice", PASSWORD)

    assert codes == [200] * 4  # the form again, with its error
    assert signed_in.status_code == 302


def test_the_fifth_wrong_password_locks_out_even_the_right_one(client):
    UserFactory(username="alice")

    codes = _fail(client, "alice", 5)
    locked = _attempt(client, "alice", PASSWORD)

    assert codes[-1] == 429
    assert locked.status_code == 429
    assert b"Too many wrong passwords for <strong>alice</strong>" in locked.content
    assert b"15 minutes" in locked.content
    assert "_auth_user_id" not in client.session


def test_a_lockout_does_not_touch_another_user_or_another_address(client):
    UserFactory(username="alice")
    UserFactory(username="bob")
    _fail(client, "alice", 5)

    bob = _attempt(client, "bob", PASSWORD)
    client.logout()
    alice_elsewhere = _attempt(client, "alice", PASSWORD, address="10.0.0.2")

    assert bob.status_code == 302
    assert alice_elsewhere.status_code == 302


def test_the_lockout_ends_after_the_cool_off(client):
    UserFactory(username="alice")
    _fail(client, "alice", 5)
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )

    signed_in = _attempt(client, "alice", PASSWORD)

    assert signed_in.status_code == 302


def test_the_admin_login_is_rate_limited_too(client):
    UserFactory(username="root", is_staff=True, is_superuser=True)

    codes = _fail(client, "root", 5, url=ADMIN_LOGIN)
    locked = _attempt(client, "root", PASSWORD, url=ADMIN_LOGIN)

    assert codes[-1] == 429
    assert locked.status_code == 429


def test_a_user_who_does_not_exist_is_locked_out_the_same_way(client):
    codes = _fail(client, "nobody", 6)

    assert codes == [200] * 4 + [429, 429]


def test_authenticate_without_a_request_still_works_for_the_shell_and_commands():
    from django.contrib.auth import authenticate

    UserFactory(username="alice")

    assert authenticate(username="alice", password=PASSWORD).username == "alice"
    assert authenticate(username="alice", password="wrong") is None
