"""Consent: a battle's result reaches a player's figures only with that player's agreement (or
their campaign organiser's), through every path: services, the task queued directly, the API,
the pages and the admin.

alice owns Red, bob owns Blue (one campaign); olivia organises it; eve is a stranger; dave plays
in the campaign without fighting.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from battles import services
from battles.errors import BattleConflict
from battles.models import Battle, BattleStatus, PostBattleRoll
from battles.tasks import process_battle
from league.models import Pairing, Round
from rosters.models import Character, CharacterStatus, ServiceRecordEntry
from tests.battles.conftest import Cast, make_force, start_battle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _ned(cast: Cast) -> Character:
    """alice's figure bob would like dead."""
    return cast.red.characters.order_by("pk").first()


def _bobs_result(cast: Cast) -> Battle:
    """bob enters "dead" for alice's Ned and a win for himself."""
    battle = start_battle(cast)
    ned = battle.figures.get(character=_ned(cast))
    sides = {s.index: s.pk for s in battle.sides.all()}
    return services.battle_record_result(
        battle=battle,
        figures=[{"figure": ned.pk, "status": "dead"}],
        sides=[{"side": sides[0], "result": "LOSS"}, {"side": sides[1], "result": "WIN"}],
        user=cast.bob,
    )


def _untouched(cast: Cast, battle: Battle) -> None:
    ned = Character.objects.get(pk=_ned(cast).pk)
    assert ned.status == CharacterStatus.ACTIVE
    assert not PostBattleRoll.objects.filter(battle=battle).exists()
    assert not ServiceRecordEntry.objects.filter(battle_id=battle.pk).exists()


def _age_report(battle: Battle, days: int) -> None:
    Battle.objects.filter(pk=battle.pk).update(reported_at=timezone.now() - timedelta(days=days))


# --- the property: no path lets one player's result change another's figure ------------------


def _by_service(cast: Cast, battle: Battle) -> None:
    services.battle_finish(battle=battle, user=cast.bob)


def _by_task(cast: Cast, battle: Battle) -> None:
    services.battle_finish(battle=battle, user=cast.bob)
    assert process_battle(battle_id=battle.pk) is False  # queued directly: refused


def _by_task_on_a_forced_status(cast: Cast, battle: Battle) -> None:
    # Even a battle pushed to FINISHED behind the services' back is not claimed.
    services.battle_finish(battle=battle, user=cast.bob)
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.FINISHED)
    assert services.battle_process(battle_id=battle.pk) is False
    assert services.battles_sweep(grace=timedelta(0)) == []


def _by_api(cast: Cast, battle: Battle) -> None:
    bob = cast.client(cast.bob)
    assert bob.post(f"/api/battles/{battle.pk}/finish/").status_code == 202
    assert bob.post(f"/api/battles/{battle.pk}/confirm/").status_code == 202  # his own: no-op
    assert bob.post(f"/api/battles/{battle.pk}/settle/").status_code == 400
    assert bob.post(f"/api/battles/{battle.pk}/requeue/").status_code == 403


def _by_pages(cast: Cast, battle: Battle) -> None:
    client = Client()
    client.force_login(cast.bob)
    assert client.post(f"/battles/{battle.pk}/finish/").status_code == 302
    assert client.post(f"/battles/{battle.pk}/confirm/").status_code in (302, 400)
    assert client.post(f"/battles/{battle.pk}/settle/").status_code == 400


def _by_a_stranger(cast: Cast, battle: Battle) -> None:
    eve = cast.client(cast.eve)
    assert eve.post(f"/api/battles/{battle.pk}/finish/").status_code == 404
    assert eve.post(f"/api/battles/{battle.pk}/confirm/").status_code == 404
    client = Client()
    client.force_login(cast.eve)
    assert client.post(f"/battles/{battle.pk}/confirm/").status_code == 404


