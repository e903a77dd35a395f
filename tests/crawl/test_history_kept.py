"""History is kept: a locked round, a reported or confirmed pairing, a finished battle, a rated
game, the service record, a house-rules version and the ledger survive every way of deleting
them (the database, the admin's Delete, "Delete selected", an inline's Delete box, the API and
the site's pages), as the organiser and as the staff admin. What is not history yet (an
unplayed round or pairing, a battle set up and never finished) can still be removed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Model, ProtectedError
from django.urls import reverse

from battles.models import Battle, BattleStatus, PostBattleRoll
from campaigns.models import HouseRules
from league import services
from league.models import Pairing, PairingReport, Round, RoundStatus
from league.selectors import pairing_kept_because
from ratings.models import RatedGame
from rosters.models import Character, Force, ServiceRecordEntry
from tests.crawl.crawler import PageParser
from tests.crawl.league_world import ORGANISER, PLAYER, league_world
from tests.crawl.world import STAFF, World
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One played season for the whole module; each test runs in a transaction rolled back."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            built = league_world()
            yield built
            transaction.set_rollback(True)


def history(world: World) -> dict[str, Model]:
    """One row of each kind of history in the world."""
    campaign = world.campaign
    locked = Round.objects.get(campaign=campaign, status=RoundStatus.LOCKED)
    confirmed = Pairing.objects.get(round=locked, away__isnull=False)
    reported = Pairing.objects.get(round__campaign=campaign, disputed=True)
    finished = Battle.objects.filter(campaign=campaign, status=BattleStatus.PROCESSED).first()
    rows = {
        "locked round": locked,
        "confirmed pairing": confirmed,
        "reported pairing": reported,
        "finished battle": finished,
        "rated game": RatedGame.objects.filter(pairing=confirmed).first(),
        "pairing report": PairingReport.objects.filter(pairing=reported).first(),
        "service record entry": ServiceRecordEntry.objects.filter(
            character__force__campaign=campaign
        ).first(),
        "house-rules version": HouseRules.objects.filter(campaign=campaign).first(),
        "ledger row": PostBattleRoll.objects.filter(battle=finished).first(),
        "character with a record": Character.objects.filter(
            force__campaign=campaign, service_record__isnull=False
        ).first(),
    }
    missing = [name for name, row in rows.items() if row is None]
    assert not missing, f"the world has no {missing}"
    return rows


def still_there(row: Model) -> bool:
    return type(row)._default_manager.filter(pk=row.pk).exists()


# --- the database ------------------------------------------------------------------------------

#: Deleting these would take history with them (the campaign: its house rules and battles).
PARENTS = [
    "locked round",
    "confirmed pairing",
    "reported pairing",
    "finished battle",
    "character with a record",
]


@pytest.mark.parametrize("name", PARENTS)
def test_the_database_refuses_to_delete_a_row_that_history_hangs_on(world, name):
    row = history(world)[name]

    with pytest.raises(ProtectedError):
        row.delete()

    assert still_there(row)


def test_the_database_refuses_to_delete_a_campaign_with_its_history(world):
    with pytest.raises(ProtectedError):
        world.campaign.delete()


# --- the admin ---------------------------------------------------------------------------------

ADMIN_ROWS = [
    "locked round",
    "confirmed pairing",
    "reported pairing",
    "finished battle",
    "service record entry",
    "house-rules version",
    "ledger row",
    "character with a record",
]


def admin_url(row: Model, view: str, *args: Any) -> str:
    opts = row._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=args)


@pytest.mark.parametrize("actor", [ORGANISER, STAFF])
@pytest.mark.parametrize("name", ADMIN_ROWS)
def test_the_admins_delete_page_refuses_history(world, actor, name):
    row = history(world)[name]
    client = world.client(actor)

    page = client.get(admin_url(row, "delete", row.pk))
    posted = client.post(admin_url(row, "delete", row.pk), {"post": "yes"})

    assert still_there(row)
    assert posted.status_code != 302 or "delete" in posted["Location"]
    if page.status_code == 200:  # a row only the database protects: "Cannot delete ..."
        assert b"Cannot delete" in page.content


@pytest.mark.parametrize("actor", [ORGANISER, STAFF])
@pytest.mark.parametrize("name", ADMIN_ROWS)
def test_delete_selected_refuses_history(world, actor, name):
    row = history(world)[name]
    data = {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}

    world.client(actor).post(admin_url(row, "changelist"), data)

    assert still_there(row)


@pytest.mark.parametrize("round_of", ["locked round", "reported pairing"])
def test_an_inline_delete_box_cannot_remove_a_played_pairing(world, round_of):
    row = history(world)[round_of]
    round_ = row if isinstance(row, Round) else row.round
    client = world.client(STAFF)
    url = admin_url(round_, "change", round_.pk)
    form = _change_form(client.get(url).content.decode())
    played = [p for p in Pairing.objects.filter(round=round_) if pairing_kept_because(p)]
    assert played

    data = _with_every_delete_box_ticked(form)
    client.post(url, data)

    assert all(still_there(p) for p in played)


def _change_form(html: str) -> list[tuple[str, str]]:
    parser = PageParser()
    parser.feed(html)
    return next(f for f in parser.forms if any(n.endswith("-TOTAL_FORMS") for n, _ in f.fields))


def _with_every_delete_box_ticked(form: Any) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        data.setdefault(name, []).append(value)
    for name in [n for n in data if n.endswith("-id")]:
        data[name.removesuffix("-id") + "-DELETE"] = ["on"]
    return data


# --- the API and the pages ---------------------------------------------------------------------

API_PATHS: dict[str, Callable[[Model], str]] = {
    "locked round": lambda r: f"/api/rounds/{r.pk}/",
    "confirmed pairing": lambda r: f"/api/pairings/{r.pk}/",
    "reported pairing": lambda r: f"/api/pairings/{r.pk}/",
    "finished battle": lambda r: f"/api/battles/{r.pk}/",
    "character with a record": lambda r: f"/api/characters/{r.pk}/",
}


@pytest.mark.parametrize("actor", [ORGANISER, PLAYER, STAFF])
@pytest.mark.parametrize("name", list(API_PATHS))
def test_the_api_refuses_to_delete_history(world, actor, name):
    row = history(world)[name]

    answer = world.client(actor).delete(API_PATHS[name](row))

    assert answer.status_code in (403, 404, 405, 409), answer.status_code
    assert still_there(row)


def test_the_battle_page_refuses_to_delete_a_finished_battle(world):
    battle = history(world)["finished battle"]

    world.client(PLAYER).post(f"/battles/{battle.pk}/delete/")

    assert still_there(battle)


def test_a_force_that_fought_cannot_be_deleted_from_its_page_or_the_api(world):
    force = Force.objects.filter(campaign=world.campaign, battle_sides__isnull=False).first()
    client = world.client(PLAYER)

    page = client.post(f"/forces/{force.pk}/delete/")
    api = client.delete(f"/api/forces/{force.pk}/")

    assert (page.status_code, api.status_code) == (409, 409)
    assert still_there(force)


# --- what is not history yet -------------------------------------------------------------------


def test_an_unplayed_round_and_its_pairings_can_still_be_deleted_in_the_admin(admin_client):
    campaign, _, _ = make_league(["alice", "bob", "carol", "dave"])
    round_ = services.swiss_round_generate(campaign=campaign)

    admin_client.post(admin_url(round_, "delete", round_.pk), {"post": "yes"})

    assert not Round.objects.filter(pk=round_.pk).exists()
    assert not Pairing.objects.filter(round_id=round_.pk).exists()


def test_an_unplayed_pairing_can_still_be_deleted_but_a_reported_one_is_refused():
    campaign, _, _players = make_league(["alice", "bob", "carol", "dave"])
    round_ = services.swiss_round_generate(campaign=campaign)
    unplayed, reported = Pairing.objects.filter(round=round_).select_related("home__user")
    services.pairing_report(
        pairing=reported, user=reported.home.user, claim=services.claim_from({"winner": "HOME"})
    )

    services.pairing_delete(pairing=unplayed)
    with pytest.raises(Exception, match="reported or confirmed"):
        services.pairing_delete(pairing=reported)

    assert not Pairing.objects.filter(pk=unplayed.pk).exists()
    assert Pairing.objects.filter(pk=reported.pk).exists()


def test_a_battle_set_up_for_a_league_game_can_still_be_abandoned(world):
    battle = Battle.objects.filter(campaign=world.campaign, status=BattleStatus.SETUP).first()
    game = history(world)["reported pairing"]
    Pairing.objects.filter(pk=game.pk).update(battle=battle)

    world.client(PLAYER).post(f"/battles/{battle.pk}/delete/")

    assert not Battle.objects.filter(pk=battle.pk).exists()
    assert Pairing.objects.get(pk=game.pk).battle_id is None
