"""Object-level permissions over every admin page, for the five actors.

Players (owner, other player) and anonymous visitors are not staff: every admin page sends
them to the admin login. Organisers are staff with the club-organiser permissions over
Muster's apps: olivia runs this campaign and sees its rows; oscar runs another campaign, so
no change page of this campaign's rows opens for him and no list shows its private names.
The pages come from the admin registry, so a newly registered model is covered at once.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.urls import reverse

from rosters.models import ServiceRecordEntry
from tests.security.world import World, build_world

pytestmark = pytest.mark.django_db

APPS = ("rosters", "campaigns", "battles", "league", "printing")
PRIVATE_NAMES = (b"Gridley", b"Thirty Years")


def _registered():
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in APPS
    ]


def _story_object(w: World, model):
    objects = [
        w.campaign,
        w.membership,
        w.round,
        w.pairing,
        w.force,
        w.unit,
        w.character,
        w.battle,
        w.print_job,
        ServiceRecordEntry.objects.filter(character=w.character).first(),
        w.battle.figures.first(),
        w.battle.sides.first(),
    ]
    return next((o for o in objects if o is not None and isinstance(o, model)), None)


def _urls(w: World) -> list[tuple[str, bool]]:
    """Every admin page of Muster's apps, and whether it is a page of one story row."""
    urls = []
    for model, _ in _registered():
        info = (model._meta.app_label, model._meta.model_name)
        urls.append((reverse("admin:{}_{}_changelist".format(*info)), False))
        row = _story_object(w, model)
        if row is not None:
            urls.append((reverse("admin:{}_{}_change".format(*info), args=[row.pk]), True))
    return urls


def _organisers_are_staff(w: World) -> None:
    permissions = Permission.objects.filter(content_type__app_label__in=APPS)
    for actor in ("organiser", "other_organiser"):
        user = w.user(actor)
        user.is_staff = True
        user.save()
        user.user_permissions.set(permissions)


@pytest.mark.parametrize("actor", ["owner", "player", "anonymous"])
def test_players_and_visitors_are_sent_to_the_admin_login_from_every_page(client, actor):
    w = build_world()
    if w.user(actor):
        client.force_login(w.user(actor))

    for url, _ in _urls(w):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/"), url


def test_the_organiser_opens_every_page_of_their_own_campaign(client):
    w = build_world()
    _organisers_are_staff(w)
    client.force_login(w.user("organiser"))

    # Print jobs are private to whoever asked for them, organiser or not: a job's parameters can
    # name any force. The organiser did not ask for the world's job, so its page stays closed.
    others_job = reverse("admin:printing_printjob_change", args=[w.print_job.pk])
    opened = {url: client.get(url).status_code for url, _ in _urls(w) if url != others_job}

    assert set(opened.values()) == {200}, {u: c for u, c in opened.items() if c != 200}
    assert client.get(others_job).status_code == 302


def test_staff_see_only_the_print_jobs_they_asked_for(client):
    w = build_world()
    _organisers_are_staff(w)
    client.force_login(w.user("organiser"))

    listed = client.get(reverse("admin:printing_printjob_changelist"))

    assert listed.status_code == 200
    assert listed.context["cl"].result_count == 0


#: Admins not yet scoped to the organiser's campaigns (reported with the fix in docs/security.md:
#: reuse campaigns.admin.CampaignScoped). strict: the day one is fixed, its xfail must go.
KNOWN_UNSCOPED: set[str] = set()


def _model_params():
    return [
        pytest.param(
            model,
            id=model._meta.label_lower,
            marks=[
                pytest.mark.xfail(
                    strict=True, reason="admin not scoped to the organiser's campaigns"
                )
            ]
            if model._meta.label_lower in KNOWN_UNSCOPED
            else [],
        )
        for model, _ in _registered()
    ]


@pytest.mark.parametrize("model", _model_params())
def test_another_campaigns_organiser_opens_no_row_and_lists_no_name_of_this_campaign(client, model):
    w = build_world()
    _organisers_are_staff(w)
    client.force_login(w.user("other_organiser"))
    info = (model._meta.app_label, model._meta.model_name)
    row = _story_object(w, model)
    leaks = []

    listed = client.get(reverse("admin:{}_{}_changelist".format(*info)))
    if any(n in listed.content for n in PRIVATE_NAMES):
        leaks.append("the list shows a private name")
    if (
        row is not None
        and client.get(reverse("admin:{}_{}_change".format(*info), args=[row.pk])).status_code
        == 200
    ):
        leaks.append(f"the change page of {row!r} opens")

    assert not leaks, leaks
