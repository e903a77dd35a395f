"""A round's results page: one row per game, a whole round saved in one submit, a bad row
refusing the whole round with its error on the row, and the same queries at 8 and 64 players."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Pairing
from tests.admin.season import seeded_season
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


def results_url(round_) -> str:
    return f"/admin/league/round/{round_.pk}/results/"


def page_data(response) -> dict:
    """Return the results form's POST data as rendered (every row as it stands)."""
    data: dict = {}
    for row in response.context["rows"]:
        if row.form is None:
            continue
        for name in row.form.fields:
            value = row.form[name].value()
            if value is None or value is False:
                continue
            data[row.form.add_prefix(name)] = "on" if value is True else value
    return data


def home_wins(data: dict, pairing: Pairing, home_vp: int = 3, away_vp: int = 1) -> None:
    prefix = f"p{pairing.pk}-"
    data.update(
        {prefix + "winner": "HOME", prefix + "home_vp": home_vp, prefix + "away_vp": away_vp}
    )


def test_the_page_names_both_players_and_offers_their_names_as_the_winner(client):
    season = seeded_season()
    client.force_login(season.olivia)

    response = client.get(results_url(season.round_two))

    page = response.content.decode()
    first = season.round_two.pairings.order_by("table").first()
    assert f"Table 1: {first.home.player_name}" in page
    labels = [label for _, label in response.context["rows"][0].form.fields["winner"].choices]
    assert labels == [first.home.player_name, first.away.player_name, "Draw", "Not played yet"]


def test_a_full_round_is_saved_in_one_submit(client):
    season = seeded_season()
    client.force_login(season.olivia)
    round_ = season.round_two
    data = page_data(client.get(results_url(round_)))
    for pairing in round_.pairings.all():
        home_wins(data, pairing)
    data["round-deadline"] = "2026-12-24"

    response = client.post(results_url(round_), data, follow=True)

    assert "4 result(s) recorded and confirmed" in response.content.decode()
    saved = list(round_.pairings.values_list("winner", "home_vp", "confirmed_by_organiser"))
    assert saved == [("HOME", 3, True)] * 4
    round_.refresh_from_db()
    assert str(round_.deadline) == "2026-12-24"


def test_a_row_without_a_winner_refuses_the_whole_round_with_the_error_on_that_row(client):
    season = seeded_season()
    client.force_login(season.olivia)
    round_ = season.round_two
    pairings = list(round_.pairings.order_by("table"))
    data = page_data(client.get(results_url(round_)))
    for pairing in pairings[:3]:
        home_wins(data, pairing)
    data[f"p{pairings[3].pk}-home_vp"] = 2  # a score but no winner

    response = client.post(results_url(round_), data)

    assert response.status_code == 200
    bad = next(r for r in response.context["rows"] if r.pairing.pk == pairings[3].pk)
    assert bad.form.non_field_errors() == ["Choose who won (or a draw) before saving this game."]
    assert "Nothing was saved" in response.content.decode()
    assert not round_.pairings.exclude(winner="").exists()


def test_a_row_the_service_refuses_rolls_back_the_rows_already_recorded(client):
    season = seeded_season()
    client.force_login(season.olivia)
    round_ = season.round_two
    pairings = list(round_.pairings.order_by("table"))
    data = page_data(client.get(results_url(round_)))
    for pairing in pairings:
        home_wins(data, pairing)
    data[f"p{pairings[-1].pk}-version"] = 7  # someone else changed the last game meanwhile

    response = client.post(results_url(round_), data)

    last = next(r for r in response.context["rows"] if r.pairing.pk == pairings[-1].pk)
    assert "the result changed since you loaded it" in last.form.non_field_errors()[0]
    assert not round_.pairings.filter(confirmed_by_organiser=True).exists()


def test_submitting_the_same_page_twice_changes_nothing_the_second_time(client):
    season = seeded_season()
    client.force_login(season.olivia)
    round_ = season.round_two
    data = page_data(client.get(results_url(round_)))
    for pairing in round_.pairings.all():
        home_wins(data, pairing)
    client.post(results_url(round_), data)
    versions = list(round_.pairings.order_by("pk").values_list("version", flat=True))

    again = client.post(results_url(round_), data, follow=True)

    assert list(round_.pairings.order_by("pk").values_list("version", flat=True)) == versions
    assert "Round 2: nothing changed." in again.content.decode()


def test_the_disputed_games_rows_show_both_reports(client):
    season = seeded_season()
    client.force_login(season.olivia)

    response = client.get(results_url(season.disputed.round))

    row = next(r for r in response.context["rows"] if r.pairing.pk == season.disputed.pk)
    assert [name for _, name, _, _ in row.reports] == [
        season.disputed.home.player_name,
        season.disputed.away.player_name,
    ]


def test_an_organiser_of_another_campaign_cannot_open_the_round(client):
    season = seeded_season()
    _, oscar, _ = make_league(["xavier", "yvonne"], organiser="oscar")
    client.force_login(oscar)

    assert client.get(results_url(season.round_two)).status_code == 404
    assert client.get(f"/admin/league/round/{season.round_two.pk}/sheet/").status_code == 404


def test_the_pairing_sheet_lists_tables_players_and_forces(client):
    from tests.factories import ForceFactory

    season = seeded_season()
    first = season.round_two.pairings.order_by("table").first()
    ForceFactory(owner=first.home.user, campaign=season.campaign, name="Red Company")
    client.force_login(season.olivia)

    page = client.get(f"/admin/league/round/{season.round_two.pk}/sheet/").content.decode()

    assert "Winter League — round 2" in page
    assert "Red Company" in page
    assert "@page" in page


def _queries(client, size: int, organiser: str) -> int:
    season = seeded_season(size, organiser=organiser)
    client.force_login(season.olivia)
    url = results_url(season.round_two)
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_round_page_takes_the_same_number_of_queries_at_8_and_64_players(client):
    assert _queries(client, 8, "olivia") == _queries(client, 64, "otto")
