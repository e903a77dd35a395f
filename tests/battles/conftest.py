"""Battle fixtures: a Rencounter campaign in the club, and its cast.

alice and bob each own a force in the campaign; olivia organises it; dave is another player in
it whose force does not fight; eve is a stranger to the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from rest_framework.test import APIClient

from battles import services
from battles.models import Battle
from battles.services import SideChoice
from campaigns.models import Campaign, Role
from rosters.models import Character, Force
from rules.system import get_system
from tests.consent import finish_agreed
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UserFactory,
)

SOLDIER = {
    "experience": 4,
    "fire": 7,
    "melee": 7,
    "armour": 1,
    "weapons": ["flintlock_musket", "sword"],
}


@dataclass
class Cast:
    campaign: Campaign
    alice: Any
    bob: Any
    olivia: Any
    dave: Any
    eve: Any
    red: Force
    blue: Force

    def client(self, user: Any) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client


def make_force(campaign: Campaign, owner: Any, name: str, size: int = 3) -> Force:
    force = ForceFactory(campaign=campaign, owner=owner, name=name)
    for i in range(size):
        CharacterFactory(
            force=force, name=f"{name} {i + 1}", stats=_stats({**SOLDIER, "fire": 6 + i % 6})
        )
    return force


def _stats(values: dict[str, Any]) -> dict[str, Any]:
    return get_system("rencounter").stats.validate(values)


def make_cast(size: int = 3) -> Cast:
    campaign = CampaignFactory(name="Brandywine", calendar_date=date(1777, 9, 11))
    users = {n: UserFactory(username=n) for n in ("alice", "bob", "olivia", "dave", "eve")}
    for name in ("alice", "bob", "dave"):
        MembershipFactory(user=users[name], campaign=campaign, role=Role.PLAYER)
    MembershipFactory(user=users["olivia"], campaign=campaign, role=Role.ORGANISER)
    red = make_force(campaign, users["alice"], "Red", size)
    blue = make_force(campaign, users["bob"], "Blue", size)
    make_force(campaign, users["dave"], "Grey", 1)
    return Cast(campaign, *users.values(), red=red, blue=blue)


@pytest.fixture
def cast(db: Any) -> Cast:
    return make_cast()


def start_battle(cast: Cast, **kwargs: Any) -> Battle:
    return services.battle_start(
        sides=[SideChoice(force=cast.red), SideChoice(force=cast.blue)],
        campaign=cast.campaign,
        scenario="Skirmish at the ford",
        user=cast.alice,
        **kwargs,
    )


@pytest.fixture
def battle(cast: Cast) -> Battle:
    return start_battle(cast)


def figure_of(battle: Battle, character: Character) -> Any:
    return battle.figures.get(character=character)


def fought_battle(cast: Cast, **kwargs: Any) -> Battle:
    """A battle entered after the fact: wounds, skills and a result, ready to finish."""
    battle = start_battle(cast, **kwargs)
    red, blue = (list(battle.figures.filter(side__index=i).order_by("pk")) for i in (0, 1))
    figures = [
        {"figure": red[0].pk, "skills_used": ["fire", "melee"], "kills": 1},
        {"figure": red[1].pk, "wounds": 1, "status": "wounded", "skills_used": ["experience"]},
        {"figure": blue[0].pk, "wounds": 3, "status": "wounded", "skills_used": ["fire"]},
        {"figure": blue[1].pk, "status": "dead"},
    ]
    sides = [
        {"side": s.pk, "result": r}
        for s, r in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    return services.battle_record_result(battle=battle, figures=figures, sides=sides)


def finished(cast: Cast, **kwargs: Any) -> Battle:
    """A fought battle, finished (its queued task is not run: on_commit never fires here)."""
    return finish_agreed(fought_battle(cast, **kwargs))
