"""The organiser's dashboard: exactly what waits in the seasons they run, each with its button,
nothing of anyone else's, in the same number of queries at 8 and 64 players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import BattleStatus
from campaigns.models import JoinRequest
from league.models import Pairing, Round
from printing.models import PrintJob
from tests.admin.season import seeded_season
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db
DASHBOARD = "/admin/campaigns/campaign/dashboard/"


def act(client, season, **data):
    return client.post(f"/admin/campaigns/campaign/{season.campaign.pk}/act/", data, follow=True)


def test_the_dashboard_lists_exactly_the_pending_items_of_the_season(client):
    season = seeded_season()
    client.force_login(season.olivia)

    response = client.get(DASHBOARD)

    (desk,) = response.context["desks"]
    assert desk.current.number == 1
    assert [p.pk for p in desk.disputed] == [season.disputed.pk]
    assert [p.pk for p in desk.missing] == [season.missing.pk]
    assert desk.reported == []
    assert [b.pk for b in desk.stuck_battles] == [season.stuck.pk]
    assert desk.failed_jobs == []
    assert (desk.tally.games, desk.tally.settled, desk.tally.disputed, desk.tally.missing) == (
        4,
        2,
        1,
        1,
    )
    page = response.content.decode()
    assert page.count('data-testid="pending-disputed"') == 1
    assert page.count('data-testid="pending-missing"') == 1
    assert page.count('data-testid="pending-battle"') == 1
    assert 'data-testid="pending-reported"' not in page
    assert "Resolve the dispute at table 3" in page
    assert "overdue" in page  # round 1's deadline was yesterday and a game is still missing


def test_both_reports_of_a_dispute_show_side_by_side_in_the_players_names(client):
    season = seeded_season()
    client.force_login(season.olivia)

    page = client.get(DASHBOARD).content.decode()

    home, away = season.disputed.home.player_name, season.disputed.away.player_name
    assert f"{home} says</strong> {home} won, 4–2 in victory points" in page
    assert f"{away} says</strong> {away} won, 2–4 in victory points" in page


def test_an_organiser_of_another_campaign_sees_nothing_of_this_season(client):
    season = seeded_season()
    _, oscar, _ = make_league(["xavier", "yvonne"], organiser="oscar")
    client.force_login(oscar)

    response = client.get(DASHBOARD)

    assert [d.campaign.name for d in response.context["desks"]] != []
    assert season.campaign.pk not in [d.campaign.pk for d in response.context["desks"]]
    assert "Winter League" not in response.content.decode()
    refused = client.post(
        f"/admin/campaigns/campaign/{season.campaign.pk}/act/",
        {"action": "resolve", "pairing": season.disputed.pk, "side": "home"},
    )
    assert refused.status_code == 404
    assert Pairing.objects.get(pk=season.disputed.pk).disputed


def test_resolving_a_dispute_from_the_dashboard_accepts_one_players_report(client):
    season = seeded_season()
    client.force_login(season.olivia)
    away = season.disputed.away.player_name

    response = act(
        client,
        season,
        action="resolve",
        pairing=season.disputed.pk,
        side="away",
        version=Pairing.objects.get(pk=season.disputed.pk).version,
    )

    assert f"settled with {away}&#x27;s report" in response.content.decode()
    settled = Pairing.objects.get(pk=season.disputed.pk)
    assert (settled.winner, settled.home_vp, settled.away_vp) == ("AWAY", 2, 4)
    assert settled.confirmed_by_organiser and not settled.disputed


def test_a_stale_dispute_button_is_refused_with_a_message(client):
    season = seeded_season()
    client.force_login(season.olivia)
    act(client, season, action="resolve", pairing=season.disputed.pk, side="home", version=2)

    response = act(
        client, season, action="resolve", pairing=season.disputed.pk, side="away", version=2
    )

    assert "no longer disputed" in response.content.decode()
    assert Pairing.objects.get(pk=season.disputed.pk).winner == "HOME"


def test_a_missing_game_is_auto_resolved_as_a_no_show_from_the_dashboard(client, monkeypatch):
    from battles.services import pipeline
    from tests.factories import CharacterFactory, ForceFactory

    monkeypatch.setattr(pipeline, "queue_processing", lambda battle_id: None)
    season = seeded_season()
    for member in (season.missing.home, season.missing.away):
        CharacterFactory.create_batch(
            3, force=ForceFactory(owner=member.user, campaign=season.campaign)
        )
    client.force_login(season.olivia)

    response = act(client, season, action="auto_resolve", pairing=season.missing.pk)

    assert "auto-resolved by the abstract simulation" in response.content.decode()
    resolved = Pairing.objects.get(pk=season.missing.pk)
    assert resolved.battle.auto_resolved and resolved.confirmed_by_organiser


def test_auto_resolving_without_forces_says_who_has_none(client):
    season = seeded_season()
    client.force_login(season.olivia)

    response = act(client, season, action="auto_resolve", pairing=season.missing.pk)

    home = season.missing.home.player_name
    assert f"{home} has no force in this campaign" in response.content.decode()
    assert not Pairing.objects.get(pk=season.missing.pk).is_settled


def test_a_stuck_battle_is_queued_again_from_the_dashboard(client, monkeypatch):
    from battles.services import pipeline

    queued: list[int] = []
    monkeypatch.setattr(pipeline, "queue_processing", queued.append)
    season = seeded_season()
    client.force_login(season.olivia)

    response = act(client, season, action="requeue", battle=season.stuck.pk)

    assert "post-battle rolls queued again" in response.content.decode()
    assert queued == [season.stuck.pk]


def test_a_failed_print_job_of_a_member_shows_on_the_dashboard(client):
    season = seeded_season()
    PrintJob.objects.create(
        kind="REPORT",
        parameters={"campaign": season.campaign.pk},
        idempotency_key="k" * 64,
        status="FAILED",
        error="WeasyPrint ran out of memory",
        created_by=season.olivia,
    )
    client.force_login(season.olivia)

    (desk,) = client.get(DASHBOARD).context["desks"]

    assert [j.error for j in desk.failed_jobs] == ["WeasyPrint ran out of memory"]


def test_players_waiting_for_approval_show_on_the_dashboard_with_a_way_to_let_them_in(client):
    season = seeded_season()
    season.campaign.approve_joiners = True
    season.campaign.save(update_fields=["approve_joiners"])
    pia = User.objects.create_user("pia")
    JoinRequest.objects.create(campaign=season.campaign, user=pia)
    client.force_login(season.olivia)

    response = client.get(DASHBOARD)

    (desk,) = response.context["desks"]
    assert desk.waiting_to_join == 1
    page = response.content.decode()
    assert "1 player waiting to join" in page
    assert f"/campaigns/{season.campaign.pk}/#members-title" in page


def test_when_every_game_is_settled_the_next_action_locks_the_round_then_pairs_the_next(client):
    campaign, olivia, _ = make_league(["alice", "bob", "carol", "dave"])
    client.force_login(olivia)
    season_url = f"/admin/campaigns/campaign/{campaign.pk}/act/"
    assert "Pair round 1" in client.get(DASHBOARD).content.decode()

    client.post(season_url, {"action": "pair"})
    round_ = Round.objects.get(campaign=campaign)
    from tests.league.league_helpers import settle_round

    settle_round(campaign, 1, olivia)
    assert "Lock round 1" in client.get(DASHBOARD).content.decode()
    client.post(season_url, {"action": "lock"})
    round_.refresh_from_db()

    assert round_.status == Round.Status.LOCKED
    assert "Pair round 2" in client.get(DASHBOARD).content.decode()


def _dashboard_queries(client, size: int, organiser: str) -> int:
    season = seeded_season(size, organiser=organiser)
    client.force_login(season.olivia)
    client.get(DASHBOARD)  # warm the session and the content types
    with CaptureQueriesContext(connection) as queries:
        assert client.get(DASHBOARD).status_code == 200
    return len(queries)


def test_the_dashboard_takes_the_same_number_of_queries_at_8_and_64_players(client):
    small = _dashboard_queries(client, 8, "olivia")
    client.logout()
    large = _dashboard_queries(client, 64, "otto")

    assert small == large
    assert BattleStatus.FINISHED  # the stuck battle is part of both seasons
