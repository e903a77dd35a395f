"""`/api/campaigns/{id}/house-rules/`: members read, organisers save versions and preview odds.

alice owns a force in olivia's Game the 90% campaign, bob is another player in it, olivia
organises it, charlie is a stranger; the club edits its missiles (tests/house_rules_system.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign, HouseRules, Role
from tests.factories import CampaignFactory, ForceFactory, MembershipFactory, UserFactory
from tests.house_rules_system import pack

pytestmark = pytest.mark.django_db

LONGBOWS = pack(longbow={"range": 24, "volley": 3})


@dataclass
class Club:
    campaign: Campaign
    alice: Any
    bob: Any
    olivia: Any
    charlie: Any

    def api(self, user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    @property
    def url(self) -> str:
        return f"/api/campaigns/{self.campaign.pk}/house-rules/"


@pytest.fixture
def club(house_rules_system: Any) -> Club:
    campaign = CampaignFactory(name="Hastings", system="game_the_90", options={"die": "d6"})
    alice, bob, olivia, charlie = (
        UserFactory(username=n) for n in ("alice", "bob", "olivia", "charlie")
    )
    for user, role in ((alice, Role.PLAYER), (bob, Role.PLAYER), (olivia, Role.ORGANISER)):
        MembershipFactory(user=user, campaign=campaign, role=role)
    ForceFactory(campaign=campaign, owner=alice, name="Red")
    return Club(campaign, alice, bob, olivia, charlie)


def _save(club: Club, document: dict[str, Any], note: str = "", method: str = "put") -> Any:
    call = getattr(club.api(club.olivia), method)
    return call(club.url, {"document": document, "note": note}, format="json")


# --- reading --------------------------------------------------------------------------------


def test_a_member_reads_the_template_before_any_house_rules(club: Club) -> None:
    body = club.api(club.alice).get(club.url).json()

    assert body["version"] is None and body["digest"] is None
    assert body["document"]["tables"]["missiles"][0] == {"key": "bows", "range": 18, "volley": 4}
    assert [t["name"] for t in body["schema"]["tables"]] == ["missiles"]
    assert body["versions"] == [] and body["changes"] == []


@pytest.mark.parametrize(
    ("actor", "code"), [("alice", 200), ("bob", 200), ("olivia", 200), ("charlie", 404)]
)
def test_who_may_read_the_house_rules(club: Club, actor: str, code: int) -> None:
    assert club.api(getattr(club, actor)).get(club.url).status_code == code


def test_anonymous_callers_are_refused(club: Club) -> None:
    assert club.api(None).get(club.url).status_code in (401, 403)
    assert club.api(None).put(club.url, {"document": LONGBOWS}, format="json").status_code in (
        401,
        403,
    )


def test_the_answer_lists_versions_and_what_each_changed(club: Club) -> None:
    _save(club, LONGBOWS, "longbows for the fyrd")
    _save(club, pack(longbow={"range": 24, "volley": 3}, bows={"range": 20}))

    body = club.api(club.bob).get(club.url).json()

    assert body["version"] == 2
    assert [v["number"] for v in body["versions"]] == [2, 1]
    assert body["versions"][1]["note"] == "longbows for the fyrd"
    assert body["versions"][0]["created_by_name"] == "olivia"
    assert body["changes"] == ['Missiles, bows: Range " 18 → 20']
    assert "Missiles: added longbow" in body["changes_from_rules_as_written"]


# --- saving ---------------------------------------------------------------------------------


def test_an_organiser_saves_a_pack_as_version_one(club: Club) -> None:
    response = _save(club, LONGBOWS, "longbows")

    assert response.status_code == 201
    assert response.json()["version"] == 1
    saved = HouseRules.objects.get(campaign=club.campaign)
    assert (saved.number, saved.note, saved.created_by) == (1, "longbows", club.olivia)


@pytest.mark.parametrize("method", ["put", "post"])
def test_saving_the_same_pack_twice_makes_one_version(club: Club, method: str) -> None:
    first = _save(club, LONGBOWS, method=method)
    second = _save(club, LONGBOWS, method=method)

    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["version"] == 1
    assert HouseRules.objects.filter(campaign=club.campaign).count() == 1


@pytest.mark.parametrize("actor", ["alice", "bob"])
def test_a_player_may_not_save_house_rules(club: Club, actor: str) -> None:
    response = club.api(getattr(club, actor)).put(club.url, {"document": LONGBOWS}, format="json")

    assert response.status_code == 403
    assert not HouseRules.objects.exists()


def test_a_stranger_may_not_learn_the_campaign_exists(club: Club) -> None:
    response = club.api(club.charlie).put(club.url, {"document": LONGBOWS}, format="json")

    assert response.status_code == 404
    assert not HouseRules.objects.exists()


def test_a_bad_cell_is_named_and_nothing_is_written(club: Club) -> None:
    bad = pack(longbow={"range": 24, "volley": 9})

    response = _save(club, bad)

    assert response.status_code == 400
    body = response.json()
    assert (body["table"], body["row"], body["column"]) == ("missiles", 2, "volley")
    assert body["detail"] == "table missiles, row 3, column volley: must be at most 6, not 9"
    assert not HouseRules.objects.exists()


def test_a_pack_for_another_system_is_refused(club: Club) -> None:
    response = _save(club, {**LONGBOWS, "system": "rencounter"})

    assert response.status_code == 400
    assert "not 'game_the_90'" in response.json()["detail"]


def test_a_campaign_whose_system_has_no_editable_tables_says_so(
    club: Club, monkeypatch: Any
) -> None:
    from rules import system as registry

    plain = replace(registry.get_system("game_the_90"), house_from="")
    monkeypatch.setitem(registry._REGISTRY, "game_the_90", plain)

    read = club.api(club.alice).get(club.url).json()
    write = _save(club, LONGBOWS)

    assert read["document"] is None and read["schema"] is None
    assert write.status_code == 400 and "no editable tables" in write.json()["detail"]


def test_a_long_note_is_refused(club: Club) -> None:
    response = _save(club, LONGBOWS, "x" * 201)

    assert response.status_code == 400 and "note" in response.json()
    assert not HouseRules.objects.exists()


def test_saving_is_throttled_as_a_write(club: Club, settings: Any) -> None:
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "writes": "1/minute"}

    assert _save(club, LONGBOWS).status_code == 201
    assert _save(club, pack(bows={"range": 20})).status_code == 429


# --- preview and export ---------------------------------------------------------------------


def test_an_organiser_previews_the_odds_an_edit_changes(club: Club) -> None:
    _save(club, LONGBOWS)
    edit = pack(longbow={"range": 24, "volley": 5})

    response = club.api(club.olivia).post(f"{club.url}preview/", {"document": edit}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["before_version"] == 1
    assert body["changes"] == ["Missiles, longbow: Volley hits on 3 → 5"]
    [longbow] = body["comparisons"]
    assert longbow["before"]["exact"] == {"hit": "2/3", "miss": "1/3"}
    assert longbow["after"]["exact"] == {"hit": "1/3", "miss": "2/3"}
    assert longbow["after"]["outcomes"]["hit"] == pytest.approx(1 / 3)
    assert HouseRules.objects.count() == 1  # a preview saves nothing


def test_a_new_missile_has_no_odds_before_the_edit(club: Club) -> None:
    response = club.api(club.olivia).post(
        f"{club.url}preview/", {"document": LONGBOWS}, format="json"
    )

    [longbow] = response.json()["comparisons"]
    assert longbow["before"] is None and longbow["after"]["exact"]["hit"] == "2/3"


def test_a_player_may_not_preview(club: Club) -> None:
    response = club.api(club.bob).post(f"{club.url}preview/", {"document": LONGBOWS}, format="json")

    assert response.status_code == 403


def test_a_bad_preview_names_its_cell(club: Club) -> None:
    response = club.api(club.olivia).post(
        f"{club.url}preview/", {"document": pack(bows={"range": 0})}, format="json"
    )

    assert response.status_code == 400
    assert (response.json()["row"], response.json()["column"]) == (0, "range")


def test_a_member_exports_a_version_as_a_pack(club: Club) -> None:
    _save(club, LONGBOWS)
    _save(club, pack(bows={"range": 20}))

    response = club.api(club.bob).get(f"{club.url}versions/1/")

    assert response.status_code == 200
    assert response.json() == LONGBOWS
    assert 'filename="' in response["Content-Disposition"]


@pytest.mark.parametrize(("actor", "number"), [("alice", 7), ("charlie", 1)])
def test_a_missing_version_or_a_stranger_gets_404(club: Club, actor: str, number: int) -> None:
    _save(club, LONGBOWS)

    response = club.api(getattr(club, actor)).get(f"{club.url}versions/{number}/")

    assert response.status_code == 404


def test_reading_the_house_rules_costs_the_same_queries_with_more_versions(
    club: Club, django_assert_max_num_queries: Any
) -> None:
    for volley in (3, 4, 5, 6):
        _save(club, pack(longbow={"range": 24, "volley": volley}))

    with django_assert_max_num_queries(8):
        assert club.api(club.alice).get(club.url).status_code == 200


def test_the_schema_documents_the_house_rules_endpoints(club: Club) -> None:
    schema = club.api(club.alice).get("/api/schema/?format=json").json()

    paths = schema["paths"]
    assert set(paths["/api/campaigns/{id}/house-rules/"]) >= {"get", "put", "post"}
    assert "post" in paths["/api/campaigns/{id}/house-rules/preview/"]
    assert "get" in paths["/api/campaigns/{id}/house-rules/versions/{number}/"]
