"""`seed_demo` starts a league in progress in the demo club's Rencounter campaign: round 1
played with one disputed and one missing result, round 2 paired; loading twice changes nothing."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign
from league.dashboard import organiser_dashboard
from league.demo_season import LEAGUE_PLAYERS, LEAGUE_SLUG
from league.models import Pairing, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def seed() -> None:
    call_command("seed_demo", stdout=io.StringIO())


def league() -> Campaign:
    return Campaign.objects.get(club__slug="demo", slug=LEAGUE_SLUG)


def test_the_demo_league_has_round_one_played_with_a_dispute_and_a_missing_result(var_dir):
    seed()

    rounds = list(Round.objects.filter(campaign=league()).order_by("number"))
    assert [r.number for r in rounds] == [1, 2]
    first = Pairing.objects.filter(round=rounds[0])
    assert first.count() == len(LEAGUE_PLAYERS) // 2
    assert first.filter(disputed=True).count() == 1
    assert first.filter(winner="", confirmed_by_organiser=False).count() == 1
    assert Pairing.objects.filter(round=rounds[1]).count() == len(LEAGUE_PLAYERS) // 2


def test_the_demo_organiser_finds_the_dispute_and_the_missing_game_on_the_dashboard(var_dir):
    seed()
    olivia = get_user_model().objects.get(username="olivia")

    desk = next(d for d in organiser_dashboard(olivia) if d.campaign.slug == LEAGUE_SLUG)

    assert (len(desk.disputed), len(desk.missing), desk.overdue) == (1, 1, True)
    assert desk.next_action.kind == "resolve"


def test_seeding_the_demo_twice_leaves_the_league_as_it_was(var_dir):
    seed()
    before = list(Pairing.objects.filter(round__campaign=league()).values_list("pk", "version"))

    seed()

    after = list(Pairing.objects.filter(round__campaign=league()).values_list("pk", "version"))
    assert after == before
