"""The league in the Django admin: a season driven end to end with the test client, the
organiser's view scoped to their own campaign, and the standings page's query count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign
from league import services
from league.models import Pairing, Round
from tests.factories import ClubFactory, UserFactory
from tests.league.league_helpers import make_league, settle_round

pytestmark = pytest.mark.django_db


def form_data(response) -> dict:
    """Return the POST data of an admin change form as rendered (main form and inlines)."""
    data: dict = {}

    def add(form) -> None:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = "on" if value is True else value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        for form in inline.formset.forms:
            add(form)
    return data


def test_a_club_admin_runs_a_season_in_the_admin(client):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    club = ClubFactory(name="Wargames Club")
    players = [UserFactory(username=n) for n in ("ann", "ben", "cat")]
    client.force_login(admin)

    # create the league, with a major-victory bonus
    data = form_data(client.get("/admin/campaigns/campaign/add/?system=rencounter"))
    data.update(
        {
            "club": club.pk,
            "name": "Autumn League",
            "slug": "autumn",
            "system": "rencounter",
            "status": "ACTIVE",
            "league-0-major_victory_bonus": 1,
            "_continue": "1",
        }
    )
    created = client.post("/admin/campaigns/campaign/add/?system=rencounter", data)
    assert created.status_code == 302, created.context and created.context["errors"]
    campaign = Campaign.objects.get(slug="autumn")
    assert campaign.league.major_victory_bonus == 1

    # add the players on the campaign page
    url = f"/admin/campaigns/campaign/{campaign.pk}/change/"
    data = form_data(client.get(url))
    data["memberships-TOTAL_FORMS"] = str(len(players))
    for i, user in enumerate(players):
        data.update({f"memberships-{i}-user": user.pk, f"memberships-{i}-role": "PLAYER"})
    assert client.post(url, data).status_code == 302
    assert campaign.memberships.count() == 3

    # generate the round robin with the admin action
    response = client.post(
        "/admin/campaigns/campaign/",
        {"action": "generate_round_robin", "_selected_action": [campaign.pk]},
        follow=True,
    )
    assert "3 rounds scheduled" in response.content.decode()

    # enter round 1's result on the round page: the home player wins a major victory
    round_one = Round.objects.get(campaign=campaign, number=1)
    round_url = f"/admin/league/round/{round_one.pk}/change/"
    data = form_data(client.get(round_url))
    game = round_one.pairings.get(away__isnull=False)
    index = next(i for i in range(3) if data.get(f"pairings-{i}-id") == game.pk)
    data.update(
        {
            f"pairings-{index}-winner": "HOME",
            f"pairings-{index}-home_vp": 7,
            f"pairings-{index}-away_vp": 2,
            f"pairings-{index}-major_victory": "on",
        }
    )
    assert client.post(round_url, data).status_code == 302
    game.refresh_from_db()
    assert game.confirmed_by_organiser and game.major_victory

    # read the standings: the winner leads with 3 + 1 bonus
    page = client.get(f"/admin/campaigns/campaign/{campaign.pk}/standings/")
    leader, name = page.context["standings_rows"][0]
    assert name == game.home.player_name and leader.points == 4
    change_page = client.get(url).content.decode()
    assert "Standings" in change_page and "Current round: 1" in change_page


@pytest.fixture
def two_leagues():
    """olivia organises league A; oscar organises league B; both have a played round."""
    a, olivia, _a_players = make_league(["ann", "ben"], organiser="olivia")
    b, oscar, _b_players = make_league(["xan", "yul"], organiser="oscar")
    for campaign, boss in ((a, olivia), (b, oscar)):
        services.round_robin_generate(campaign=campaign)
        settle_round(campaign, 1, boss)
    olivia.refresh_from_db()
    return a, b, olivia


def test_an_organiser_is_made_staff_in_the_organisers_group(two_leagues):
    _, _, olivia = two_leagues

    assert olivia.is_staff and not olivia.is_superuser
    assert list(olivia.groups.values_list("name", flat=True)) == ["Organisers"]
    assert olivia.has_perm("league.change_pairing")


def test_an_organiser_sees_only_their_own_campaign_in_the_admin(client, two_leagues):
    a, b, olivia = two_leagues
    client.force_login(olivia)

    listing = client.get("/admin/campaigns/campaign/")
    b_round = Round.objects.get(campaign=b)
    pages = [
        client.get(f"/admin/campaigns/campaign/{b.pk}/change/"),
        client.get(f"/admin/league/round/{b_round.pk}/change/"),
        client.get(f"/admin/campaigns/campaign/{b.pk}/standings/"),
    ]

    assert list(listing.context["cl"].queryset) == [a]
    assert all(page.status_code in (302, 404) for page in pages)
    rounds = client.get("/admin/league/round/").context["cl"].queryset
    assert {r.campaign_id for r in rounds} == {a.pk}


def test_an_organiser_cannot_change_another_campaign_in_the_admin(client, two_leagues):
    _a, b, olivia = two_leagues
    client.force_login(olivia)
    b_game = Pairing.objects.get(round__campaign=b)

    client.post(
        "/admin/campaigns/campaign/", {"action": "lock_current_round", "_selected_action": [b.pk]}
    )
    client.post(f"/admin/league/pairing/{b_game.pk}/change/", {"winner": "AWAY"})

    b_game.refresh_from_db()
    assert b_game.winner == "HOME"
    assert Round.objects.get(campaign=b).status == "OPEN"


def test_the_organisers_pairing_choices_are_their_own_players(client, two_leagues):
    a, _, olivia = two_leagues
    client.force_login(olivia)
    a_round = Round.objects.get(campaign=a)

    page = client.get(f"/admin/league/round/{a_round.pk}/change/")

    form = page.context["inline_admin_formsets"][0].formset.forms[0]
    assert {m.campaign_id for m in form.fields["home"].queryset} == {a.pk}


def test_an_organiser_cannot_read_or_confirm_another_campaign_through_the_api(two_leagues, as_user):
    a, b, olivia = two_leagues
    b_game = Pairing.objects.get(round__campaign=b)
    client = as_user(olivia)

    assert client.get(f"/api/campaigns/{b.pk}/standings/").status_code == 404
    assert client.get(f"/api/pairings/{b_game.pk}/").status_code == 404
    confirm = client.post(f"/api/pairings/{b_game.pk}/confirm/", {"version": 1}, format="json")
    assert confirm.status_code == 404
    assert client.get(f"/api/campaigns/{a.pk}/standings/").status_code == 200


def standings_page_queries(client, size: int) -> tuple[int, int]:
    campaign, olivia, _ = make_league(
        [f"s{size}p{i:02d}" for i in range(size)], organiser=f"org{size}"
    )
    services.round_robin_generate(campaign=campaign)
    settle_round(campaign, 1, olivia)
    client.force_login(olivia)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/admin/campaigns/campaign/{campaign.pk}/standings/")
    assert len(page.context["standings_rows"]) == size
    return len(queries), page.status_code


def test_the_admin_standings_page_costs_the_same_queries_at_8_and_64_players(client):
    small = standings_page_queries(client, 8)
    large = standings_page_queries(client, 64)

    assert small == large
    assert small[1] == 200


def test_bad_league_settings_in_the_admin_are_an_error_on_the_field(client, two_leagues):
    a, _, olivia = two_leagues
    client.force_login(olivia)
    url = f"/admin/campaigns/campaign/{a.pk}/change/"
    data = form_data(client.get(url))
    data.update({"league-0-win_points": 1, "league-0-draw_points": 2})

    response = client.post(url, data)

    assert response.status_code == 200
    league_form = response.context["inline_admin_formsets"][0].formset.forms[0]
    assert league_form.errors["draw_points"] == ["points must run win >= draw >= loss"]


def test_the_export_action_downloads_the_standings_csv(client, two_leagues):
    a, _, olivia = two_leagues
    client.force_login(olivia)

    response = client.post(
        "/admin/campaigns/campaign/", {"action": "export_standings", "_selected_action": [a.pk]}
    )

    assert response["Content-Type"] == "text/csv"
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("Rank,Player") and len(lines) == 3


def test_a_player_added_in_the_admin_mid_season_joins_the_league_late(client):
    campaign, olivia, _players = make_league(["ann", "ben", "cat"])
    services.round_robin_generate(campaign=campaign)
    settle_round(campaign, 1, olivia)
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    newcomer = UserFactory(username="zed")
    client.force_login(admin)
    url = f"/admin/campaigns/campaign/{campaign.pk}/change/"
    data = form_data(client.get(url))
    index = int(data["memberships-TOTAL_FORMS"])
    data["memberships-TOTAL_FORMS"] = str(index + 1)
    data.update({f"memberships-{index}-user": newcomer.pk, f"memberships-{index}-role": "PLAYER"})

    response = client.post(url, data, follow=True)

    assert "joins the league from round 2" in response.content.decode()
    seated = Pairing.objects.filter(round__campaign=campaign, home__user=newcomer) | (
        Pairing.objects.filter(round__campaign=campaign, away__user=newcomer)
    )
    assert sorted(p.round.number for p in seated) == [2, 3]
