"""Results said in the game's words: the winner by name, Bye, and each report as a sentence."""

from __future__ import annotations

import pytest

from league import services
from league.desk.words import claim_sentence, reports, winner_name
from tests.league.league_helpers import make_league, settle

pytestmark = pytest.mark.django_db


def one_game():
    campaign, olivia, _ = make_league(["ann", "ben", "cid"])
    round_ = services.swiss_round_generate(campaign=campaign)
    game = round_.pairings.get(away__isnull=False)
    bye = round_.pairings.get(away__isnull=True)
    return olivia, game, bye


def test_the_winner_is_named_and_a_bye_says_bye():
    olivia, game, bye = one_game()
    assert winner_name(game) == "Not played yet"

    settle(game, olivia, winner="AWAY", away_vp=3)
    game.refresh_from_db()

    assert winner_name(game) == game.away.player_name
    assert winner_name(bye) == "Bye"


def test_a_report_reads_as_a_sentence():
    _, game, _ = one_game()
    home = game.home.player_name

    said = claim_sentence(
        game, {"winner": "HOME", "home_vp": 4, "away_vp": 1, "major_victory": True}
    )

    assert said == f"{home} won (major victory), 4–1 in victory points, figures lost 0–0"
    assert claim_sentence(game, {"home_no_show": True}) == f"{home} did not turn up"


def test_a_disputed_games_reports_come_home_side_first_with_the_players_names():
    _, game, _ = one_game()
    home_claim = services.claim_from({"winner": "HOME", "home_vp": 2})
    away_claim = services.claim_from({"winner": "AWAY", "away_vp": 2})
    services.pairing_report(pairing=game, user=game.away.user, claim=away_claim)
    services.pairing_report(pairing=game, user=game.home.user, claim=home_claim)
    game.refresh_from_db()

    said = [(side, name, claim["winner"]) for side, name, _, claim in reports(game)]

    assert said == [
        ("home", game.home.player_name, "HOME"),
        ("away", game.away.player_name, "AWAY"),
    ]