def _by_admin_before_the_deadline(cast: Cast, battle: Battle) -> None:
    services.battle_finish(battle=battle, user=cast.bob)
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    client.post(
        "/admin/battles/battle/",
        {"action": "settle_results", "_selected_action": [battle.pk]},
    )
    client.post(
        "/admin/battles/battle/",
        {"action": "requeue_processing", "_selected_action": [battle.pk]},
    )
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.REPORTED


PATHS = [
    _by_service,
    _by_task,
    _by_task_on_a_forced_status,
    _by_api,
    _by_pages,
    _by_a_stranger,
    _by_admin_before_the_deadline,
]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.__name__)
def test_another_players_result_never_changes_alices_figure(cast: Cast, path: Any) -> None:
    battle = _bobs_result(cast)

    path(cast, battle)

    _untouched(cast, battle)
    processed = (BattleStatus.PROCESSING, BattleStatus.PROCESSED)
    assert Battle.objects.get(pk=battle.pk).status not in processed


# --- agreeing ---------------------------------------------------------------------------------


def test_a_report_waits_for_the_other_side_and_names_who_must_confirm(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    assert battle.status == BattleStatus.REPORTED
    assert services.battle_waiting_for(battle) == "alice (Red)"
    assert battle.sides.get(index=1).agreed_by == cast.bob
    assert battle.sides.get(index=0).agreed_at is None


def test_alice_confirming_queues_the_aftermath_once(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    battle = services.battle_confirm(battle=battle, user=cast.alice)
    again = services.battle_confirm(battle=battle, user=cast.alice)  # a double tap

    assert again.status == BattleStatus.FINISHED
    assert services.battle_process(battle_id=battle.pk) is True
    assert services.battle_process(battle_id=battle.pk) is False
    assert Character.objects.get(pk=_ned(cast).pk).status == CharacterStatus.DEAD


def test_the_reporter_cannot_confirm_for_the_other_side(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    services.battle_confirm(battle=battle, user=cast.bob)

    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.REPORTED


def test_a_player_who_does_not_fight_cannot_confirm(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    with pytest.raises(ValidationError, match="players whose forces fought"):
        services.battle_confirm(battle=battle, user=cast.dave)


def test_a_battle_one_player_owns_both_sides_of_needs_only_him(cast: Cast) -> None:
    own = make_force(cast.campaign, cast.alice, "Red reserve")
    battle = services.battle_start(
        sides=[services.SideChoice(force=cast.red), services.SideChoice(force=own)],
        user=cast.alice,
    )
    sides = [{"side": s.pk, "result": "DRAW"} for s in battle.sides.all()]
    services.battle_record_result(battle=battle, sides=sides)

    assert services.battle_finish(battle=battle, user=cast.alice).status == BattleStatus.FINISHED


def test_an_organisers_report_is_agreed_for_the_sides_of_her_campaign(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.olivia)

    assert battle.status == BattleStatus.FINISHED


# --- disputes, settling and reopening ---------------------------------------------------------


def test_a_dispute_goes_to_the_organiser_who_settles_it(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    battle = services.battle_dispute(battle=battle, user=cast.alice, note="Ned was only hit")
    with pytest.raises(ValidationError, match="only an organiser"):
        services.battle_settle(battle=battle, user=cast.bob)
    settled = services.battle_settle(battle=battle, user=cast.olivia)

    assert settled.status == BattleStatus.FINISHED
    assert settled.sides.get(index=0).agreed_by == cast.olivia


def test_a_dispute_tells_the_organiser(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    services.battle_dispute(battle=battle, user=cast.alice, note="Ned was only hit")

    assert cast.olivia.notices.filter(text__contains="Ned was only hit").exists()
    assert cast.alice.notices.filter(text__contains="until you confirm it").exists()


def test_an_unanswered_report_is_settled_only_after_the_time_to_answer(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    with pytest.raises(ValidationError, match="may answer until"):
        services.battle_settle(battle=battle, user=cast.olivia)
    _age_report(battle, 8)

    assert services.battle_settle(battle=battle, user=cast.olivia).status == BattleStatus.FINISHED


def test_a_league_games_time_to_answer_is_its_rounds_deadline(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    round_ = Round.objects.create(campaign=cast.campaign, number=1, deadline=date(2000, 1, 1))
    home, away = (cast.campaign.memberships.get(user=u) for u in (cast.alice, cast.bob))
    Pairing.objects.create(round=round_, home=home, away=away, battle=battle)

    assert services.battle_answer_by(battle) == date(2000, 1, 1)
    assert services.battle_settle(battle=battle, user=cast.olivia).status == BattleStatus.FINISHED


def test_reopening_withdraws_every_agreement(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    battle = services.battle_dispute(battle=battle, user=cast.alice)

    battle = services.battle_reopen(battle=battle, user=cast.alice)

    assert battle.status == BattleStatus.IN_PROGRESS
    assert not battle.sides.filter(agreed_at__isnull=False).exists()
    _untouched(cast, battle)


def test_a_settled_battle_cannot_be_reopened(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.olivia)

    with pytest.raises(BattleConflict):
        services.battle_reopen(battle=battle, user=cast.alice)


# --- the pages and the API show it ------------------------------------------------------------


def test_the_battle_page_says_whom_it_waits_for_and_gives_alice_the_buttons(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    client = Client()
    client.force_login(cast.alice)

    page = client.get(f"/battles/{battle.pk}/after/").content.decode()

    assert "Waiting for alice (Red) to confirm" in page
    assert 'data-testid="confirm-result"' in page
    assert 'data-testid="dispute-result"' in page


def test_bob_sees_the_wait_without_the_confirm_button(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    client = Client()
    client.force_login(cast.bob)

    page = client.get(f"/battles/{battle.pk}/after/").content.decode()

    assert "Waiting for alice (Red) to confirm" in page
    assert 'data-testid="confirm-result"' not in page


def test_alice_confirms_and_disputes_on_the_page(cast: Cast) -> None:
    client = Client()
    client.force_login(cast.alice)
    confirmed = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    disputed = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    client.post(f"/battles/{confirmed.pk}/confirm/")
    client.post(f"/battles/{disputed.pk}/dispute/", {"note": "Ned lived"})

    assert Battle.objects.get(pk=confirmed.pk).status == BattleStatus.FINISHED
    assert Battle.objects.get(pk=disputed.pk).status == BattleStatus.DISPUTED
    assert Battle.objects.get(pk=disputed.pk).dispute_note == "Ned lived"


def test_the_organiser_settles_a_dispute_through_the_api_and_the_admin(cast: Cast) -> None:
    api_battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    admin_battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    for battle in (api_battle, admin_battle):
        services.battle_dispute(battle=battle, user=cast.alice)
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(root)

    answer = cast.client(cast.olivia).post(f"/api/battles/{api_battle.pk}/settle/")
    client.post(
        "/admin/battles/battle/",
        {"action": "settle_results", "_selected_action": [admin_battle.pk]},
    )

    assert answer.status_code == 202
    assert answer.json()["status"] == BattleStatus.FINISHED
    assert Battle.objects.get(pk=admin_battle.pk).status == BattleStatus.FINISHED


def test_the_api_shows_each_sides_agreement_and_the_day_to_answer_by(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)

    data = cast.client(cast.alice).get(f"/api/battles/{battle.pk}/").json()

    assert data["status"] == "REPORTED"
    assert data["answer_by"] == (timezone.localdate() + timedelta(days=7)).isoformat()
    assert [s["agreed_by"] for s in data["sides"]] == [None, cast.bob.pk]


def test_the_organisers_desk_lists_a_disputed_battle_to_settle(cast: Cast) -> None:
    battle = services.battle_finish(battle=_bobs_result(cast), user=cast.bob)
    services.battle_dispute(battle=battle, user=cast.alice, note="Ned was only hit")
    type(cast.olivia).objects.filter(pk=cast.olivia.pk).update(is_staff=True)
    client = Client()
    client.force_login(cast.olivia)

    desk = client.get("/admin/campaigns/campaign/dashboard/").content.decode()

    assert "Battle results to settle" in desk
    assert "Ned was only hit" in desk
    assert f"/battles/{battle.pk}/after/" in desk
