"""The admin reads like the game: systems by name, player selects without the related-object
widgets and with short labels, the winner by name, history as field changes."""

from __future__ import annotations

import pytest

from rosters import services as rosters
from tests.admin.season import seeded_season
from tests.factories import CharacterFactory, ForceFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_campaign_list_names_the_rule_system(client):
    season = seeded_season()
    client.force_login(season.olivia)

    page = client.get("/admin/campaigns/campaign/").content.decode()

    assert "Rencounter" in page
    assert ">rencounter<" not in page


def test_a_rounds_player_selects_have_short_labels_and_no_related_widgets(client):
    season = seeded_season()
    client.force_login(season.olivia)

    page = client.get(f"/admin/league/round/{season.round_two.pk}/change/").content.decode()

    first = season.round_two.pairings.order_by("table").first()
    # the player and their forces ("alice — Gridley's Own"), not the membership's long name
    assert f">{first.home.player_name} — " in page
    assert "in Winter League" not in page
    assert "delete_id_pairings" not in page
    assert "change_id_pairings" not in page
    assert "add_id_pairings" not in page


def test_the_campaign_page_names_the_winner_and_shows_a_bye(client):
    from league import services
    from league.models import Pairing
    from tests.league.league_helpers import make_league, settle

    campaign, olivia, _ = make_league(["alice", "bob", "carol"])
    round_ = services.swiss_round_generate(campaign=campaign)
    game = Pairing.objects.get(round=round_, away__isnull=False)
    settle(game, olivia, winner="AWAY", away_vp=2)
    client.force_login(olivia)

    response = client.get(f"/admin/campaigns/campaign/{campaign.pk}/change/")

    winners = [w for _, w, _ in response.context["round_pairings"]]
    assert sorted(winners) == sorted([game.away.player_name, "Bye"])
    assert 'data-testid="round-winner">Home<' not in response.content.decode()
    assert 'data-testid="round-winner">Bye<' in response.content.decode()


def test_a_characters_service_record_lists_field_changes_in_the_systems_words(client):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    force = ForceFactory(owner=admin)
    character = CharacterFactory(force=force, name="Gridley")
    old = character.stats["fire"]
    rosters.character_update(character=character, user=admin, stats={"fire": old + 1})
    client.force_login(admin)

    page = client.get(f"/admin/rosters/character/{character.pk}/change/").content.decode()

    assert f"<li>Fire skill: {old} → {old + 1}</li>" in page
    assert '{"stats"' not in page


def test_the_campaign_pages_membership_rows_name_the_player_alone(client):
    season = seeded_season()
    client.force_login(season.olivia)

    page = client.get(f"/admin/campaigns/campaign/{season.campaign.pk}/change/").content.decode()

    assert "alice in Winter League" not in page
    assert "delete_id_memberships" not in page
