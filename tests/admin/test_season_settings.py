"""The season settings page: every setting in one place, the standings previewed under the
settings on the screen without saving them (htmx or the Preview button), then saved at once."""

from __future__ import annotations

import pytest

from league.models import League, PairingMethod
from tests.admin.season import seeded_season
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.django_db


def season_url(campaign) -> str:
    return f"/admin/campaigns/campaign/{campaign.pk}/season/"


def settings_data(response) -> dict:
    data: dict = {}
    for form in (response.context["season_form"], response.context["schedule_form"]):
        for name in form.fields:
            value = form[name].value()
            if value is not None and value is not False:
                data[form.add_prefix(name)] = value
    return data


def points_of(response) -> list[int]:
    return sorted((row.points for row, _ in response.context["standings_rows"]), reverse=True)


def test_the_preview_scores_with_the_unsaved_settings_and_saves_nothing(client):
    season = seeded_season()
    client.force_login(season.olivia)
    data = settings_data(client.get(season_url(season.campaign)))
    data["league-win_points"] = 5

    preview = client.post(season_url(season.campaign) + "preview/", data)

    assert preview.status_code == 200
    assert points_of(preview)[0] == 5
    assert "not saved" in preview.content.decode()
    assert League.objects.get(campaign=season.campaign).win_points == 3


def test_without_javascript_the_preview_button_shows_the_same_table_on_the_page(client):
    season = seeded_season()
    client.force_login(season.olivia)
    data = settings_data(client.get(season_url(season.campaign)))
    data.update({"league-win_points": 5, "_preview": "Preview"})

    response = client.post(season_url(season.campaign), data)

    assert response.status_code == 200
    assert points_of(response)[0] == 5
    assert League.objects.get(campaign=season.campaign).win_points == 3


def test_a_nonsense_setting_is_refused_on_its_field_and_previews_the_saved_table(client):
    season = seeded_season()
    client.force_login(season.olivia)
    data = settings_data(client.get(season_url(season.campaign)))
    data["league-draw_points"] = 9  # a draw worth more than a win

    response = client.post(season_url(season.campaign), data)

    assert response.context["season_form"].errors
    assert points_of(response)[0] == 3
    assert League.objects.get(campaign=season.campaign).draw_points == 1


def test_saving_sets_scoring_pairing_method_deadlines_and_a_drop_out_at_once(client):
    season = seeded_season()
    client.force_login(season.olivia)
    round_two = season.round_two
    leaver = round_two.pairings.order_by("table").first().home
    data = settings_data(client.get(season_url(season.campaign)))
    data.update(
        {
            "league-win_points": 4,
            "league-pairing_method": PairingMethod.MANUAL,
            f"schedule-deadline_{round_two.pk}": "2026-12-31",
            f"schedule-withdraw_{leaver.pk}": 2,
        }
    )

    response = client.post(season_url(season.campaign), data, follow=True)

    assert "season settings saved; 1 game(s) forfeited by drop-outs" in response.content.decode()
    league = League.objects.get(campaign=season.campaign)
    assert (league.win_points, league.pairing_method) == (4, PairingMethod.MANUAL)
    round_two.refresh_from_db()
    assert str(round_two.deadline) == "2026-12-31"
    leaver.refresh_from_db()
    assert leaver.withdrawn_from_round == 2


def test_another_campaigns_organiser_cannot_open_or_preview_the_settings(client):
    season = seeded_season()
    _, oscar, _ = make_league(["xavier", "yvonne"], organiser="oscar")
    client.force_login(oscar)

    assert client.get(season_url(season.campaign)).status_code == 404
    assert client.post(season_url(season.campaign) + "preview/", {}).status_code == 404
