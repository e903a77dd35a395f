"""`battle_access` answers as the querysets do, for every role and every kind of battle.

The pages read who a user is to a battle once per request (`battles.selectors.battle_access`)
instead of asking `battles_visible_to`, `battle_is_playable_by`, `referees` and
`sides_played_by` one by one. This is an exhaustive matrix: every role below against every
kind of battle, with the battle loaded as the pages load it and loaded plain, and the answers
compared with the querysets the lists and the API keep using.

The club: Kingsbridge (admin kate) runs Brandywine (olivia organises; alice, bob, dave play);
Lakeside (admin lars) runs Monmouth (oscar organises, gina plays). carl sets battles up
without playing; lone owns a force outside any campaign; eve is a stranger; root a superuser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.selectors import (
    BattleAccess,
    battle_access,
    battle_is_playable_by,
    battles_visible_to,
    referees,
    sides_played_by,
    with_access,
)
from battles.services import SideChoice, battle_start
from campaigns.models import Role
from campaigns.selectors import campaigns_managed_by
from pages.selectors import battle_with_sides
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ClubFactory,
    ForceFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ROLES = (
    "root",  # a superuser
    "kate",  # admin of Brandywine's club
    "lars",  # admin of Monmouth's club
    "olivia",  # organises Brandywine
    "oscar",  # organises Monmouth
    "alice",  # plays Red (Brandywine)
    "bob",  # plays Blue (Brandywine)
    "dave",  # a Brandywine player whose force does not fight
    "gina",  # plays Green (Monmouth)
    "lone",  # plays Stray, a force outside any campaign
    "carl",  # sets the battles up, plays none of them
    "eve",  # a stranger
    "anonymous",
)
#: (name, the two forces, one phone): Red v Blue is Brandywine's battle; the others are
#: friendly battles outside any campaign, their forces in two campaigns, one or none.
KINDS = (
    ("campaign, one phone", ("red", "blue"), True),
    ("campaign, own phones", ("red", "blue"), False),
    ("friendly across campaigns, own phones", ("red", "green"), False),
    ("friendly across campaigns, one phone", ("red", "green"), True),
    ("friendly with a stray force", ("stray", "green"), False),
    ("friendly, a stray force first", ("stray", "red"), True),
)


@dataclass
class World:
    users: dict[str, Any]
    battles: dict[str, Battle]


def _force(campaign: Any, owner: Any, name: str) -> Any:
    force = ForceFactory(campaign=campaign, owner=owner, name=name)
    CharacterFactory(force=force, name=f"{name} 1")
    return force


def _world() -> World:
    users = {name: UserFactory(username=name) for name in ROLES if name != "anonymous"}
    users["root"].is_superuser = True
    users["root"].save()
    users["anonymous"] = AnonymousUser()
    brandywine = CampaignFactory(name="Brandywine", club=ClubFactory(admins=[users["kate"]]))
    monmouth = CampaignFactory(name="Monmouth", club=ClubFactory(admins=[users["lars"]]))
    for name, campaign, role in (
        ("olivia", brandywine, Role.ORGANISER),
        ("alice", brandywine, Role.PLAYER),
        ("bob", brandywine, Role.PLAYER),
        ("dave", brandywine, Role.PLAYER),
        ("oscar", monmouth, Role.ORGANISER),
        ("gina", monmouth, Role.PLAYER),
    ):
        MembershipFactory(user=users[name], campaign=campaign, role=role)
    forces = {
        "red": _force(brandywine, users["alice"], "Red"),
        "blue": _force(brandywine, users["bob"], "Blue"),
        "green": _force(monmouth, users["gina"], "Green"),
        "stray": _force(None, users["lone"], "Stray"),
    }
    _force(brandywine, users["dave"], "Grey")
    battles = {
        name: battle_start(
            sides=[SideChoice(force=forces[a]), SideChoice(force=forces[b])],
            user=users["carl"],
            one_phone=one_phone,
        )
        for name, (a, b), one_phone in KINDS
    }
    return World(users, battles)


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """One world for the whole matrix (made once, removed after the module)."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            made = _world()
            yield made
            transaction.set_rollback(True)


def _expected(battle: Battle, user: Any) -> BattleAccess:
    """The answers of the querysets, written out from them alone."""
    managed = campaigns_managed_by(user)
    referee = user.is_superuser or (
        battle.campaign_id is not None and managed.filter(pk=battle.campaign_id).exists()
    )
    if not user.is_authenticated:
        sides: frozenset[int] | None = frozenset()
    elif battle.one_phone or referee:
        sides = None
    else:
        owned = battle.sides.filter(force__owner_id=user.pk)
        sides = frozenset(owned.values_list("index", flat=True))
    return BattleAccess(
        sees=battles_visible_to(user).filter(pk=battle.pk).exists(),
        plays=battle_is_playable_by(battle, user),
        referees=referee,
        sides=sides,
    )


def _as_the_pages_load_it(battle: Battle, user: Any) -> Battle:
    return battle_with_sides(with_access(Battle.objects.filter(pk=battle.pk), user)).get()


MATRIX = [(kind[0], role) for kind in KINDS for role in ROLES]


@pytest.mark.parametrize(("kind", "role"), MATRIX)
def test_the_access_agrees_with_the_querysets(world: World, kind: str, role: str) -> None:
    user, battle = world.users[role], world.battles[kind]
    expected = _expected(battle, user)

    loaded = _as_the_pages_load_it(battle, user)
    with CaptureQueriesContext(connection) as read:
        access = battle_access(loaded, user)
    plain = battle_access(battle_with_sides(Battle.objects.filter(pk=battle.pk)).get(), user)

    assert access == expected
    assert plain == expected
    # Loaded as the pages load it, a campaign's battle costs nothing more; a friendly battle
    # at most one query (does the user organise a side's campaign?).
    assert len(read) <= (0 if battle.campaign_id else 1)


@pytest.mark.parametrize(("kind", "role"), MATRIX)
def test_the_rewritten_referee_and_sides_agree_with_the_querysets(
    world: World, kind: str, role: str
) -> None:
    user, battle = world.users[role], world.battles[kind]
    expected = _expected(battle, user)
    unloaded = Battle.objects.get(pk=battle.pk)

    assert referees(unloaded, user) == expected.referees
    assert sides_played_by(Battle.objects.get(pk=battle.pk), user) == expected.sides
    assert sides_played_by(_as_the_pages_load_it(battle, user), user) == expected.sides


@pytest.mark.parametrize("role", ROLES)
def test_a_battle_loaded_for_one_user_answers_rightly_for_another(world: World, role: str) -> None:
    """The annotations belong to the user they were made for: nobody borrows another's."""
    user = world.users[role]
    for battle in world.battles.values():
        loaded_for_olivia = _as_the_pages_load_it(battle, world.users["olivia"])

        assert battle_access(loaded_for_olivia, user) == _expected(battle, user)
        assert referees(loaded_for_olivia, user) == _expected(battle, user).referees


def test_the_matrix_holds_every_answer(world: World) -> None:
    """The roles and kinds above reach each answer both ways, so the agreement means something."""
    answers = [_expected(world.battles[kind], world.users[role]) for kind, role in MATRIX]

    for field in ("sees", "plays", "referees"):
        assert {getattr(a, field) for a in answers} == {True, False}, field
    assert {a.sides for a in answers} >= {None, frozenset(), frozenset({0}), frozenset({1})}
    friendly_organiser = _expected(
        world.battles["friendly across campaigns, own phones"], world.users["oscar"]
    )
    assert friendly_organiser == BattleAccess(True, True, False, frozenset())
