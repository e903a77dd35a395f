"""Restore jobs: a backup uploaded in the admin is checked up front, stored, restored by the
worker with progress, exactly once (a double submit, a retry, a worker killed half way), and
followed on a job page only the people who may restore into that club can see.

olivia runs the Winter League; oscar administers another club; sam is staff who runs nothing;
ann is a player (not staff)."""

from __future__ import annotations

import codecs
import copy
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from battles.models import BattleEvent
from campaign_backup import campaign as backup
from campaign_backup.campaign import campaign_export, campaign_import, row_count
from campaign_backup.models import RestoreJob
from campaign_backup.services import restore_job_request, restore_job_run, restore_jobs_sweep
from campaigns.models import Campaign, Membership
from league.models import PairingReport
from rosters.models import Character
from tests.battles.conftest import fought_battle, make_cast
from tests.factories import CampaignFactory, ClubFactory, UserFactory
from tests.ops.test_backup_from_the_admin import backup_of, played_league, restore

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """A worker process dying mid-task: nothing in the task gets to catch it."""


def counts() -> dict[str, int]:
    tables = (Campaign, Membership, Character, BattleEvent, PairingReport, RestoreJob)
    return {model.__name__: model.objects.count() for model in tables}


@pytest.fixture
def league():
    return played_league()


@pytest.fixture
def document(league):
    return campaign_export(campaign=league[0])


def queued(league, document, **kwargs) -> RestoreJob:
    campaign, olivia = league
    fields = {"name": "Winter (copy)", "slug": "winter-copy", **kwargs}
    return restore_job_request(
        document=document, club=campaign.club, user=olivia, source=campaign, **fields
    )


# --- the upload is checked before anything is stored ---------------------------------------


def _refused(client, league, content: bytes) -> str:
    campaign, olivia = league
    client.force_login(olivia)
    before = counts()

    answer = restore(client, campaign, content)

    assert answer.status_code == 200
    assert counts() == before
    return answer.content.decode()


def test_a_file_too_big_is_refused_before_it_is_read(client, league, settings):
    settings.BACKUP_MAX_BYTES = 1024

    page = _refused(client, league, b" " * 2048)

    assert "larger than" in page and "BACKUP_MAX_BYTES" in page


def test_json_nested_thousands_deep_is_refused_in_words(client, league):
    page = _refused(client, league, b"[" * 5000 + b"]" * 5000)

    assert "nested more than" in page


def test_a_file_that_is_not_utf8_is_refused_naming_the_byte(client, league):
    page = _refused(
        client, league, '{"format": "muster.campaign", "x": "Gräfin"}'.encode("latin-1")
    )

    assert "not UTF-8 text (byte 0xe4" in page


def test_a_force_file_is_refused_as_the_wrong_kind_of_backup(client, league):
    page = _refused(client, league, json.dumps({"format": "muster.force", "version": 1}).encode())

    assert "this is a muster.force file" in page


def test_a_backup_of_an_unknown_rule_system_is_refused(client, league, document):
    document["campaign"]["system"] = "chess"

    page = _refused(client, league, json.dumps(document).encode())

    assert "campaign.system: &#x27;chess&#x27; is not a rule system here" in page


def test_nan_in_a_backup_is_refused(client, league):
    assert "not a number JSON allows" in _refused(client, league, b'{"format": NaN}')


def test_a_backup_saved_as_utf16_by_an_editor_is_read(
    client, league, document, django_capture_on_commit_callbacks
):
    campaign, olivia = league
    client.force_login(olivia)
    content = codecs.BOM_UTF16_LE + json.dumps(document, ensure_ascii=False).encode("utf-16-le")

    with django_capture_on_commit_callbacks(execute=True):
        answer = restore(client, campaign, content)

    assert answer.status_code == 302
    assert Campaign.objects.filter(slug="winter-copy").exists()


# --- failures are shown and change nothing -------------------------------------------------


