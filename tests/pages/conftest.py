"""Page fixtures: a Rencounter campaign with alice's and bob's forces, sized on demand.

alice owns Red, bob owns Blue and plays against her, olivia organises the campaign, charlie is
a stranger to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest

from campaigns.models import Campaign, Role
from rosters.models import Force
from rules.system import get_system
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

SOLDIER = {
    "experience": 4,
    "fire": 7,
    "melee": 7,
    "armour": 1,
    "weapons": ["flintlock_musket", "sword"],
}


@dataclass(frozen=True)
class Muster:
    campaign: Campaign
    alice: Any
    bob: Any
    olivia: Any
    charlie: Any
    red: Force
    blue: Force


def soldier(**changes: Any) -> dict[str, Any]:
    return get_system("rencounter").stats.validate({**SOLDIER, **changes})


def add_figures(force: Force, count: int, units: int = 2) -> None:
    """Give the force `count` more characters spread over `units` new units."""
    first_unit, first_man = force.units.count() + 1, force.characters.count() + 1
    made = [
        UnitFactory(force=force, name=f"{force.name} unit {first_unit + i}") for i in range(units)
    ]
    for i in range(count):
        CharacterFactory(
            force=force,
            unit=made[i % units],
            name=f"{force.name} man {first_man + i}",
            stats=soldier(fire=6 + i % 5),
        )


def make_muster(size: int = 3) -> Muster:
    campaign = CampaignFactory(name="Brandywine", calendar_date=date(1777, 9, 11))
    alice, bob, olivia, charlie = (
        UserFactory(username=n) for n in ("alice", "bob", "olivia", "charlie")
    )
    for user, role in ((alice, Role.PLAYER), (bob, Role.PLAYER), (olivia, Role.ORGANISER)):
        MembershipFactory(user=user, campaign=campaign, role=role)
    red = ForceFactory(campaign=campaign, owner=alice, name="Red")
    blue = ForceFactory(campaign=campaign, owner=bob, name="Blue")
    add_figures(red, size)
    add_figures(blue, size)
    return Muster(campaign, alice, bob, olivia, charlie, red, blue)


@pytest.fixture
def muster(db) -> Muster:
    return make_muster()
