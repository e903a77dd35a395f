"""Backups from the campaign's admin page: the organiser downloads the campaign and restores it
as a copy under a new name and slug in the same club (no JSON edited by hand). The upload is
checked in the request and restored by the worker (eager here); the job page follows it and
links to the copy. The players' written reports come along; the copy's games are not rated a
second time."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaign_backup.models import RestoreJob
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


def backup_of(client, campaign) -> bytes:
    return client.get(f"/admin/campaigns/campaign/{campaign.pk}/backup.json").content


def restore(client, campaign, content: bytes, *, slug="winter-copy", name="Winter (copy)", **form):
    upload = SimpleUploadedFile("winter.json", content, "application/json")
    body = {"document": upload, "name": name, "slug": slug, "club": campaign.club_id, **form}
    return client.post(f"/admin/campaigns/campaign/{campaign.pk}/backup/", body)


def test_an_organiser_restores_a_copy_into_the_same_club_with_its_written_reports(
    client, django_capture_on_commit_callbacks
):
    campaign, olivia = played_league()
    client.force_login(olivia)
    backup = backup_of(client, campaign)

    with django_capture_on_commit_callbacks(execute=True):
        answer = restore(client, campaign, backup)

    job = RestoreJob.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/admin/campaigns/campaign/restores/{job.pk}/"
    copy = Campaign.objects.get(club=campaign.club, slug="winter-copy")
    assert copy.name == "Winter (copy)" and copy.copy_of == "winter"
    report = PairingReport.objects.get(pairing__round__campaign=copy)
    assert report.text == "Held the bridge." and report.reporter.username == "ann"
    page = client.get(answer["Location"]).content.decode()
    assert f'href="/admin/campaigns/campaign/{copy.pk}/change/"' in page
    assert "hx-trigger" not in page  # done: the page stops polling


def test_a_restored_copy_is_not_rated_twice(client, django_capture_on_commit_callbacks):
    campaign, olivia = played_league()
    client.force_login(olivia)
    with django_capture_on_commit_callbacks(execute=True):
        restore(client, campaign, backup_of(client, campaign))

    rated = ratings_recompute(club=campaign.club)

    assert rated == 1
    assert RatedGame.objects.filter(club=campaign.club).count() == 1


def test_a_slug_already_taken_in_the_club_is_a_form_error_and_nothing_is_written(client):
    campaign, olivia = played_league()
    client.force_login(olivia)

    answer = restore(client, campaign, backup_of(client, campaign), slug="winter", name="Again")

    assert answer.status_code == 200 and b"already has a campaign" in answer.content
    assert Campaign.objects.count() == 1
    assert not RestoreJob.objects.exists()
