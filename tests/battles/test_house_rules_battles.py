"""A battle is played, priced and audited under the house-rules version it was set up under.

olivia organises a Game the 90% campaign whose club edits its missiles (the test house spec in
tests/house_rules_system.py); alice's bowmen loose volleys at bob's serjeants. Version 1 adds
a longbow that hits on 3+; version 2 drops it and makes bows hit only on a 6.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from battles import services
from battles.models import Battle
from battles.selectors import rules_for_battle
from battles.services import SideChoice
from campaigns.models import Campaign, HouseRules, Role
from campaigns.services.house_rules import house_rules_save
from rosters.models import Force
from tests.consent import finish_agreed
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UserFactory,
)
from tests.house_rules_system import pack

pytestmark = pytest.mark.django_db

BOWMEN = {"type": "bowmen", "missiles": "bows", "hits": 0, "out_of_missiles": False}
SERJEANTS = {"type": "serjeants", "missiles": "none", "hits": 0, "out_of_missiles": False}


@dataclass
class Club:
    campaign: Campaign
    olivia: Any
    alice: Any
    bob: Any
    red: Force
    blue: Force


@pytest.fixture
def club(house_rules_system: Any) -> Club:
    campaign = CampaignFactory(name="Hastings", system="game_the_90", options={"die": "d6"})
    olivia, alice, bob = (UserFactory(username=n) for n in ("olivia", "alice", "bob"))
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    red = ForceFactory(campaign=campaign, owner=alice, name="Red")
    blue = ForceFactory(campaign=campaign, owner=bob, name="Blue")
    for n in range(2):
        CharacterFactory(force=red, name=f"Bowmen {n + 1}", stats=BOWMEN)
        CharacterFactory(force=blue, name=f"Serjeants {n + 1}", stats=SERJEANTS)
    return Club(campaign, olivia, alice, bob, red, blue)


def _v1(club: Club) -> HouseRules:
    longbows = pack(longbow={"range": 24, "volley": 3})
    return house_rules_save(campaign=club.campaign, document=longbows, user=club.olivia)


def _v2(club: Club) -> HouseRules:
    return house_rules_save(
        campaign=club.campaign, document=pack(bows={"volley": 6}), user=club.olivia
    )


def _start(club: Club) -> Battle:
    return services.battle_start(
        sides=[SideChoice(force=club.red), SideChoice(force=club.blue)],
        campaign=club.campaign,
        scenario="The ridge",
        user=club.alice,
    )


def _volleys(battle: Battle, missile: str, count: int) -> None:
    shooter = battle.figures.filter(side__index=0).first()
    target = battle.figures.filter(side__index=1).first()
    for _ in range(count):
        services.battle_resolve(
            battle=battle,
            check="volley",
            actor=shooter.pk,
            target=target.pk,
            params={"missile": missile},
        )


def _processed(battle: Battle) -> Battle:
    services.battle_record_result(
        battle=battle, sides=[{"side": s.pk, "result": "DRAW"} for s in battle.sides.all()]
    )
    finish_agreed(battle)
    services.battle_process(battle_id=battle.pk)
    return Battle.objects.get(pk=battle.pk)


def _odds_page(client: Client, battle: Battle, missile: str) -> str:
    response = client.get(f"/battles/{battle.pk}/odds/", {"check": "volley", "missile": missile})
    assert response.status_code == 200
    return response.content.decode()


def test_a_battle_records_the_house_rules_its_campaign_plays_under(club: Club) -> None:
    as_written = _start(club)
    v1 = _v1(club)

    under_v1 = _start(club)

    assert as_written.house_rules is None
    assert under_v1.house_rules == v1
    assert "longbow" in rules_for_battle(under_v1).check("volley").params.fields[0].choice_values()


def test_a_battle_outside_a_campaign_plays_the_rules_as_written(club: Club) -> None:
    _v1(club)
    Force.objects.filter(pk=club.blue.pk).update(campaign=None)  # a friendly from outside
    club.blue.refresh_from_db()
    battle = services.battle_start(
        sides=[SideChoice(force=club.red), SideChoice(force=club.blue)], user=club.alice
    )

    assert battle.campaign is None
    assert battle.house_rules is None
    assert rules_for_battle(battle).pack is None


def test_two_forces_of_a_campaign_play_its_house_rules_when_no_campaign_is_named(
    club: Club,
) -> None:
    v1 = _v1(club)
    battle = services.battle_start(
        sides=[SideChoice(force=club.red), SideChoice(force=club.blue)], user=club.alice
    )

    assert battle.campaign == club.campaign
    assert battle.house_rules == v1


def test_a_battle_under_v1_keeps_v1_odds_and_its_audit_after_the_pack_becomes_v2(
    club: Club, client: Client
) -> None:
    v1 = _v1(club)
    battle = _start(club)
    _volleys(battle, "longbow", 6)
    v2 = _v2(club)
    client.force_login(club.alice)

    old_odds = _odds_page(client, battle, "longbow")
    processed = _processed(battle)
    report = services.battle_audit(battle=processed)

    assert "2/3" in old_odds  # a longbow hits on 3+ under v1, though v2 has no longbow at all
    assert "house rules v1" in old_odds
    assert report["house_rules"] == {"version": v1.number, "digest": v1.digest}
    assert report["all_match"] and [e["matches"] for e in report["events"]] == [True] * 6
    assert v2.number == 2


def test_the_audit_fails_when_rolls_are_re_derived_under_another_version(club: Club) -> None:
    _v1(club)
    battle = _start(club)
    _volleys(battle, "longbow", 2)
    v2 = _v2(club)
    processed = _processed(battle)
    Battle.objects.filter(pk=processed.pk).update(house_rules=v2)

    report = services.battle_audit(battle=Battle.objects.get(pk=processed.pk))

    assert report["all_match"] is False
    assert all(e["matches"] is False for e in report["events"])  # v2 has no longbow


def test_a_new_battle_plays_under_the_newest_version(club: Club, client: Client) -> None:
    _v1(club)
    first = _start(club)
    v2 = _v2(club)
    client.force_login(club.alice)

    second = _start(club)

    assert second.house_rules == v2
    assert "1/6" in _odds_page(client, second, "bows")  # bows hit only on a 6 under v2
    assert "1/2" in _odds_page(client, first, "bows")  # as written: 4+
    with pytest.raises(ValidationError, match="longbow"):
        _volleys(second, "longbow", 1)


def test_the_table_assistant_offers_the_missile_the_club_added(club: Club, client: Client) -> None:
    _v1(club)
    battle = _start(club)
    client.force_login(club.alice)

    page = client.get(f"/battles/{battle.pk}/", {"check": "volley"}).content.decode()

    assert 'value="longbow"' in page
    assert "house rules v1" in page


def test_the_battle_api_says_which_version_a_battle_plays_under(club: Club) -> None:
    from rest_framework.test import APIClient

    v1 = _v1(club)
    battle = _start(club)
    api = APIClient()
    api.force_authenticate(club.alice)

    body = api.get(f"/api/battles/{battle.pk}/").json()

    assert body["house_rules"] == {"version": 1, "digest": v1.digest}


# --- Game the 90%'s own editable tables (rules/systems/game_the_90/house.py) -----------------


def _blunter_bowmen(modifier: int) -> dict[str, Any]:
    from rules import house
    from rules.system import get_system

    document = house.template(get_system("game_the_90"))
    [bowmen] = [row for row in document["tables"]["unit_types"] if row["key"] == "bowmen"]
    bowmen["shooting_modifier"] = modifier
    return document


def test_a_game_the_90_battle_shoots_by_the_unit_table_it_was_set_up_under(db: Any) -> None:
    from rules.system import get_system

    campaign = CampaignFactory(name="Maldon", system="game_the_90", options={"die": "d6"})
    olivia, alice, bob = (UserFactory(username=n) for n in ("olivia", "alice", "bob"))
    red = ForceFactory(campaign=campaign, owner=alice, name="Red")
    blue = ForceFactory(campaign=campaign, owner=bob, name="Blue")
    CharacterFactory(force=red, name="Bowmen", stats=BOWMEN)
    CharacterFactory(force=blue, name="Serjeants", stats=SERJEANTS)
    club = Club(campaign, olivia, alice, bob, red, blue)
    v1 = house_rules_save(campaign=campaign, document=_blunter_bowmen(-2), user=olivia)
    battle = _start(club)
    shooter, target = (battle.figures.get(side__index=i) for i in (0, 1))
    shot = {"shooter": "bowmen", "target": "serjeants", "die": "d6"}
    for _ in range(4):
        services.battle_resolve(
            battle=battle, check="shoot", actor=shooter.pk, target=target.pk, params=shot
        )
    house_rules_save(campaign=campaign, document=_blunter_bowmen(-1), user=olivia)

    report = services.battle_audit(battle=_processed(battle))
    odds = rules_for_battle(battle).check("shoot").odds(shot).probabilities

    assert report["house_rules"]["version"] == v1.number and report["all_match"]
    as_written = get_system("game_the_90").check("shoot").odds(shot).probabilities
    assert as_written["hits_6_out_of_missiles"] == Fraction(1, 6)  # a natural 6
    assert odds["hits_6_out_of_missiles"] == 0  # v1: a 6, -2
    assert odds["hits_4_out_of_missiles"] == Fraction(1, 6)
    assert all(e["matches"] for e in report["events"])
