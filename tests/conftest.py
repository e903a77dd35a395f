"""Shared fixtures for the Django tests.

The permission actors follow one story: alice owns the force, bob is another player in the
campaign, olivia organises it, charlie is a stranger (and anonymous is nobody at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest


@dataclass(frozen=True)
class Story:
    alice: Any
    bob: Any
    olivia: Any
    charlie: Any
    campaign: Any
    force: Any
    unit: Any
    character: Any


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def story(db) -> Story:
    """A campaign with alice's force (one unit, one character) and the other actors."""
    from campaigns.models import Role
    from tests.factories import (
        CampaignFactory,
        CharacterFactory,
        ForceFactory,
        MembershipFactory,
        UnitFactory,
        UserFactory,
    )

    alice, bob, olivia, charlie = (
        UserFactory(username=n) for n in ("alice", "bob", "olivia", "charlie")
    )
    campaign = CampaignFactory(name="The Thirty Years' War")
    for user, role in ((alice, Role.PLAYER), (bob, Role.PLAYER), (olivia, Role.ORGANISER)):
        MembershipFactory(user=user, campaign=campaign, role=role)
    force = ForceFactory(owner=alice, campaign=campaign, name="Gridley's Company")
    unit = UnitFactory(force=force, name="Musketeers")
    character = CharacterFactory(force=force, unit=unit, name="Sgt. Gridley", rank="Sergeant")
    return Story(alice, bob, olivia, charlie, campaign, force, unit, character)


@pytest.fixture
def as_user(api_client):
    """Return a function that authenticates the API client as a user (None: anonymous)."""

    def login(user: Any):
        api_client.force_authenticate(user=user)
        return api_client

    return login


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    # PBKDF2 at full strength costs ~0.5 s per user; the tests need hashing, not strength.
    # (Skipped when the rules tests run with `-p no:django`.)
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_api_throttles(request):
    # Throttle counts live in a process-wide cache keyed by user id or address; each test
    # starts with none, so earlier tests' requests never count against it.
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    throttles = caches[settings.API_THROTTLE_CACHE]
    if isinstance(throttles, LocMemCache):  # never flush a real Redis: it holds the broker too
        throttles.clear()
