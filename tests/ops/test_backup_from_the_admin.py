"""Backups from the campaign's admin page: the organiser downloads the campaign and restores it
as a copy under a new name and slug in the same club (no JSON edited by hand); the players'
written reports come along; the copy's games are not rated a second time."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns.models import Campaign
from league import services
from league.models import Pairing, PairingReport
from ratings.models import RatedGame
from ratings.services import ratings_recompute
from tests.league.league_helpers import make_league, settle

pytestmark = pytest.mark.django_db


def played_league():
    campaign, olivia, p = make_league(["ann", "ben"], name="Winter League", slug="winter")
    services.round_create_manual(campaign=campaign, pairings=[(p["ann"], p["ben"])])
    game = Pairing.objects.get(round__campaign=campaign)
    services.pairing_report_file(
        pairing=game,
        user=p["ann"].user,
        claim=services.claim_from({"winner": "HOME", "home_vp": 3}),
        text="Held the bridge.",
    )
    settle(game, olivia, winner="HOME", home_vp=3)
    return campaign, olivia


def test_an_organiser_restores_a_copy_into_the_same_club_with_its_written_reports(client):
    campaign, olivia = played_league()
    client.force_login(olivia)
    backup = client.get(f"/admin/campaigns/campaign/{campaign.pk}/backup.json")
    upload = SimpleUploadedFile("winter.json", backup.content, "application/json")

    answer = client.post(
        f"/admin/campaigns/campaign/{campaign.pk}/backup/",
        {
            "document": upload,
            "name": "Winter (copy)",
            "slug": "winter-copy",
            "club": campaign.club_id,
        },
    )

    copy = Campaign.objects.get(club=campaign.club, slug="winter-copy")
    assert answer.status_code == 302 and copy.name == "Winter (copy)"
    assert copy.copy_of == "winter"
    report = PairingReport.objects.get(pairing__round__campaign=copy)
    assert report.text == "Held the bridge." and report.reporter.username == "ann"


def test_a_restored_copy_is_not_rated_twice(client):
    campaign, olivia = played_league()
    client.force_login(olivia)
    backup = client.get(f"/admin/campaigns/campaign/{campaign.pk}/backup.json")
    upload = SimpleUploadedFile("winter.json", backup.content, "application/json")
    client.post(
        f"/admin/campaigns/campaign/{campaign.pk}/backup/",
        {
            "document": upload,
            "name": "Winter (copy)",
            "slug": "winter-copy",
            "club": campaign.club_id,
        },
    )

    rated = ratings_recompute(club=campaign.club)

    assert rated == 1
    assert RatedGame.objects.filter(club=campaign.club).count() == 1


def test_a_slug_already_taken_in_the_club_is_a_form_error_and_nothing_is_written(client):
    campaign, olivia = played_league()
    client.force_login(olivia)
    backup = client.get(f"/admin/campaigns/campaign/{campaign.pk}/backup.json")
    upload = SimpleUploadedFile("winter.json", backup.content, "application/json")

    answer = client.post(
        f"/admin/campaigns/campaign/{campaign.pk}/backup/",
        {"document": upload, "name": "Again", "slug": "winter", "club": campaign.club_id},
    )

    assert answer.status_code == 200 and b"already has a campaign" in answer.content
    assert Campaign.objects.count() == 1
