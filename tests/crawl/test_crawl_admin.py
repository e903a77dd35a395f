"""The crawl of the admin as a staff superuser, over a campaign of every rule system: every
changelist and add form, the change forms they link to and each system's campaign, force,
character and battle, and every link and form on them, answer without a server error."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from campaign_backup.campaign import campaign_export
from campaign_backup.models import RestoreJob
from campaign_backup.services import restore_job_request, restore_job_run
from rules.system import all_systems
from tests.crawl.crawler import Caps, Crawl, clean, report
from tests.crawl.world import STAFF, World, make_world

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl


def _admin_url(model, view: str, *args) -> str | None:
    try:
        return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)
    except NoReverseMatch:
        return None


def admin_seeds(worlds: list[World]) -> list[str]:
    """The admin index, every model's changelist and add form (their links lead to change
    forms), and the change forms that differ by rule system: each system's force (its
    characters inline, with the system's stat fields), campaign, character and battle."""
    seeds = ["/admin/", "/api/schema/"]
    for model in admin.site._registry:
        seeds += [_admin_url(model, "changelist"), _admin_url(model, "add")]
    for world in worlds:
        force = world.forces[0]
        battle = world.campaign.battles.order_by("pk").last()
        for obj in (world.campaign, force, force.characters.order_by("pk").first(), battle):
            seeds.append(_admin_url(type(obj), "change", obj.pk) if obj else None)
    return [s for s in dict.fromkeys(seeds) if s]


def restore_job_seeds(world: World) -> list[str]:
    """The job pages of restores of the world's campaign as a copy: waiting (the page polls
    its progress), done (it links to the copy) and failed (it shows the error)."""
    document = campaign_export(campaign=world.campaign)
    user = world.users[STAFF]
    jobs = {
        state: restore_job_request(
            document=document,
            club=world.campaign.club,
            name=f"Copy {state}",
            slug=f"copy-{state}",
            user=user,
            source=world.campaign,
        )
        for state in ("waiting", "done", "failed")
    }
    restore_job_run(job_id=jobs["done"].pk)
    RestoreJob.objects.filter(pk=jobs["failed"].pk).update(
        status=RestoreJob.Status.FAILED, error="the restore stopped: RuntimeError"
    )
    return [f"/admin/campaigns/campaign/restores/{job.pk}/" for job in jobs.values()]


def test_no_admin_page_link_or_form_answers_a_server_error(crawled_worlds):
    worlds = crawled_worlds([make_world(s.key, every_state=False) for s in all_systems()])
    caps = Caps(objects_per_route=3, routes={"admin/": 2}, after_post=False)
    crawl = Crawl(worlds[0].client(STAFF), STAFF, _state_of(worlds), caps)

    crawl.run([*admin_seeds(worlds), *restore_job_seeds(worlds[0])])
    crawl.failures[:0] = [failure for world in worlds for failure in world.failures]
    result = report([crawl])

    assert clean(result), result


def _state_of(worlds: list[World]):
    def state_of(route: str, kwargs: dict) -> str:
        for world in worlds:
            state = world.state_of(route, kwargs)
            if not state.endswith(": site"):
                return state
        return "admin"

    return state_of
