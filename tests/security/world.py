"""The five actors of the permission tests, and the objects they reach for.

alice owns the force (and a second one, so her battle needs nobody else); bob is another
player of the same campaign; olivia organises it; oscar organises another campaign (a
stranger here, but a real organiser elsewhere, with admin rights there); anonymous is nobody.
dave is alice's opponent in the league pairing, so bob is in neither the battle nor the game.
The campaign has one webhook, olivia's to manage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.services import SideChoice, battle_start
from campaigns.models import HouseRules, Membership, Role
from campaigns.services.house_rules import house_rules_save
from league.models import Pairing, Round
from notices.models import Webhook
from printing.models import PrintJob
from rules import house
from rules.system import get_system
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

ACTORS = ("owner", "player", "organiser", "other_organiser", "anonymous")


@dataclass(frozen=True)
class World:
    users: dict[str, Any]
    campaign: Any
    force: Any
    second_force: Any
    unit: Any
    character: Any
    battle: Any
    membership: Any
    round: Any
    pairing: Any
    print_job: Any
    other_campaign: Any
    webhook: Any

    def user(self, actor: str) -> Any:
        return self.users.get(actor)


def _league(campaign: Any, home: Membership, away: Membership) -> tuple[Round, Pairing]:
    round_ = Round.objects.create(campaign=campaign, number=1)
    return round_, Pairing.objects.create(round=round_, home=home, away=away)


def _house_rules(campaign: Any, organiser: Any) -> None:
    """Version 1 of the campaign's house rules: the template, or an empty pack for a system
    with no editable tables (the rules as written either way)."""
    system = get_system(campaign.system)
    if system.house is not None:
        house_rules_save(campaign=campaign, document=house.template(system), user=organiser)
        return
    document = house.pack_document(system.key, {})
    HouseRules.objects.create(campaign=campaign, number=1, document=document, digest="")


def build_world() -> World:
    """Create the campaign, its people and one of each object the API and admin expose."""
    names = ("alice", "bob", "olivia", "oscar", "dave")
    alice, bob, olivia, oscar, dave = (UserFactory(username=n) for n in names)
    campaign = CampaignFactory(name="The Thirty Years' War")
    other = CampaignFactory(name="The Hundred Years' War")
    roles = (
        (alice, Role.PLAYER),
        (bob, Role.PLAYER),
        (dave, Role.PLAYER),
        (olivia, Role.ORGANISER),
    )
    members = {u.username: MembershipFactory(user=u, campaign=campaign, role=r) for u, r in roles}
    MembershipFactory(user=oscar, campaign=other, role=Role.ORGANISER)
    force = ForceFactory(owner=alice, campaign=campaign, name="Gridley's Company")
    second = ForceFactory(owner=alice, campaign=campaign, name="Gridley's Reserve")
    ForceFactory(owner=bob, campaign=campaign, name="Bob's Band")
    unit = UnitFactory(force=force, name="Musketeers")
    character = CharacterFactory(force=force, unit=unit, name="Sgt. Gridley")
    CharacterFactory(force=second, name="Cpl. Reserve")
    battle = battle_start(
        sides=[SideChoice(force=force), SideChoice(force=second)],
        campaign=campaign,
        scenario="The ford",
        user=alice,
    )
    _house_rules(campaign, olivia)
    round_, pairing = _league(campaign, members["alice"], members["dave"])
    job = PrintJob.objects.create(
        kind=PrintJob.Kind.ROSTER,
        parameters={"force": force.pk},
        idempotency_key="world-job",
        created_by=alice,
    )
    webhook = Webhook.objects.create(
        campaign=campaign, name="Gridley's hook", url="https://chat.example.org/hook"
    )
    users = {
        "owner": alice,
        "player": bob,
        "organiser": olivia,
        "other_organiser": oscar,
        "anonymous": None,
    }
    return World(
        users,
        campaign,
        force,
        second,
        unit,
        character,
        battle,
        members["alice"],
        round_,
        pairing,
        job,
        other,
        webhook,
    )
