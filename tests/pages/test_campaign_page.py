"""The campaign page: standings, the current round, recent battles, forces and members."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Membership
from league.models import Pairing, Round, Winner
from tests.pages.conftest import add_figures, make_muster

pytestmark = pytest.mark.django_db


def _round_with_result(muster) -> Pairing:
    round_ = Round.objects.create(campaign=muster.campaign, number=1)
    home = Membership.objects.get(campaign=muster.campaign, user=muster.alice)
    away = Membership.objects.get(campaign=muster.campaign, user=muster.bob)
    return Pairing.objects.create(
        round=round_,
        home=home,
        away=away,
        winner=Winner.HOME,
        home_vp=4,
        away_vp=1,
        confirmed_by_organiser=True,
    )


def test_members_see_the_forces_and_members(client, muster):
    client.force_login(muster.bob)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert f'href="/forces/{muster.red.pk}/"' in html
    assert f'href="/forces/{muster.blue.pk}/"' in html
    assert "olivia" in html and "organiser" in html


def test_members_get_the_campaign_report_and_it_prints(client, muster):
    client.force_login(muster.bob)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()
    report = client.get(f"/api/campaigns/{muster.campaign.pk}/report.pdf")

    assert f'href="/api/campaigns/{muster.campaign.pk}/report.pdf"' in html
    assert report.status_code == 200 and report.content.startswith(b"%PDF-")


def test_a_confirmed_result_counts_in_the_standings_and_the_round(client, muster):
    _round_with_result(muster)
    client.force_login(muster.alice)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    table = html.split('id="standings-title"')[1].split("</table>")[0]
    assert table.index("alice") < table.index("bob")
    assert "<strong>3</strong>" in table
    assert "Round 1" in html and "alice won" in html


def test_a_stranger_cannot_see_the_campaign(client, muster):
    client.force_login(muster.charlie)

    assert client.get(f"/campaigns/{muster.campaign.pk}/").status_code == 404


def test_organisers_who_are_staff_get_the_admin_link(client, muster):
    muster.olivia.is_staff = True
    muster.olivia.save()
    client.force_login(muster.olivia)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert "Manage in the admin" in html


def test_players_do_not_get_the_admin_link(client, muster):
    client.force_login(muster.alice)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert "Manage in the admin" not in html


@pytest.mark.parametrize("size", [2, 20])
def test_the_campaign_page_costs_the_same_queries_at_any_size(
    client, django_assert_num_queries, size
):
    muster = make_muster(size=size)
    add_figures(muster.red, size)
    _round_with_result(muster)
    client.force_login(muster.alice)
    client.get(f"/campaigns/{muster.campaign.pk}/")

    with django_assert_num_queries(campaign_queries(muster.campaign)):
        client.get(f"/campaigns/{muster.campaign.pk}/")


#: session, user, campaign, manages?, members, forces, battles (no sides to prefetch here),
#: league settings, players, pairings, adjustments, current round, its pairings, the player's
#: games in every open round, club ratings, the league's rating column setting.
CAMPAIGN_QUERIES = 16


def campaign_queries(campaign: Campaign) -> int:
    """CAMPAIGN_QUERIES, and the house-rules versions where the system's tables are editable."""
    from rules.system import get_system

    return CAMPAIGN_QUERIES + (get_system(campaign.system).house is not None)
