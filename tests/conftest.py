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


@pytest.fixture
def house_rules_system(monkeypatch):
    """Game the 90% with editable missiles and a volley check (tests/house_rules_system.py) in
    the registry's place of Game the 90%, its reference sheet marking the tables a pack edits."""
    from rules import house
    from rules import system as registry
    from rules.systems.game_the_90 import reference
    from tests import house_rules_system as spec

    def forget_packs() -> None:
        # Packs and housed systems are cached by content: none may outlive the swap.
        house._load_canonical.cache_clear()
        for cached in [k for k in registry._HOUSED if k[0] == spec.KEY]:
            del registry._HOUSED[cached]

    base = registry.get_system(spec.KEY)
    monkeypatch.setitem(registry._REGISTRY, spec.KEY, spec.build(base))
    monkeypatch.setattr(reference, "sheet", spec.marked_sheet(reference.sheet))
    forget_packs()
    yield spec
    forget_packs()


@pytest.fixture(autouse=True)
def pinned_seeds(request, monkeypatch):
    """Give every battle and every auto-resolved batch a seed fixed by the test's name.

    A test that rolls dice through a battle (the post-battle pipeline, the table assistant, the
    auto-resolver) then rolls the same dice on every run and every machine: a result that
    depends on the dice fails every time or never, not one run in fifty. The n-th seed of a
    test is `<test id>/<n>`, so two battles of one test still differ. The rules engine's own
    tests pass their seeds explicitly.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        return
    import hashlib
    from itertools import count
    from types import SimpleNamespace

    from battles.services import setup, simulate

    numbers = count(1)

    def seed_for_test(length: int = 32) -> str:
        text = f"{request.node.nodeid}/{next(numbers)}"
        return hashlib.sha256(text.encode()).hexdigest()[: 2 * length]

    def new_seed() -> tuple[str, str]:
        seed = seed_for_test()
        return seed, hashlib.sha256(seed.encode()).hexdigest()

    monkeypatch.setattr(setup, "new_seed", new_seed)
    monkeypatch.setattr(simulate, "secrets", SimpleNamespace(token_hex=seed_for_test))