def test_a_slug_taken_while_the_job_waited_fails_the_job_and_writes_nothing(
    client, league, django_capture_on_commit_callbacks
):
    campaign, olivia = league
    client.force_login(olivia)
    with django_capture_on_commit_callbacks() as sent:  # queued, not yet run
        answer = restore(client, campaign, backup_of(client, campaign))
    CampaignFactory(club=campaign.club, slug="winter-copy", name="Someone was quicker")
    before = counts()

    for send in sent:
        send()

    job = RestoreJob.objects.get()
    assert job.status == RestoreJob.Status.FAILED
    assert "already has a campaign 'winter-copy'" in job.error
    assert counts() == before
    page = client.get(answer["Location"]).content.decode()
    assert "The restore failed" in page and "already has a campaign" in page
    assert "Nothing was written" in page


def test_a_restore_that_breaks_half_way_fails_with_its_reason_and_writes_nothing(
    league, document, monkeypatch
):
    job = queued(league, document)
    before = counts()

    def broken(self, data):  # the league, after forces and battles were written
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(backup._Importer, "_league", broken)
    restore_job_run(job_id=job.pk)

    job.refresh_from_db()
    assert job.status == RestoreJob.Status.FAILED
    assert job.error == "the restore stopped: RuntimeError: disk on fire"
    assert counts() == before
    assert job.progress.step == "Failed: nothing was written"


def test_a_failed_job_asked_for_again_is_queued_again(league, document, monkeypatch):
    monkeypatch.setattr(backup._Importer, "_league", lambda self, data: 1 / 0)
    job = queued(league, document)
    restore_job_run(job_id=job.pk)
    monkeypatch.undo()

    again = queued(league, document)
    restore_job_run(job_id=again.pk)

    again.refresh_from_db()
    assert again.pk == job.pk and again.status == RestoreJob.Status.DONE
    assert again.error == "" and again.restored.slug == "winter-copy"


# --- exactly one copy ------------------------------------------------------------------------


def test_running_a_job_twice_makes_one_copy(league, document):
    job = queued(league, document)

    first, second = restore_job_run(job_id=job.pk), restore_job_run(job_id=job.pk)

    assert (first, second) == (True, False)
    assert Campaign.objects.filter(slug="winter-copy").count() == 1
    job.refresh_from_db()
    assert job.status == RestoreJob.Status.DONE and job.attempts == 1
    assert job.document is None  # the copy is the record now
    assert job.progress.rows_done == job.progress.rows_total == row_count(document)


def test_a_worker_killed_half_way_leaves_nothing_and_the_redelivery_makes_one_copy(
    league, document, monkeypatch
):
    job = queued(league, document)
    before = counts()
    league_step = backup._Importer._league

    def killed(self, data):
        raise WorkerKilled

    monkeypatch.setattr(backup._Importer, "_league", killed)
    with pytest.raises(WorkerKilled):
        restore_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == RestoreJob.Status.RUNNING  # the claim was committed, the rest was not
    assert counts() == before

    monkeypatch.setattr(backup._Importer, "_league", league_step)
    assert restore_job_run(job_id=job.pk)  # the message again (acks_late), or the sweep

    job.refresh_from_db()
    assert job.status == RestoreJob.Status.DONE and job.attempts == 2
    assert Campaign.objects.filter(slug="winter-copy").count() == 1
    assert PairingReport.objects.filter(pairing__round__campaign=job.restored).count() == 1


def test_a_double_submit_finds_the_same_job_and_makes_one_copy(
    client, league, django_capture_on_commit_callbacks
):
    campaign, olivia = league
    client.force_login(olivia)
    content = backup_of(client, campaign)

    with django_capture_on_commit_callbacks(execute=True):
        first = restore(client, campaign, content)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        second = restore(client, campaign, content)

    assert first["Location"] == second["Location"]
    assert sent == []  # nothing queued the second time
    assert RestoreJob.objects.count() == 1
    assert Campaign.objects.filter(slug="winter-copy").count() == 1


def test_another_file_for_a_slug_a_live_job_is_restoring_is_a_form_error(league, document):
    first = queued(league, document)
    other = copy.deepcopy(document)
    other["league"]["pairings"][0]["reports"][0]["text"] = "Lost the bridge."

    with pytest.raises(Exception, match="is already putting a campaign 'winter-copy'"):
        queued(league, other)

    assert RestoreJob.objects.get() == first


# --- progress ---------------------------------------------------------------------------------


