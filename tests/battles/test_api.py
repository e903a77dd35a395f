"""The battle API: bad input answers 400/409 with a clear message and changes nothing;
permissions for the owner (alice), the other player (bob's opponent dave, who does not fight),
the organiser (olivia) and a stranger (eve)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle, BattleEvent
from tests.battles.conftest import Cast, finished, make_cast, start_battle


def _url(battle: Battle, action: str = "") -> str:
    return f"/api/battles/{battle.pk}/" + (f"{action}/" if action else "")


def _fire(battle: Battle, **overrides: Any) -> dict[str, Any]:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    return {
        "check": "fire",
        "actor": red.pk,
        "target": blue.pk,
        "params": {"skill": 7},
        **overrides,
    }


def _snapshot(battle: Battle) -> tuple[Any, ...]:
    return (
        list(battle.figures.order_by("pk").values_list("state", flat=True)),
        BattleEvent.objects.filter(battle=battle).count(),
        Battle.objects.get(pk=battle.pk).status,
    )


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"check": "parley"}, "check", "has no check 'parley'"),
        ({"target": 999999}, "target", "not in this battle"),
        ({"params": {"skill": 40}}, "params", "skill: must be at most 12"),
        ({"dice": [13, 1]}, "dice", "not a face of a d12"),
        ({"dice": [6]}, "dice", "not enough dice given"),
    ],
)
def test_a_bad_check_is_a_400_naming_the_problem_and_changes_nothing(
    cast: Cast, battle: Battle, overrides: dict, field: str, message: str
) -> None:
    before = _snapshot(battle)

    response = cast.client(cast.alice).post(
        _url(battle, "resolve"), _fire(battle, **overrides), format="json"
    )

    assert response.status_code == 400
    assert message in " ".join(response.json()[field])
    assert _snapshot(battle) == before


def test_finishing_twice_is_a_409(cast: Cast) -> None:
    battle = finished(cast)

    response = cast.client(cast.alice).post(_url(battle, "finish"))

    assert response.status_code == 409
    assert "already finished" in response.json()["detail"]


def test_finishing_without_a_result_is_a_400(cast: Cast, battle: Battle) -> None:
    response = cast.client(cast.alice).post(_url(battle, "finish"))

    assert response.status_code == 400
    assert "enter a result" in response.json()["sides"][0]
    assert Battle.objects.get(pk=battle.pk).status == "SETUP"


def test_editing_a_processed_battle_is_a_409_and_changes_nothing(cast: Cast) -> None:
    battle = finished(cast)
    services.battle_process(battle_id=battle.pk)
    before = _snapshot(battle)
    client = cast.client(cast.alice)

    answers = [
        client.post(_url(battle, "resolve"), _fire(battle), format="json"),
        client.post(_url(battle, "void")),
        client.post(_url(battle, "result"), {"sides": []}, format="json"),
    ]

    assert [a.status_code for a in answers] == [409, 409, 409]
    assert "processed" in answers[0].json()["detail"]
    assert _snapshot(battle) == before


def test_a_result_with_an_unknown_status_or_skill_is_a_400(cast: Cast, battle: Battle) -> None:
    figure = battle.figures.first()
    client = cast.client(cast.alice)

    bad_status = client.post(
        _url(battle, "result"),
        {"figures": [{"figure": figure.pk, "status": "sulking"}]},
        format="json",
    )
    bad_skill = client.post(
        _url(battle, "result"),
        {"figures": [{"figure": figure.pk, "skills_used": ["juggling"]}]},
        format="json",
    )
    bad_care = client.post(
        _url(battle, "result"),
        {"figures": [{"figure": figure.pk, "care": "prompt", "hazard": 2}]},
        format="json",
    )

    assert bad_status.status_code == bad_skill.status_code == bad_care.status_code == 400
    assert "sulking" in bad_status.json()["figures"][0]
    assert "juggling" in bad_skill.json()["figures"][0]
    assert "exclude each other" in bad_care.json()["figures"][0]
    assert battle.figures.get(pk=figure.pk).final_status == ""


@pytest.mark.parametrize(
    ("who", "read", "write"),
    [
        ("alice", 200, 201),  # owns a force in the battle
        ("olivia", 200, 201),  # organises the campaign
        ("dave", 200, 403),  # plays in the campaign, not in this battle
        ("eve", 404, 404),  # a stranger
    ],
)
def test_who_may_read_and_play_a_battle(
    cast: Cast, battle: Battle, who: str, read: int, write: int
) -> None:
    client = cast.client(getattr(cast, who))

    assert client.get(_url(battle)).status_code == read
    assert client.post(_url(battle, "resolve"), _fire(battle), format="json").status_code == write


def test_a_stranger_sees_no_battles_in_the_list(cast: Cast, battle: Battle) -> None:
    assert cast.client(cast.eve).get("/api/battles/").json()["count"] == 0
    assert cast.client(cast.dave).get("/api/battles/").json()["count"] == 1


def test_a_stranger_cannot_start_a_battle_with_forces_of_others(cast: Cast) -> None:
    body = {"sides": [{"force": cast.red.pk}, {"force": cast.blue.pk}]}

    response = cast.client(cast.eve).post("/api/battles/", body, format="json")

    assert response.status_code == 400
    assert not Battle.objects.exists()


def test_the_seed_is_secret_until_processed_but_its_hash_is_public(cast: Cast) -> None:
    battle = start_battle(cast)

    shown = cast.client(cast.alice).get(_url(battle)).json()

    assert shown["seed"] is None and shown["seed_sha256"] == battle.seed_sha256


def test_only_an_organiser_may_requeue_processing(cast: Cast) -> None:
    battle = finished(cast)

    assert cast.client(cast.dave).post(_url(battle, "requeue")).status_code == 403
    assert cast.client(cast.olivia).post(_url(battle, "requeue")).status_code == 202


def test_a_battle_detail_loads_the_battle_once(cast: Cast, django_assert_num_queries: Any) -> None:
    battle = start_battle(cast)
    client = cast.client(cast.alice)

    # the battle (scoped), its sides with their forces, its figures
    with django_assert_num_queries(3):
        assert client.get(_url(battle)).status_code == 200


def _queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_battle_pages_take_the_same_number_of_queries_at_two_sizes(db: Any) -> None:
    small, large = make_cast(size=2), make_cast(size=12)
    counts = []
    for cast in (small, large):
        battle = start_battle(cast)
        client = cast.client(cast.alice)
        counts.append((_queries(client, _url(battle)), _queries(client, "/api/battles/")))

    assert counts[0] == counts[1]


def test_each_event_in_the_api_carries_its_sentence_and_dice_in_words(
    cast: Cast, battle: Battle
) -> None:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    services.battle_resolve(
        battle=battle,
        check="melee",
        actor=red.pk,
        target=blue.pk,
        params={"attack_skill": 7, "parry_skill": 7},
        dice=[1, 12, 9],
    )

    events = cast.client(cast.alice).get(f"/api/battles/{battle.pk}/events/").json()["results"]

    assert events[0]["sentence"].startswith(red.name)
    assert blue.name in events[0]["sentence"]
    assert "d12: 1" in events[0]["dice_text"]
    assert "_" not in events[0]["sentence"] and "=" not in events[0]["sentence"]
