"""A battle keeps its campaign however it is set up, and its result cannot contradict itself.

alice owns Red, bob owns Blue, both in the Brandywine campaign (Rencounter) that olivia
organises; dave is a member; eve is a stranger.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client

from battles import services
from battles.models import Battle, BattleSide, SideResult
from battles.services import SideChoice
from tests.battles.conftest import Cast, start_battle
from tests.factories import CampaignFactory, CharacterFactory, ForceFactory

pytestmark = pytest.mark.django_db


def _page_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _set_up_on_the_page(cast: Cast, query: dict[str, Any]) -> Battle:
    """alice opens the setup page as a link leads there, picks bob's Blue and sets it up."""
    client = _page_client(cast.alice)
    assert client.get("/battles/new/", query).status_code == 200
    form = {
        **query,
        "side1": cast.red.pk,
        "side2": cast.blue.pk,
        "campaign_date": "",
        "characters1": [c.pk for c in cast.red.characters.all()],
        "characters2": [c.pk for c in cast.blue.characters.all()],
    }
    answer = client.post("/battles/new/", form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return Battle.objects.order_by("-pk").first()


# --- a battle keeps its campaign ----------------------------------------------------------------


@pytest.mark.parametrize(
    "link",
    ["force page", "home", "campaign page"],
)
def test_setting_up_from_any_page_gives_the_campaigns_battle(cast: Cast, link: str) -> None:
    query = {
        "force page": {"force": cast.red.pk},
        "home": {},
        "campaign page": {"campaign": cast.campaign.pk},
    }[link]

    battle = _set_up_on_the_page(cast, query)

    assert battle.campaign == cast.campaign
    assert battle.campaign_date == date(1777, 9, 11)


def test_the_api_with_campaign_null_gives_the_campaigns_battle(cast: Cast) -> None:
    body = {"campaign": None, "sides": [{"force": cast.red.pk}, {"force": cast.blue.pk}]}

    answer = cast.client(cast.bob).post("/api/battles/", body, format="json")

    assert answer.status_code == 201
    assert answer.json()["campaign"] == cast.campaign.pk
    assert answer.json()["campaign_date"] == "1777-09-11"


def test_a_member_and_the_organiser_see_a_battle_set_up_without_naming_the_campaign(
    cast: Cast,
) -> None:
    battle = services.battle_start(
        sides=[SideChoice(force=cast.red), SideChoice(force=cast.blue)], user=cast.bob
    )

    for user in (cast.dave, cast.olivia):
        assert _page_client(user).get(f"/battles/{battle.pk}/").status_code == 200
    assert _page_client(cast.eve).get(f"/battles/{battle.pk}/").status_code == 404
    assert battle in cast.campaign.battles.all()


def test_forces_of_different_systems_are_refused_by_name(cast: Cast) -> None:
    gridley = ForceFactory(owner=cast.alice, name="Gridley's Own", system="rencounter")
    saxons = ForceFactory(owner=cast.bob, name="The Saxons", system="game_the_90")
    for force in (gridley, saxons):
        CharacterFactory(force=force)

    with pytest.raises(ValidationError) as refused:
        services.battle_start(sides=[SideChoice(force=gridley), SideChoice(force=saxons)])

    assert "Gridley's Own plays Rencounter; The Saxons play Game the 90%" in str(refused.value)
    assert not Battle.objects.exists()


def test_the_opponent_list_offers_only_forces_that_can_fight(cast: Cast) -> None:
    stranger_campaign = CampaignFactory(name="Elsewhere", system="game_the_90")
    ForceFactory(owner=cast.bob, name="The Saxons", campaign=stranger_campaign)
    ForceFactory(owner=cast.bob, name="Loose Company")  # Rencounter, in no campaign

    page = _page_client(cast.alice).get("/battles/new/", {"force": cast.red.pk}).content.decode()
    opponents = page.split('id="side2"')[1].split("</select>")[0]

    assert "Blue" in opponents
    assert "The Saxons" not in opponents
    assert "Loose Company" not in opponents
    assert ">Red " not in opponents


# --- results that cannot contradict themselves ----------------------------------------------------


def _sides(battle: Battle) -> list[BattleSide]:
    return list(battle.sides.order_by("index"))


def _enter(battle: Battle, *results: tuple[str, int]) -> Battle:
    entries = [
        {"side": side.pk, "result": result, "victory_points": points}
        for side, (result, points) in zip(_sides(battle), results, strict=True)
    ]
    return services.battle_record_result(battle=battle, sides=entries)


def test_two_winners_are_refused_and_nothing_is_saved(cast: Cast) -> None:
    battle = start_battle(cast)
    figure = battle.figures.first()

    with pytest.raises(ValidationError, match="only one side can win: Red and Blue"):
        services.battle_record_result(
            battle=battle,
            figures=[{"figure": figure.pk, "status": "dead"}],
            sides=[{"side": s.pk, "result": "WIN"} for s in _sides(battle)],
        )

    assert [s.result for s in _sides(battle)] == [SideResult.UNDECIDED] * 2
    assert battle.figures.get(pk=figure.pk).final_status == ""


def test_the_database_keeps_one_winner_a_battle(cast: Cast) -> None:
    battle = start_battle(cast)
    BattleSide.objects.filter(battle=battle, index=0).update(result=SideResult.WIN)

    with pytest.raises(IntegrityError), transaction.atomic():
        BattleSide.objects.filter(battle=battle, index=1).update(result=SideResult.WIN)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ((("WIN", 0), ("DRAW", 0)), "a draw is a draw for every side"),
        ((("LOSS", 0), ("LOSS", 0)), "every side cannot lose"),
    ],
)
def test_contradicting_results_are_refused(cast: Cast, results: Any, message: str) -> None:
    battle = start_battle(cast)

    with pytest.raises(ValidationError, match=message):
        _enter(battle, *results)


