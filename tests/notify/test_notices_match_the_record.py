"""Notices say what the record says: a disputing player's report in their own words, a round
paired by hand in the admin announced like any other, an auto-resolved no-show finished and
left out of the club rating."""

from __future__ import annotations

import pytest

from battles.models import BattleStatus
from league import services
from league.models import Pairing, Round, RoundKind
from notices.models import Event, EventKind, Notice
from ratings.models import RatedGame
from tests.crawl.crawler import PageParser
from tests.factories import CharacterFactory, ForceFactory
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


def one_game():
    campaign, olivia, p = make_league(["ann", "ben"])
    services.round_create_manual(campaign=campaign, pairings=[(p["ann"], p["ben"])])
    return olivia, p, Pairing.objects.get(round__campaign=campaign)


def test_a_disputing_report_is_announced_as_that_player_reported_it():
    _, p, pairing = one_game()
    services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=services.claim_from({"winner": "HOME"})
    )

    services.pairing_report(
        pairing=pairing, user=p["ben"].user, claim=services.claim_from({"winner": "AWAY"})
    )

    bens = Event.objects.filter(kind=EventKind.RESULT_REPORTED).order_by("pk").last()
    assert "ben beat ann" in bens.text, bens.text
    anns = Event.objects.filter(kind=EventKind.RESULT_REPORTED).order_by("pk").first()
    assert "ann beat ben" in anns.text, anns.text


def test_a_round_paired_by_hand_in_the_admin_tells_its_players_and_hooks(admin_client):
    campaign, _, p = make_league(["ann", "ben"])
    round_ = Round.objects.create(campaign=campaign, number=1, kind=RoundKind.MANUAL)
    url = f"/admin/league/round/{round_.pk}/change/"
    parser = PageParser()
    parser.feed(admin_client.get(url).content.decode())
    form = next(f for f in parser.forms if any("TOTAL_FORMS" in n for n, _ in f.fields))
    # the new row as the admin's "Add another" makes it: the empty form's defaults, as row 0
    data = {name.replace("__prefix__", "0"): value for name, value in form.fields}
    data.update({"pairings-TOTAL_FORMS": "1", "pairings-0-table": "1"})
    data.update({"pairings-0-home": str(p["ann"].pk), "pairings-0-away": str(p["ben"].pk)})

    admin_client.post(url, data)

    assert Pairing.objects.filter(round=round_).count() == 1
    assert Event.objects.filter(kind=EventKind.ROUND_PAIRED, campaign=campaign).exists()
    told = set(Notice.objects.filter(campaign=campaign).values_list("user__username", flat=True))
    assert told == {"ann", "ben"}


def test_an_auto_resolved_no_show_finishes_its_battle_and_is_not_rated():
    olivia, p, pairing = one_game()
    campaign = pairing.round.campaign
    for member in (p["ann"], p["ben"]):
        CharacterFactory.create_batch(3, force=ForceFactory(owner=member.user, campaign=campaign))

    services.pairing_auto_resolve(pairing=pairing, user=olivia)

    pairing.refresh_from_db()
    assert pairing.battle.status != BattleStatus.IN_PROGRESS
    assert pairing.battle.status in (BattleStatus.FINISHED, BattleStatus.PROCESSED)
    assert not RatedGame.objects.filter(pairing=pairing).exists()