def test_the_restore_reports_its_progress_per_table_and_per_chunk(monkeypatch):
    cast = make_cast()
    fought_battle(cast)
    document = campaign_export(campaign=cast.campaign)
    monkeypatch.setattr(backup, "CHUNK_ROWS", 2)
    told: list[tuple[str, int, int]] = []

    campaign_import(
        document=document,
        club_slug="elsewhere",
        progress=lambda step, done, total: told.append((step, done, total)),
    )

    total = row_count(document)
    assert told[0] == ("Campaign", 1, total) and told[-1][1:] == (total, total)
    done = [d for _, d, _ in told]
    assert done == sorted(done)
    assert [s for s, _, _ in told].count("Members") == 2  # 4 members, 2 rows an INSERT
    assert {"Forces", "Characters", "Battles", "Battle figures"} <= {s for s, _, _ in told}


def test_a_running_job_page_shows_the_step_and_polls(client, league, document):
    _, olivia = league
    job = queued(league, document)
    RestoreJob.objects.filter(pk=job.pk).update(status=RestoreJob.Status.RUNNING, attempts=2)
    job.progress.step, job.progress.rows_done, job.progress.rows_total = "Battles", 30, 120
    job.progress.save()
    client.force_login(olivia)

    page = client.get(f"/admin/campaigns/campaign/restores/{job.pk}/").content.decode()
    fragment = client.get(
        f"/admin/campaigns/campaign/restores/{job.pk}/progress/", HTTP_HX_REQUEST="true"
    ).content.decode()

    for html in (page, fragment):
        assert "Battles: 30 of 120 rows written" in html and 'value="25"' in html
        assert 'hx-trigger="every 1s"' in html
        assert "attempt 2 started again" in html
    assert 'http-equiv="refresh"' in page  # without JavaScript


# --- who may follow a job -----------------------------------------------------------------


@pytest.fixture
def job(league, document):
    return queued(league, document)


@pytest.mark.parametrize("suffix", ["", "progress/"])
def test_a_staff_stranger_gets_404_for_the_job_page(client, job, suffix):
    sam = UserFactory(username="sam", is_staff=True)
    client.force_login(sam)

    answer = client.get(f"/admin/campaigns/campaign/restores/{job.pk}/{suffix}")

    assert answer.status_code == 404


def test_the_admin_of_another_club_gets_404(client, job):
    oscar = UserFactory(username="oscar", is_staff=True)
    ClubFactory(admins=[oscar])
    client.force_login(oscar)

    assert client.get(f"/admin/campaigns/campaign/restores/{job.pk}/").status_code == 404


def test_a_player_is_sent_to_the_admin_login(client, job):
    client.force_login(Membership.objects.get(user__username="ann").user)

    answer = client.get(f"/admin/campaigns/campaign/restores/{job.pk}/")

    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


def test_the_admin_of_the_club_follows_the_job_and_finds_it_in_the_list(client, job, league):
    campaign, _ = league
    clara = UserFactory(username="clara", is_staff=True)
    campaign.club.admins.add(clara)
    client.force_login(clara)

    assert client.get(f"/admin/campaigns/campaign/restores/{job.pk}/").status_code == 200
    listed = client.get("/admin/campaign_backup/restorejob/").content.decode()
    assert f"/admin/campaigns/campaign/restores/{job.pk}/" in listed


# --- the sweep and the command line ---------------------------------------------------------


def test_the_sweep_sends_a_job_whose_message_was_lost(job, django_capture_on_commit_callbacks):
    later = timezone.now() + timezone.timedelta(minutes=20)

    with django_capture_on_commit_callbacks(execute=True):
        sent = restore_jobs_sweep(stale_after=timezone.timedelta(minutes=15), now=later)

    job.refresh_from_db()
    assert sent == [job.pk] and job.status == RestoreJob.Status.DONE


def test_the_command_line_restores_a_copy_here_and_now(document, tmp_path, league):
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    call_command("import_campaign", str(path), "--slug", "winter-2", "--name", "Winter 2")

    copy = Campaign.objects.get(slug="winter-2")
    assert copy.name == "Winter 2" and copy.copy_of == "winter"
    assert copy.club == league[0].club