def test_the_winner_can_change_sides(cast: Cast) -> None:
    battle = _enter(start_battle(cast), ("WIN", 0), ("LOSS", 0))

    _enter(battle, ("LOSS", 0), ("WIN", 0))

    assert [s.result for s in _sides(battle)] == [SideResult.LOSS, SideResult.WIN]


def test_a_finish_with_an_undecided_side_is_refused(cast: Cast) -> None:
    battle = start_battle(cast)
    services.battle_record_result(
        battle=battle, sides=[{"side": _sides(battle)[0].pk, "result": "WIN"}]
    )

    with pytest.raises(ValidationError, match="enter a result for Blue"):
        services.battle_finish(battle=battle, user=cast.olivia)


def _grits_battle() -> tuple[Battle, Any]:
    campaign = CampaignFactory(system="grits_and_glory")
    forces = [ForceFactory(campaign=campaign, name=n) for n in ("Marshals", "Outlaws")]
    for force in forces:
        CharacterFactory(force=force)
    battle = services.battle_start(sides=[SideChoice(force=f) for f in forces])
    return battle, forces


def test_victory_points_must_agree_with_the_result_where_the_system_scores_them(db: Any) -> None:
    battle, _ = _grits_battle()

    with pytest.raises(ValidationError, match="the winner scores the most"):
        _enter(battle, ("WIN", 2), ("LOSS", 5))
    with pytest.raises(ValidationError, match="a draw needs equal victory points"):
        _enter(battle, ("DRAW", 2), ("DRAW", 5))

    assert _enter(battle, ("WIN", 6), ("LOSS", 1)).pk == battle.pk


def test_victory_points_are_free_where_the_system_does_not_score_them(cast: Cast) -> None:
    battle = _enter(start_battle(cast), ("WIN", 2), ("LOSS", 5))

    assert [s.victory_points for s in _sides(battle)] == [2, 5]


def test_two_winners_through_the_api_and_the_page_are_a_clear_400(cast: Cast) -> None:
    battle = start_battle(cast)
    sides = _sides(battle)

    api = cast.client(cast.alice).post(
        f"/api/battles/{battle.pk}/result/",
        {"sides": [{"side": s.pk, "result": "WIN"} for s in sides]},
        format="json",
    )
    page = _page_client(cast.alice).post(
        f"/battles/{battle.pk}/result/", {f"result-{s.pk}": "WIN" for s in sides}
    )

    assert api.status_code == 400 and "only one side can win" in api.content.decode()
    assert page.status_code == 400 and "only one side can win" in page.content.decode()
    assert not battle.sides.filter(result=SideResult.WIN).exists()
