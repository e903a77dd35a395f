"""The league API: who reads and who changes standings, rounds and pairings; CSV; conflicts;
query counts that do not grow with the league."""

from __future__ import annotations

import pytest

from league import services
from league.models import Pairing
from tests.factories import UserFactory
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    """ann v ben and cat v dan in round 1; olivia organises; charlie is a stranger."""
    campaign, olivia, p = make_league(["ann", "ben", "cat", "dan"])
    services.round_create_manual(
        campaign=campaign, pairings=[(p["ann"], p["ben"]), (p["cat"], p["dan"])]
    )
    game = Pairing.objects.get(round__campaign=campaign, home=p["ann"])
    return campaign, olivia, p, game, UserFactory(username="charlie")


def test_members_read_the_standings_and_strangers_get_404(league, as_user):
    campaign, olivia, p, _, charlie = league
    url = f"/api/campaigns/{campaign.pk}/standings/"

    assert as_user(p["ann"].user).get(url).status_code == 200
    assert as_user(olivia).get(url).status_code == 200
    assert as_user(charlie).get(url).status_code == 404


def test_the_standings_come_as_csv_by_query_or_by_suffix(league, as_user):
    campaign, _, p, _, _ = league
    client = as_user(p["ann"].user)

    by_query = client.get(f"/api/campaigns/{campaign.pk}/standings/?format=csv")
    by_suffix = client.get(f"/api/campaigns/{campaign.pk}/standings.csv")

    assert by_query.status_code == by_suffix.status_code == 200
    assert by_query["Content-Type"].startswith("text/csv")
    assert by_query.content == by_suffix.content
    assert by_query.content.decode().splitlines()[0].startswith("Rank,Player,Played")


def test_organisers_generate_rounds_and_players_may_not(league, as_user):
    campaign, olivia, p, game, _ = league
    url = f"/api/campaigns/{campaign.pk}/rounds/"
    services.pairing_confirm(
        pairing=game, user=olivia, claim=services.claim_from({"winner": "HOME"})
    )
    other = Pairing.objects.get(round__campaign=campaign, home=p["cat"])
    services.pairing_confirm(
        pairing=other, user=olivia, claim=services.claim_from({"winner": "DRAW"})
    )

    refused = as_user(p["ann"].user).post(url, {"kind": "SWISS"}, format="json")
    made = as_user(olivia).post(url, {"kind": "SWISS"}, format="json")

    assert refused.status_code == 403
    assert made.status_code == 201, made.content
    assert [r["number"] for r in made.json()] == [1, 2]


def test_an_impossible_round_robin_is_a_400_with_the_reason(league, as_user):
    campaign, olivia, _, _, _ = league

    response = as_user(olivia).post(
        f"/api/campaigns/{campaign.pk}/rounds/", {"kind": "ROUND_ROBIN"}, format="json"
    )

    assert response.status_code == 400
    assert "already has rounds" in response.json()["round"][0]


def test_a_player_reports_their_own_game_but_not_anothers(league, as_user):
    campaign, _, p, game, charlie = league
    other = Pairing.objects.get(round__campaign=campaign, home=p["cat"])
    result = {"winner": "HOME", "home_vp": 6, "away_vp": 2}

    own = as_user(p["ann"].user).post(f"/api/pairings/{game.pk}/report/", result, format="json")
    theirs = as_user(p["ann"].user).post(f"/api/pairings/{other.pk}/report/", result, format="json")
    stranger = as_user(charlie).post(f"/api/pairings/{game.pk}/report/", result, format="json")

    assert own.status_code == 200 and own.json()["reported_by_home"] is True
    assert theirs.status_code == 403
    assert stranger.status_code == 404


def test_a_bad_report_is_a_400_and_changes_nothing(league, as_user):
    _, _, p, game, _ = league

    response = as_user(p["ann"].user).post(
        f"/api/pairings/{game.pk}/report/", {"winner": "DRAW", "major_victory": True}, format="json"
    )

    game.refresh_from_db()
    assert response.status_code == 400 and "major_victory" in response.json()
    assert game.version == 0


def test_confirming_an_outdated_version_is_a_409(league, as_user):
    _, olivia, p, game, _ = league
    as_user(p["ann"].user).post(
        f"/api/pairings/{game.pk}/report/", {"winner": "HOME"}, format="json"
    )
    client = as_user(olivia)

    first = client.post(f"/api/pairings/{game.pk}/confirm/", {"version": 1}, format="json")
    second = client.post(f"/api/pairings/{game.pk}/confirm/", {"version": 1}, format="json")

    assert first.status_code == 200 and first.json()["confirmed_by_organiser"] is True
    assert second.status_code == 409


def test_players_cannot_confirm_or_lock(league, as_user):
    _campaign, _, p, game, _ = league
    client = as_user(p["ann"].user)

    confirm = client.post(f"/api/pairings/{game.pk}/confirm/", {"version": 0}, format="json")
    lock = client.post(f"/api/rounds/{game.round_id}/lock/")

    assert confirm.status_code == 403 and lock.status_code == 403


def test_an_organiser_swaps_players_and_sees_the_warnings(league, as_user):
    _campaign, olivia, p, game, _ = league

    response = as_user(olivia).post(
        f"/api/rounds/{game.round_id}/swap/",
        {"first": p["ben"].pk, "second": p["dan"].pk},
        format="json",
    )

    assert response.status_code == 200, response.content
    homes = {x["home"]["name"]: x["away"]["name"] for x in response.json()["pairings"]}
    assert homes == {"ann": "dan", "cat": "ben"}
    assert response.json()["warnings"] == []


def test_members_list_rounds_and_pairings_of_their_campaign_only(league, as_user):
    _campaign, _, p, _, _ = league
    other, _, _ = make_league(["xan", "yul"], organiser="oscar")

    rounds = as_user(p["ann"].user).get(f"/api/rounds/?campaign={other.pk}").json()
    pairings = as_user(p["ann"].user).get("/api/pairings/").json()

    assert rounds["count"] == 0
    assert pairings["count"] == 2


def big_league(size: int):
    campaign, olivia, players = make_league([f"p{i:02d}" for i in range(size)])
    services.round_robin_generate(campaign=campaign)
    for pairing in Pairing.objects.filter(
        round__campaign=campaign, round__number__lte=2, away__isnull=False
    ):
        services.pairing_confirm(
            pairing=pairing,
            user=olivia,
            claim=services.claim_from({"winner": "HOME", "home_vp": 3}),
        )
    services.adjustment_create(player=players["p00"], points=1, reason="painted force")
    return campaign, players


@pytest.mark.parametrize("size", [8, 64])
def test_the_standings_endpoint_costs_the_same_queries_at_8_and_64_players(
    as_user, django_assert_num_queries, size
):
    campaign, players = big_league(size)
    client = as_user(players["p01"].user)

    # campaign (visibility + member count), league settings, players, pairings, adjustments
    with django_assert_num_queries(5):
        body = client.get(f"/api/campaigns/{campaign.pk}/standings/").json()

    assert len(body) == size
