"""The battle admin: read-only log and ledger, result entry through the services, requeue."""

from __future__ import annotations

from typing import Any

from django.test import Client

from battles.models import Battle, BattleStatus
from battles.services import battle_process
from tests.battles.conftest import Cast, finished
from tests.factories import UserFactory


def _admin_client() -> Client:
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def _result_post(battle: Battle) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for figure in battle.figures.all():
        prefix = f"f{figure.pk}-"
        data |= {
            prefix + "figure": figure.pk,
            prefix + "wounds": 0,
            prefix + "status": "unhurt",
            prefix + "kills": 0,
        }
    for side, result in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True):
        data |= {
            f"s{side.pk}-side": side.pk,
            f"s{side.pk}-result": result,
            f"s{side.pk}-victory_points": 2,
        }
    first = battle.figures.order_by("pk").first()
    data |= {
        f"f{first.pk}-wounds": 2,
        f"f{first.pk}-status": "wounded",
        f"f{first.pk}-skills_used": ["fire"],
    }
    return data


def test_the_admin_shows_a_battle_with_its_log_and_ledger(battle: Battle) -> None:
    response = _admin_client().get(f"/admin/battles/battle/{battle.pk}/change/")

    assert response.status_code == 200
    assert b"Enter result" in response.content and b"(secret)" in response.content


def test_the_admin_result_form_enters_the_result_through_the_services(battle: Battle) -> None:
    response = _admin_client().post(
        f"/admin/battles/battle/{battle.pk}/result/", _result_post(battle)
    )

    assert response.status_code == 302
    first = battle.figures.order_by("pk").first()
    assert first.state["wounds"] == 2 and first.skills_used == ["fire"]
    assert list(battle.sides.order_by("index").values_list("result", flat=True)) == ["WIN", "LOSS"]


def test_the_requeue_action_processes_a_waiting_battle(
    cast: Cast, django_capture_on_commit_callbacks: Any
) -> None:
    battle = finished(cast)

    with django_capture_on_commit_callbacks(execute=True):
        _admin_client().post(
            "/admin/battles/battle/",
            {"action": "requeue_processing", "_selected_action": [battle.pk]},
        )

    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.PROCESSED


def test_the_ledger_lists_per_character(cast: Cast) -> None:
    battle = finished(cast)
    battle_process(battle_id=battle.pk)
    row = battle.ledger.first()

    response = _admin_client().get(
        f"/admin/battles/postbattleroll/?character__id__exact={row.character_id}"
    )

    assert response.status_code == 200 and row.subject.encode() in response.content
