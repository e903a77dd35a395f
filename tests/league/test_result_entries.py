"""Every written result is kept as an entry of its own, and a pairing with one is history.

A pairing reported with nothing but a claim (no written report, no rated game yet) used to be
kept by the admin and the services alone; its result entry now makes the database refuse too.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from campaign_backup.campaign import campaign_export, campaign_import
from campaigns.services.clubs import organiser_access_sync
from league import services
from league.models import Pairing, ResultEntry
from ratings.models import RatedGame
from tests.factories import UserFactory
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


def _game() -> tuple[Pairing, object]:
    campaign, organiser, _players = make_league(["ann", "ben"])
    services.swiss_round_generate(campaign=campaign)
    pairing = Pairing.objects.select_related("home__user", "away__user").get(
        round__campaign=campaign, away__isnull=False
    )
    return pairing, organiser


def _report(pairing: Pairing, side: str, winner: str) -> Pairing:
    player = pairing.home.user if side == "home" else pairing.away.user
    return services.pairing_report(
        pairing=pairing, user=player, claim=services.claim_from({"winner": winner})
    )


def test_each_write_of_a_result_is_an_entry_with_its_version():
    pairing, organiser = _game()

    _report(pairing, "home", "HOME")
    _report(pairing, "home", "HOME")  # the same report again: no new version, no entry
    _report(pairing, "away", "AWAY")  # a dispute
    services.pairing_confirm(
        pairing=pairing, user=organiser, claim=services.claim_from({"winner": "DRAW"})
    )

    pairing.refresh_from_db()
    entries = list(ResultEntry.objects.filter(pairing=pairing))
    assert [e.version for e in entries] == [1, 2, 3] == list(range(1, pairing.version + 1))
    assert [e.result["winner"] for e in entries] == ["HOME", "HOME", "DRAW"]
    assert [e.result["disputed"] for e in entries] == [False, True, False]
    assert [e.by for e in entries] == [pairing.home.user, pairing.away.user, organiser]


def test_a_pairing_reported_by_a_claim_alone_cannot_be_deleted_by_any_path():
    pairing, _organiser = _game()
    _report(pairing, "home", "HOME")
    assert not pairing.reports.exists()
    assert not RatedGame.objects.filter(pairing=pairing).exists()

    with pytest.raises(ProtectedError):
        pairing.delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {Pairing._meta.db_table} WHERE id = %s", [pairing.pk])
        connection.check_constraints()  # the foreign key is checked at commit; check it now

    assert Pairing.objects.filter(pk=pairing.pk).exists()


def test_an_unplayed_pairing_has_no_entry_and_can_still_be_deleted():
    pairing, _organiser = _game()

    services.pairing_delete(pairing=pairing)

    assert not Pairing.objects.filter(pk=pairing.pk).exists()


def test_a_restored_copys_played_pairings_are_kept_as_history_too():
    pairing, _organiser = _game()
    _report(pairing, "home", "HOME")
    campaign = pairing.round.campaign

    copy = campaign_import(
        document=campaign_export(campaign=campaign), name="Copy", slug="copy-of-league"
    )

    copied = Pairing.objects.get(round__campaign=copy, away__isnull=False)
    entry = ResultEntry.objects.get(pairing=copied)
    assert (entry.version, entry.result["winner"]) == (copied.version, "HOME")
    with pytest.raises(ProtectedError):
        copied.delete()


@pytest.mark.parametrize("viewer", ["the club admin", "the campaign's organiser"])
def test_the_pairing_admin_page_shows_every_result_on_record_in_words(client, viewer):
    pairing, organiser = _game()
    _report(pairing, "home", "HOME")
    services.pairing_confirm(
        pairing=pairing, user=organiser, claim=services.claim_from({"winner": "AWAY"})
    )
    if viewer == "the club admin":
        client.force_login(UserFactory(is_staff=True, is_superuser=True))
    else:
        organiser_access_sync(user=organiser)
        client.force_login(organiser)

    page = client.get(f"/admin/league/pairing/{pairing.pk}/change/").content.decode()

    assert "Results on record" in page
    assert "ann won, 0–0 in victory points, figures lost 0–0 (reported)" in page
    assert "ben won, 0–0 in victory points, figures lost 0–0 (confirmed)" in page
    assert "result_entries-0-DELETE" not in page  # history: no delete box
