"""Writes that change nothing change nothing, and a disputed claim holds only what a result
could: the same report sent twenty times is one version and one announcement; a second
reporter's out-of-range numbers are refused rather than kept in the dispute."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league import services
from league.models import Pairing
from notices.models import Event
from tests.league.league_helpers import make_league

WIN = {"winner": "HOME", "home_vp": 8, "away_vp": 3}


def one_game():
    campaign, olivia, p = make_league(["ann", "ben"])
    services.round_create_manual(campaign=campaign, pairings=[(p["ann"], p["ben"])])
    return olivia, p, Pairing.objects.get(round__campaign=campaign)


@pytest.mark.django_db
def test_twenty_identical_reports_are_one_version():
    _, p, pairing = one_game()
    claim = services.claim_from(WIN)

    for _ in range(20):
        services.pairing_report(pairing=pairing, user=p["ann"].user, claim=claim)

    pairing.refresh_from_db()
    assert pairing.version == 1
    assert Event.objects.filter(kind="result_reported").count() == 1


@pytest.mark.django_db
def test_a_repeated_disputing_report_is_one_version_too():
    _, p, pairing = one_game()
    services.pairing_report(pairing=pairing, user=p["ann"].user, claim=services.claim_from(WIN))
    draw = services.claim_from({"winner": "DRAW"})

    for _ in range(5):
        services.pairing_report(pairing=pairing, user=p["ben"].user, claim=draw)

    pairing.refresh_from_db()
    assert pairing.disputed and pairing.version == 2


@pytest.mark.django_db
def test_a_changed_report_is_still_a_new_version():
    _, p, pairing = one_game()
    services.pairing_report(pairing=pairing, user=p["ann"].user, claim=services.claim_from(WIN))
    services.pairing_report(
        pairing=pairing, user=p["ann"].user, claim=services.claim_from({**WIN, "home_vp": 9})
    )

    pairing.refresh_from_db()
    assert (pairing.version, pairing.home_vp) == (2, 9)


@pytest.mark.parametrize("field", ["home_vp", "away_vp", "home_figures_lost", "away_figures_lost"])
@pytest.mark.django_db
def test_a_second_reporters_claim_beyond_any_game_is_refused_and_not_kept(field):
    _, p, pairing = one_game()
    services.pairing_report(pairing=pairing, user=p["ann"].user, claim=services.claim_from(WIN))

    with pytest.raises(ValidationError) as refused:
        services.claim_from({**WIN, field: 10**12})

    assert field in refused.value.message_dict
    pairing.refresh_from_db()
    assert not pairing.disputed and pairing.disputed_claim == {}


@pytest.mark.django_db
def test_the_api_answers_an_out_of_range_claim_with_a_400_naming_it(api_client):
    _, p, pairing = one_game()
    api_client.force_authenticate(user=p["ann"].user)
    api_client.post(f"/api/pairings/{pairing.pk}/report/", WIN, format="json")
    api_client.force_authenticate(user=p["ben"].user)

    response = api_client.post(
        f"/api/pairings/{pairing.pk}/report/", {**WIN, "away_vp": 10**12}, format="json"
    )

    assert response.status_code == 400
    assert "away_vp" in response.json()
    pairing.refresh_from_db()
    assert pairing.disputed_claim == {} and pairing.version == 1
