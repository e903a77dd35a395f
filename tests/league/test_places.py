"""The organiser's hand edits in the admin go through services: a pairing's table and players
(`pairing_place`) and a hand adjustment's correction and removal. Each refuses what the league
does not allow, with a reason, and changes nothing then."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league import services
from league.errors import LeagueConflict
from league.models import LeagueAdjustment, Pairing, Round, RoundStatus
from tests.factories import CampaignFactory, MembershipFactory
from tests.league.league_helpers import make_league, settle

pytestmark = pytest.mark.django_db


def _round(campaign, number: int = 1, **fields) -> Round:
    return Round.objects.create(campaign=campaign, number=number, **fields)


def test_a_new_pairing_seats_two_players_of_the_round_at_a_table():
    campaign, _, p = make_league(["ann", "ben"])
    round_ = _round(campaign)

    pairing = services.pairing_place(round_=round_, table=3, home=p["ann"], away=p["ben"])

    assert (pairing.round_id, pairing.table, pairing.home, pairing.away) == (
        round_.pk,
        3,
        p["ann"],
        p["ben"],
    )


def test_an_unplayed_pairing_changes_its_players():
    campaign, _, p = make_league(["ann", "ben", "cat"])
    round_ = _round(campaign)
    pairing = services.pairing_place(round_=round_, table=1, home=p["ann"], away=p["ben"])

    services.pairing_place(round_=round_, pairing=pairing, table=2, home=p["cat"], away=p["ben"])

    pairing.refresh_from_db()
    assert (pairing.table, pairing.home_id) == (2, p["cat"].pk)


def test_a_reported_game_keeps_its_players():
    campaign, olivia, p = make_league(["ann", "ben", "cat"])
    round_ = _round(campaign)
    pairing = services.pairing_place(round_=round_, table=1, home=p["ann"], away=p["ben"])
    settle(pairing, olivia, winner="HOME", home_vp=1)

    with pytest.raises(ValidationError, match="keeps its players"):
        services.pairing_place(
            round_=round_, pairing=pairing, table=1, home=p["cat"], away=p["ben"]
        )

    assert Pairing.objects.get(pk=pairing.pk).home_id == p["ann"].pk


def test_a_locked_round_takes_no_new_pairing():
    campaign, _, p = make_league(["ann", "ben"])
    round_ = _round(campaign, status=RoundStatus.LOCKED)

    with pytest.raises(LeagueConflict, match="locked"):
        services.pairing_place(round_=round_, table=1, home=p["ann"], away=p["ben"])

    assert not Pairing.objects.filter(round=round_).exists()


def test_a_player_of_another_campaign_is_refused_with_a_reason():
    campaign, _, p = make_league(["ann"])
    stranger = MembershipFactory(campaign=CampaignFactory())
    round_ = _round(campaign)

    with pytest.raises(ValidationError, match="does not play in this campaign"):
        services.pairing_place(round_=round_, table=1, home=p["ann"], away=stranger)

    assert not Pairing.objects.filter(round=round_).exists()


def test_a_player_twice_in_a_round_is_a_form_error_not_a_crash():
    campaign, _, p = make_league(["ann", "ben", "cat"])
    round_ = _round(campaign)
    services.pairing_place(round_=round_, table=1, home=p["ann"], away=p["ben"])

    with pytest.raises(ValidationError):
        services.pairing_place(round_=round_, table=2, home=p["ann"], away=p["cat"])

    assert Pairing.objects.filter(round=round_).count() == 1


def test_an_adjustment_is_corrected_and_keeps_its_reason_required():
    _, olivia, p = make_league(["ann", "ben"])
    adjustment = services.adjustment_create(player=p["ann"], points=-2, reason="Late", user=olivia)

    services.adjustment_update(
        adjustment=adjustment, points=-1, reason=" Late list ", player=p["ben"]
    )
    with pytest.raises(ValidationError, match="needs a reason"):
        services.adjustment_update(adjustment=adjustment, points=-1, reason=" ")

    stored = LeagueAdjustment.objects.get(pk=adjustment.pk)
    assert (stored.points, stored.reason, stored.player_id) == (-1, "Late list", p["ben"].pk)


def test_an_adjustment_stays_with_a_player_of_its_league():
    _, _, p = make_league(["ann"])
    adjustment = services.adjustment_create(player=p["ann"], points=1, reason="Fair play")
    stranger = MembershipFactory(campaign=CampaignFactory())

    with pytest.raises(ValidationError, match="does not play in this league"):
        services.adjustment_update(adjustment=adjustment, points=1, reason="x", player=stranger)

    assert LeagueAdjustment.objects.get(pk=adjustment.pk).player_id == p["ann"].pk


def test_an_adjustment_is_taken_back():
    _, _, p = make_league(["ann"])
    adjustment = services.adjustment_create(player=p["ann"], points=1, reason="Fair play")

    services.adjustment_delete(adjustment=adjustment)

    assert not LeagueAdjustment.objects.filter(pk=adjustment.pk).exists()
