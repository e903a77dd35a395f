"""A campaign's cards, rosters, packets and quick-reference sheet print under its house rules.

olivia organises a Game the 90% campaign whose club edits its missiles (the test house spec in
tests/house_rules_system.py); alice's bowmen carry bows, which version 1 makes 24" long (18"
as written).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from battles.services import SideChoice, battle_start
from campaigns.models import Campaign, Role
from campaigns.services.house_rules import house_rules_save
from printing.documents import cards_document
from printing.jobs import build_document
from printing.models import PrintJob
from rosters.models import Force
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UserFactory,
)
from tests.house_rules_system import pack
from tests.printing.pdfs import open_pdf, page_text

pytestmark = pytest.mark.django_db

BOWMEN = {"type": "bowmen", "missiles": "bows", "hits": 0, "out_of_missiles": False}
LONG_BOWS = pack(bows={"range": 24})


@dataclass
class Club:
    campaign: Campaign
    olivia: Any
    alice: Any
    force: Force
    other: Force

    def api(self, user: Any) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client


@pytest.fixture
def club(house_rules_system: Any) -> Club:
    campaign = CampaignFactory(name="Hastings", system="game_the_90", options={"die": "d6"})
    olivia, alice = UserFactory(username="olivia"), UserFactory(username="alice")
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    MembershipFactory(user=alice, campaign=campaign, role=Role.PLAYER)
    force = ForceFactory(campaign=campaign, owner=alice, name="Red")
    other = ForceFactory(campaign=campaign, owner=alice, name="Reserve")
    CharacterFactory(force=force, name="Bowmen of Kent", stats=BOWMEN)
    CharacterFactory(force=other, name="Bowmen of Essex", stats=BOWMEN)
    return Club(campaign, olivia, alice, force, other)


def _v1(club: Club) -> None:
    house_rules_save(campaign=club.campaign, document=LONG_BOWS, user=club.olivia)


def _text(response: Any) -> str:
    assert response.status_code == 200, response.content[:300]
    return " ".join(page_text(p) for p in open_pdf(response.content).pages)


def _cards(part: dict[str, Any]) -> list[Any]:
    return [card.spec for page in part["pages"] for card in page]


def _bows(document: Any) -> tuple[str, ...]:
    [card] = _cards(document.parts[0])
    [bows] = card.weapons
    return tuple(c.value for c in bows.columns)


def test_a_card_quotes_the_club_s_weapon_and_says_which_house_rules(club: Club) -> None:
    as_written = build_document(PrintJob.Kind.CARDS, {"force": club.force.pk}, club.alice)
    _v1(club)

    housed = build_document(PrintJob.Kind.CARDS, {"force": club.force.pk}, club.alice)

    assert _bows(as_written)[0] == "18" and _bows(housed)[0] == "24"
    [card] = _cards(housed.parts[0])
    assert card.footer.endswith("House rules v1")


def test_the_printed_cards_show_the_changed_range(club: Club) -> None:
    _v1(club)

    text = _text(club.api(club.alice).get(f"/api/forces/{club.force.pk}/cards.pdf"))

    assert "24" in text and "House rules v1" in text


def test_the_reference_sheet_marks_what_the_pack_changed_and_names_the_version(
    club: Club,
) -> None:
    _v1(club)
    url = f"/api/systems/game_the_90/reference.pdf?campaign={club.campaign.pk}"

    text = _text(club.api(club.alice).get(url))

    assert "House rules v1" in text
    assert "Shooting (Dx Hits) house rule" in text
    assert "Turn sequence house rule" not in text


def test_a_sheet_without_a_campaign_is_the_rules_as_written(club: Club) -> None:
    _v1(club)

    text = _text(club.api(club.alice).get("/api/systems/game_the_90/reference.pdf"))

    assert "house rule" not in text and "House rules v" not in text


def test_a_roster_names_the_house_rules(club: Club) -> None:
    _v1(club)

    text = _text(club.api(club.alice).get(f"/api/forces/{club.force.pk}/roster.pdf"))

    assert "House rules v1" in text and "24" in text


def test_a_battle_s_packet_prints_under_the_battle_s_version(club: Club) -> None:
    _v1(club)
    battle = battle_start(
        sides=[SideChoice(force=club.force), SideChoice(force=club.other)],
        campaign=club.campaign,
        user=club.alice,
    )
    house_rules_save(campaign=club.campaign, document=pack(bows={"range": 30}), user=club.olivia)

    document = build_document(
        PrintJob.Kind.PACKET,
        {"battle": battle.pk, "system": "game_the_90", "preset": "OL5275"},
        club.alice,
    )

    cards = [part for family, part in document.sections() if family == "cards"]
    weapons = [card.weapons[0] for part in cards for card in _cards(part)]
    assert {w.columns[0].value for w in weapons} == {"24"}  # v1's bows, not v2's 30"
    reference = next(part for family, part in document.sections() if family == "reference")
    assert reference["club_house_rules"] == "House rules v1"


def test_a_print_job_prints_the_version_it_was_asked_under(club: Club) -> None:
    _v1(club)
    params = {"force": club.force.pk, "house_rules": 1}
    house_rules_save(campaign=club.campaign, document=pack(bows={"range": 30}), user=club.olivia)

    document = build_document(PrintJob.Kind.CARDS, params, club.alice)

    assert _bows(document)[0] == "24"


def test_cards_without_house_rules_print_the_plain_footer(club: Club) -> None:
    from rules.system import get_system

    system = get_system("game_the_90")
    document = cards_document(system, [], {"die": "d6"}, size="poker", page="A4", blanks=1)

    [card] = _cards(document.parts[0])
    assert card.footer == system.name


# --- Game the 90%'s own editable tables (rules/systems/game_the_90/house.py) -----------------


@pytest.fixture
def g90(db: Any) -> Club:
    campaign = CampaignFactory(name="Maldon", system="game_the_90", options={"die": "d6"})
    olivia, alice = UserFactory(username="olivia"), UserFactory(username="alice")
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    MembershipFactory(user=alice, campaign=campaign, role=Role.PLAYER)
    force = ForceFactory(campaign=campaign, owner=alice, name="Red")
    other = ForceFactory(campaign=campaign, owner=alice, name="Reserve")
    CharacterFactory(force=force, name="Bowmen of Kent", stats=BOWMEN)
    return Club(campaign, olivia, alice, force, other)


def _longer_bows() -> dict[str, Any]:
    from rules import house
    from rules.system import get_system

    document = house.template(get_system("game_the_90"))
    [bows] = [row for row in document["tables"]["missiles"] if row["key"] == "bows"]
    bows["range"] = 24
    return document


def test_game_the_90_cards_and_sheet_print_under_its_own_house_rules(g90: Club) -> None:
    house_rules_save(campaign=g90.campaign, document=_longer_bows(), user=g90.olivia)

    card = build_document(PrintJob.Kind.CARDS, {"force": g90.force.pk}, g90.alice)
    sheet = _text(
        g90.api(g90.alice).get(f"/api/systems/game_the_90/reference.pdf?campaign={g90.campaign.pk}")
    )

    assert _bows(card)[0] == "24"
    assert "Shooting (Dx Hits) house rule" in sheet and "House rules v1" in sheet
    assert "Melee (Dx Hits) house rule" not in sheet
