"""Sign-up cannot be used to list the club's members or to open accounts by the hundred: a
registered e-mail address gets the same answer as a new one, and sign-ups are counted per
client address in the shared cache (Redis, or the database), not in one process's memory."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
SIGNUP = "/accounts/signup/"
PASSWORD = "muskets at dawn 1777"


@pytest.fixture(autouse=True)
def fresh_counts():
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    backend = caches["default"]
    if not isinstance(backend, RedisCache):  # never flush a real Redis: it holds the broker too
        backend.clear()


def _sign_up(client, username, email, address="10.0.0.1", **headers):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(SIGNUP, data, REMOTE_ADDR=address, **headers)


def test_the_sign_up_count_lives_in_a_cache_every_process_shares():
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend in {
        "django.core.cache.backends.db.DatabaseCache",
        "django.core.cache.backends.redis.RedisCache",
    }


def test_a_registered_address_gets_the_same_answer_as_a_new_one(client):
    UserFactory(username="alice", email="alice@example.org")

    fresh = _sign_up(client, "dora", "dora@example.org")
    client.logout()
    taken = _sign_up(client, "eric", "ALICE@example.org", address="10.0.0.2")

    assert (fresh.status_code, fresh["Location"]) == (taken.status_code, taken["Location"])
    assert b"already" not in taken.content
    eric = get_user_model().objects.get(username="eric")
    assert eric.email == ""  # alice's address stays alice's
    assert any("alice@example.org" in m.to for m in mail.outbox)  # she is told


def test_sign_ups_from_one_address_are_limited_and_the_rest_are_refused(client):
    answers = []
    for n in range(7):
        client.logout()
        answers.append(_sign_up(client, f"bot{n}", f"bot{n}@example.org").status_code)

    assert answers[:5] == [302] * 5
    assert answers[5:] == [429, 429]
    assert get_user_model().objects.filter(username__startswith="bot").count() == 5


def test_a_forged_forwarded_for_header_does_not_buy_more_sign_ups(client):
    answers = []
    for n in range(6):
        client.logout()
        forged = {"HTTP_X_FORWARDED_FOR": f"203.0.113.{n}"}
        answers.append(_sign_up(client, f"bot{n}", f"bot{n}@example.org", **forged).status_code)

    assert answers[-1] == 429
