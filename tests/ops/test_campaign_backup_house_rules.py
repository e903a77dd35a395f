"""A campaign backup carries its house-rules versions and the version each battle played under.

olivia organises a Game the 90% campaign whose club edits its missiles (the test house spec in
tests/house_rules_system.py): version 1 adds a longbow, version 2 drops it. A battle fought
under version 1 must still audit after the campaign moves to another server.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle
from battles.services import SideChoice
from campaign_backup.campaign import campaign_export, campaign_import, documents_equal
from campaigns.models import Campaign, HouseRules, Role
from campaigns.services.house_rules import house_rules_save
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
LONGBOWS = pack(longbow={"range": 24, "volley": 3})


def _campaign(versions: int = 2, battles: int = 1) -> Campaign:
    campaign = CampaignFactory(system="game_the_90", options={"die": "d6"})
    olivia, alice, bob = (UserFactory() for _ in range(3))
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    red = ForceFactory(campaign=campaign, owner=alice, name="Red")
    blue = ForceFactory(campaign=campaign, owner=bob, name="Blue")
    for force in (red, blue):
        CharacterFactory(force=force, name=f"{force.name} bowmen", stats=BOWMEN)
    house_rules_save(campaign=campaign, document=LONGBOWS, user=olivia, note="longbows")
    for _ in range(battles):
        _fight(campaign, red, blue, alice)
    for volley in range(4, 4 + versions - 1):
        house_rules_save(campaign=campaign, document=pack(bows={"volley": volley}), user=olivia)
    return campaign


def _fight(campaign: Campaign, red: Any, blue: Any, user: Any) -> None:
    battle = services.battle_start(
        sides=[SideChoice(force=red), SideChoice(force=blue)], campaign=campaign, user=user
    )
    shooter, target = (battle.figures.get(side__index=i) for i in (0, 1))
    for _ in range(3):
        services.battle_resolve(
            battle=battle,
            check="volley",
            actor=shooter.pk,
            target=target.pk,
            params={"missile": "longbow"},
        )
    services.battle_record_result(
        battle=battle, sides=[{"side": s.pk, "result": "DRAW"} for s in battle.sides.all()]
    )
    finish_agreed(battle)
    services.battle_process(battle_id=battle.pk)


def _refused(document: dict[str, Any]) -> str:
    campaigns, versions = Campaign.objects.count(), HouseRules.objects.count()
    with pytest.raises(ValidationError) as refused:
        campaign_import(document=document, club_slug="restored")
    assert (Campaign.objects.count(), HouseRules.objects.count()) == (campaigns, versions)
    [message] = refused.value.message_dict["document"]
    return message


def test_the_versions_and_each_battle_s_version_round_trip(house_rules_system: Any) -> None:
    first = campaign_export(campaign=_campaign())

    restored = campaign_import(document=first, club_slug="restored")
    second = campaign_export(campaign=restored)

    assert [v["number"] for v in first["house_rules"]] == [1, 2]
    assert first["house_rules"][0]["note"] == "longbows"
    assert first["battles"][0]["house_rules"] == 1
    assert documents_equal(first, second)


def test_an_imported_battle_audits_under_the_version_it_was_played_under(
    house_rules_system: Any,
) -> None:
    restored = campaign_import(document=campaign_export(campaign=_campaign()), club_slug="new")
    battle = Battle.objects.get(campaign=restored)

    report = services.battle_audit(battle=battle)

    assert battle.house_rules.campaign == restored and battle.house_rules.number == 1
    assert report["house_rules"]["version"] == 1
    assert report["all_match"] and [e["matches"] for e in report["events"]] == [True] * 3


def test_a_pack_that_does_not_validate_is_refused_naming_its_path(
    house_rules_system: Any,
) -> None:
    document = campaign_export(campaign=_campaign())
    document["house_rules"][0]["document"]["tables"]["missiles"][2]["volley"] = 9

    assert _refused(document) == (
        "house_rules[0].document: table missiles, row 3, column volley: must be at most 6, not 9"
    )


def test_a_digest_that_is_not_its_pack_s_is_refused(house_rules_system: Any) -> None:
    document = campaign_export(campaign=_campaign())
    document["house_rules"][1]["digest"] = "0" * 16

    assert _refused(document).startswith("house_rules[1].digest: is not its pack's")


def test_a_battle_naming_a_missing_version_is_refused(house_rules_system: Any) -> None:
    document = campaign_export(campaign=_campaign())
    document["battles"][0]["house_rules"] = 7

    assert _refused(document) == "battles[0].house_rules: no house-rules version 7"


def test_a_version_listed_twice_is_refused(house_rules_system: Any) -> None:
    document = campaign_export(campaign=_campaign())
    document["house_rules"][1]["number"] = 1

    assert _refused(document) == "house_rules[1]: house-rules version 1 is listed twice"


def test_a_version_3_document_must_say_which_version_each_battle_played(
    house_rules_system: Any,
) -> None:
    document = campaign_export(campaign=_campaign())
    del document["battles"][0]["house_rules"]

    assert _refused(document) == "battles[0].house_rules: is missing"


def test_a_version_2_document_imports_as_the_rules_as_written(house_rules_system: Any) -> None:
    document = campaign_export(campaign=_campaign())
    older = copy.deepcopy(document)
    older["version"] = 2
    del older["house_rules"]
    for battle in older["battles"]:
        del battle["house_rules"]
        for event in battle["events"]:  # the rules as written have no longbow
            event["params"] = {"missile": "bows"}

    restored = campaign_import(document=older, club_slug="older")

    assert not restored.house_rules_versions.exists()
    assert Battle.objects.get(campaign=restored).house_rules is None


def _queries(work: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        work()
    return len(captured)


def test_the_backup_costs_the_same_queries_whatever_the_number_of_versions(
    house_rules_system: Any,
) -> None:
    few, many = _campaign(versions=1, battles=1), _campaign(versions=4, battles=3)

    exports = [_queries(lambda c=c: campaign_export(campaign=c)) for c in (few, many)]
    small, large = campaign_export(campaign=few), campaign_export(campaign=many)
    imports = (
        _queries(lambda: campaign_import(document=small, club_slug="few")),
        _queries(lambda: campaign_import(document=large, club_slug="many")),
    )

    assert len(set(exports)) == 1
    assert len(set(imports)) == 1
