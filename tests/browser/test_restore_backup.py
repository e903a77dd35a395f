"""A club admin backs a league up and restores it as a copy, in a real browser at 1,280 px:
download the backup from the campaign's page, upload it with a new slug, follow the job page to
the copy. A job still running updates by itself (htmx) until it links to the copy."""

from __future__ import annotations

import pytest

from campaign_backup.campaign import campaign_export
from campaign_backup.models import RestoreJob, RestoreProgress
from campaigns.models import Campaign
from tests.browser.conftest import DESKTOP
from tests.browser.test_season_admin import (
    no_wider_than_the_screen,
    photograph,
    sign_in_to_the_admin,
)
from tests.factories import CampaignFactory
from tests.ops.test_backup_from_the_admin import played_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_downloads_a_backup_and_restores_it_as_a_copy(page, live_server, tmp_path):
    campaign, _ = played_league()
    page.set_viewport_size(DESKTOP)
    sign_in_to_the_admin(page, live_server, "olivia")
    page.goto(f"{live_server.url}/admin/campaigns/campaign/{campaign.pk}/change/")
    page.get_by_role("link", name="Backup and copy").click()
    no_wider_than_the_screen(page)
    photograph(page, "backup-and-copy")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download winter.json").click()
    backup = tmp_path / "winter.json"
    download.value.save_as(backup)

    page.set_input_files("#id_document", str(backup))
    page.fill("#id_name", "Winter League (archive)")
    page.fill("#id_slug", "winter-archive")
    page.get_by_role("button", name="Restore as a copy").click()

    page.get_by_role("link", name="Open Winter League (archive)").wait_for()
    no_wider_than_the_screen(page)
    photograph(page, "restore-done")
    page.get_by_role("link", name="Open Winter League (archive)").click()
    page.wait_for_url("**/change/")
    copy = Campaign.objects.get(slug="winter-archive")
    assert page.url.endswith(f"/admin/campaigns/campaign/{copy.pk}/change/")


def test_a_running_restore_page_updates_itself_until_it_links_to_the_copy(page, live_server):
    campaign, olivia = played_league()
    # A job a worker is half way through (tasks run inline here, so it is made by hand).
    job = RestoreJob.objects.create(
        club=campaign.club,
        source=campaign,
        name="Winter (copy)",
        slug="winter-copy",
        document=campaign_export(campaign=campaign),
        idempotency_key="browser",
        status=RestoreJob.Status.RUNNING,
        attempts=1,
        created_by=olivia,
    )
    RestoreProgress.objects.create(job=job, step="Pairings", rows_done=6, rows_total=8)
    page.set_viewport_size(DESKTOP)
    sign_in_to_the_admin(page, live_server, "olivia")

    page.goto(f"{live_server.url}/admin/campaigns/campaign/restores/{job.pk}/")
    page.get_by_text("Pairings: 6 of 8 rows written").wait_for()
    no_wider_than_the_screen(page)
    photograph(page, "restore-running")
    copy = CampaignFactory(club=campaign.club, slug="winter-copy", name="Winter (copy)")
    RestoreJob.objects.filter(pk=job.pk).update(
        status=RestoreJob.Status.DONE, restored=copy, document=None
    )

    page.get_by_role("link", name="Open Winter (copy)").wait_for(timeout=5_000)
