"""A small campaign for the fuzz run: ids 1, 2, 3... of most tables point at real rows."""

from __future__ import annotations

from typing import Any

from battles.services import SideChoice, battle_start
from campaigns.models import Role
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)


def seed_world() -> Any:
    """Create a campaign where the returned player owns a force and fights a battle."""
    player, rival = UserFactory(username="fuzzer"), UserFactory(username="rival")
    campaign = CampaignFactory(name="Fuzz Wars")
    MembershipFactory(user=player, campaign=campaign, role=Role.ORGANISER)
    MembershipFactory(user=rival, campaign=campaign, role=Role.PLAYER)
    forces = [ForceFactory(owner=u, campaign=campaign) for u in (player, rival)]
    for force in forces:
        unit = UnitFactory(force=force)
        for n in range(2):
            CharacterFactory(force=force, unit=unit, name=f"{force.name} trooper {n}")
    battle_start(
        sides=[SideChoice(force=f) for f in forces],
        campaign=campaign,
        scenario="Skirmish at the ford",
        campaign_date=None,
        options={},
        user=player,
    )
    return player
