"""Login rate limiting (django-axes): 5 wrong passwords against one account, whatever its
spelling, lock that account out for 15 minutes, and 5 from one address lock that address; a
clear message, and other accounts from other addresses are unaffected."""

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


def test_the_limit_is_five_failures_for_fifteen_minutes_by_account_and_by_address():
    assert settings.AXES_ENABLED is True
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username", "ip_address"]
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
    assert b"Too many wrong passwords" in locked.content
    assert b"15 minutes" in locked.content
    assert "_auth_user_id" not in client.session


def test_a_locked_account_is_locked_from_every_address_and_others_are_not(client):
    UserFactory(username="alice")
    UserFactory(username="bob")
    _fail(client, "alice", 5)

    alice_elsewhere = _attempt(client, "alice", PASSWORD, address="10.0.0.2")
    bob_elsewhere = _attempt(client, "bob", PASSWORD, address="10.0.0.3")

    assert alice_elsewhere.status_code == 429
    assert bob_elsewhere.status_code == 302


@pytest.mark.parametrize("spellings", [["alice"] * 4 + ["ALICE"], ["alice", " Alice ", "aLiCe"]])
def test_every_spelling_of_a_login_counts_against_one_account(client, spellings):
    UserFactory(username="alice", email="alice@example.org")
    tries = (spellings * 5)[:5]
    for spelling in tries:
        _attempt(client, spelling, "wrong")

    for spelling in ("alice", "ALICE", " alice", "Alice@Example.org"):
        assert _attempt(client, spelling, PASSWORD).status_code == 429, spelling
    assert "_auth_user_id" not in client.session


def test_failures_by_e_mail_address_lock_the_username_too(client):
    UserFactory(username="lockb", email="lockb@example.org")
    _fail(client, "lockb@example.org", 3)
    _fail(client, "LOCKB@EXAMPLE.ORG ", 2)

    assert _attempt(client, "LoCkB", PASSWORD, address="10.9.9.9").status_code == 429


def test_five_failures_from_one_address_lock_that_address_whatever_the_account(client):
    UserFactory(username="alice")
    for name in ("ann", "ben", "cat", "dan", "eve"):
        _attempt(client, name, "wrong")

    from_there = _attempt(client, "alice", PASSWORD)
    client.logout()
    from_elsewhere = _attempt(client, "alice", PASSWORD, address="10.0.0.2")

    assert from_there.status_code == 429
    assert from_elsewhere.status_code == 302


@pytest.mark.parametrize("url", [LOGIN, ADMIN_LOGIN])
@pytest.mark.parametrize("length", [256, 300, 10_000])
def test_a_login_hundreds_of_characters_long_is_refused_not_a_server_error(client, url, length):
    codes = _fail(client, "x" * length, 2, url=url)

    assert codes == [200, 200]
    assert all(len(a.username) <= 255 for a in AccessAttempt.objects.all())


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
