"""League results: reports by both players, disputes, organiser confirmations and
corrections, the version check (also under real concurrency on PostgreSQL), battles."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from campaigns import services
from league import services as league_services
from league.errors import LeagueConflict
from league.models import Pairing, Round
from tests.league.league_helpers import make_league

WIN = {"winner": "HOME", "home_vp": 8, "away_vp": 3}


def one_game():
    campaign, olivia, p = make_league(["ann", "ben"])
    league_services.round_create_manual(campaign=campaign, pairings=[(p["ann"], p["ben"])])
    return olivia, p, Pairing.objects.get(round__campaign=campaign)


@pytest.mark.django_db
def test_both_players_reporting_the_same_result_settles_the_game():
    _, p, pairing = one_game()

    league_services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
    )
    first = Pairing.objects.get(pk=pairing.pk)
    league_services.pairing_report(
        pairing=pairing, user=p["ben"].user, claim=league_services.claim_from(WIN)
    )

    pairing.refresh_from_db()
    assert not first.is_settled
    assert pairing.is_settled and not pairing.disputed and pairing.home_vp == 8


@pytest.mark.django_db
def test_differing_reports_are_a_dispute_the_organiser_settles():
    olivia, p, pairing = one_game()
    league_services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
    )

    league_services.pairing_report(
        pairing=pairing, user=p["ben"].user, claim=league_services.claim_from({"winner": "DRAW"})
    )
    pairing.refresh_from_db()
    assert pairing.disputed and not pairing.is_settled
    assert pairing.disputed_claim["side"] == "away"
    with pytest.raises(ValidationError, match="disagree"):
        league_services.pairing_confirm(pairing=pairing, user=olivia)

    league_services.pairing_confirm(
        pairing=pairing,
        user=olivia,
        claim=league_services.claim_from({"winner": "DRAW", "home_vp": 5, "away_vp": 5}),
    )
    pairing.refresh_from_db()
    assert pairing.is_settled and not pairing.disputed and pairing.winner == "DRAW"


@pytest.mark.django_db
def test_a_player_cannot_report_a_game_they_did_not_play_or_after_confirmation():
    olivia, p, pairing = one_game()
    stranger = type(olivia).objects.create(username="charlie")

    with pytest.raises(ValidationError):
        league_services.pairing_report(
            pairing=pairing, user=stranger, claim=league_services.claim_from(WIN)
        )
    league_services.pairing_confirm(
        pairing=pairing, user=olivia, claim=league_services.claim_from(WIN)
    )
    with pytest.raises(LeagueConflict, match="already confirmed"):
        league_services.pairing_report(
            pairing=pairing,
            user=p["ben"].user,
            claim=league_services.claim_from({"winner": "AWAY"}),
        )


@pytest.mark.django_db
def test_only_an_organiser_confirms():
    _, p, pairing = one_game()

    with pytest.raises(ValidationError, match="organisers"):
        league_services.pairing_confirm(
            pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
        )


@pytest.mark.django_db
def test_a_confirmation_over_a_version_someone_else_changed_is_a_conflict():
    olivia, p, pairing = one_game()
    league_services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
    )
    seen = Pairing.objects.get(pk=pairing.pk).version

    league_services.pairing_confirm(pairing=pairing, user=olivia, expected_version=seen)
    with pytest.raises(LeagueConflict, match="changed since you loaded it"):
        league_services.pairing_confirm(pairing=pairing, user=olivia, expected_version=seen)
    with pytest.raises(LeagueConflict, match="already confirmed"):
        league_services.pairing_confirm(pairing=pairing, user=olivia)


@pytest.mark.django_db
def test_a_confirmed_result_can_be_corrected_by_the_organiser():
    olivia, _, pairing = one_game()
    league_services.pairing_confirm(
        pairing=pairing, user=olivia, claim=league_services.claim_from(WIN)
    )

    league_services.pairing_confirm(
        pairing=pairing,
        user=olivia,
        claim=league_services.claim_from({"winner": "AWAY", "away_vp": 4}),
    )

    pairing.refresh_from_db()
    assert (pairing.winner, pairing.home_vp, pairing.away_vp, pairing.version) == ("AWAY", 0, 4, 2)


@pytest.mark.django_db
def test_a_no_show_gives_the_other_player_the_win_and_bad_results_are_refused():
    claim = league_services.claim_from({"home_no_show": True})

    assert claim.winner == "AWAY"
    with pytest.raises(ValidationError, match="major victory"):
        league_services.claim_from({"winner": "DRAW", "major_victory": True})
    with pytest.raises(ValidationError, match="who won"):
        league_services.claim_from({"home_vp": 3})
    with pytest.raises(ValidationError):
        league_services.claim_from({"winner": "HOME", "home_vp": -1})


@pytest.mark.django_db(transaction=True)
def test_two_organisers_confirming_at_once_one_wins_and_the_other_gets_a_conflict():
    olivia, p, pairing = one_game()
    ollie = type(olivia).objects.create(username="ollie")
    services.membership_create(campaign=pairing.round.campaign, user=ollie, role="ORGANISER")
    league_services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
    )
    seen = Pairing.objects.get(pk=pairing.pk).version
    outcomes: list[str] = []
    parallel = connection.vendor == "postgresql"  # SQLite serialises writers: run in turn
    start = threading.Barrier(2 if parallel else 1)

    def confirm(user) -> None:
        try:
            start.wait()
            league_services.pairing_confirm(pairing=pairing, user=user, expected_version=seen)
            outcomes.append("confirmed")
        except LeagueConflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    if parallel:
        threads = [threading.Thread(target=confirm, args=(u,)) for u in (olivia, ollie)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        for user in (olivia, ollie):
            confirm(user)

    assert sorted(outcomes) == ["confirmed", "conflict"]
    assert Pairing.objects.get(pk=pairing.pk).version == seen + 1


@pytest.mark.django_db
def test_a_battle_fought_through_the_battles_app_settles_the_pairing():
    from battles.models import Battle, BattleFigure, BattleSide
    from tests.factories import ForceFactory

    olivia, p, pairing = one_game()
    campaign = pairing.round.campaign
    battle = Battle.objects.create(
        campaign=campaign, system=campaign.system, seed="s", seed_sha256="h"
    )
    for index, (member, result, vp) in enumerate(((p["ann"], "LOSS", 2), (p["ben"], "WIN", 9))):
        force = ForceFactory(owner=member.user, campaign=campaign)
        side = BattleSide.objects.create(
            battle=battle, index=index, force=force, result=result, victory_points=vp
        )
        for status in ("dead", "out", "unhurt")[index:]:
            BattleFigure.objects.create(
                battle=battle, side=side, name=status, stats={}, state={"status": status}
            )

    league_services.pairing_link_battle(pairing=pairing, battle=battle, user=olivia)

    pairing.refresh_from_db()
    assert (pairing.winner, pairing.home_vp, pairing.away_vp) == ("AWAY", 2, 9)
    assert (pairing.home_figures_lost, pairing.away_figures_lost) == (2, 1)
    assert pairing.battle == battle and pairing.confirmed_by_organiser


@pytest.mark.django_db
def test_a_no_show_is_auto_resolved_by_the_rules_engine():
    from tests.factories import CharacterFactory, ForceFactory

    olivia, p, pairing = one_game()
    campaign = pairing.round.campaign
    for member in (p["ann"], p["ben"]):
        force = ForceFactory(owner=member.user, campaign=campaign)
        CharacterFactory.create_batch(3, force=force)

    league_services.pairing_auto_resolve(pairing=pairing, user=olivia)

    pairing.refresh_from_db()
    assert pairing.battle is not None and pairing.battle.auto_resolved
    assert pairing.is_settled and pairing.winner in ("HOME", "AWAY", "DRAW")


@pytest.mark.django_db
def test_a_locked_round_takes_no_more_reports():
    olivia, p, pairing = one_game()
    league_services.pairing_confirm(
        pairing=pairing, user=olivia, claim=league_services.claim_from(WIN)
    )
    league_services.round_lock(round_=Round.objects.get(pk=pairing.round_id))

    with pytest.raises(LeagueConflict, match="locked"):
        league_services.pairing_report(
            pairing=pairing, user=p["ann"].user, claim=league_services.claim_from(WIN)
        )
