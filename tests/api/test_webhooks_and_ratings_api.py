"""Webhooks and the club rating through the REST API, role by role.

alice and bob play in the campaign, olivia organises it, charlie is a stranger, and anonymous
is not signed in. Organisers manage hooks; members read ratings; strangers get 404.
"""

from __future__ import annotations

import pytest

from notices.models import Webhook
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

DENIED_ANONYMOUS = {401, 403}
HOOK = {"name": "Club Discord", "url": "https://chat.example.org/hook", "format": "discord"}


def _hook(story) -> Webhook:
    return Webhook.objects.create(campaign=story.campaign, name="Old hook", url=HOOK["url"])


def _client(story, as_user, actor):
    return as_user(None if actor == "anonymous" else getattr(story, actor))


@pytest.mark.parametrize(
    ("actor", "expected"),
    [("olivia", 201), ("alice", 403), ("bob", 403), ("charlie", 404), ("anonymous", None)],
)
def test_only_organisers_add_a_webhook(story, as_user, actor, expected):
    client = _client(story, as_user, actor)

    response = client.post(f"/api/campaigns/{story.campaign.pk}/webhooks/", HOOK, format="json")

    if expected is None:
        assert response.status_code in DENIED_ANONYMOUS
    else:
        assert response.status_code == expected, response.content
    assert Webhook.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize(
    ("method", "body", "organiser"),
    [
        ("get", None, 200),
        ("patch", {"active": False}, 200),
        ("delete", None, 204),
    ],
)
@pytest.mark.parametrize(
    ("actor", "member"), [("olivia", None), ("alice", 403), ("charlie", 404), ("anonymous", 0)]
)
def test_a_webhook_is_the_organisers_to_read_change_and_remove(
    story, as_user, method, body, organiser, actor, member
):
    hook = _hook(story)
    client = _client(story, as_user, actor)

    url = f"/api/campaigns/{story.campaign.pk}/webhooks/{hook.pk}/"
    response = getattr(client, method)(url, body, format="json")

    if actor == "anonymous":
        assert response.status_code in DENIED_ANONYMOUS
    else:
        assert response.status_code == (organiser if actor == "olivia" else member)
    if actor != "olivia":
        assert Webhook.objects.get(pk=hook.pk).active is True


def test_the_organisers_list_shows_the_secret_to_check_signatures(story, as_user):
    hook = _hook(story)

    response = as_user(story.olivia).get(f"/api/campaigns/{story.campaign.pk}/webhooks/")

    assert response.status_code == 200
    assert [(row["id"], row["secret"]) for row in response.json()] == [(hook.pk, hook.secret)]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**HOOK, "url": "ftp://chat.example.org/hook"}, "url"),
        ({**HOOK, "url": "https://user:pw@chat.example.org/hook"}, "url"),
        ({**HOOK, "events": ["nonesuch"]}, "events"),
        ({**HOOK, "format": "xml"}, "format"),
    ],
)
def test_a_bad_webhook_is_a_400_naming_the_field_and_nothing_is_saved(story, as_user, body, field):
    response = as_user(story.olivia).post(
        f"/api/campaigns/{story.campaign.pk}/webhooks/", body, format="json"
    )

    assert response.status_code == 400
    assert field in response.json()
    assert not Webhook.objects.exists()


def test_switching_a_disabled_hook_back_on_clears_its_failures(story, as_user):
    hook = _hook(story)
    Webhook.objects.filter(pk=hook.pk).update(active=False, failures_in_row=7)

    response = as_user(story.olivia).patch(
        f"/api/campaigns/{story.campaign.pk}/webhooks/{hook.pk}/", {"active": True}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["active"], response.json()["failures_in_row"]) == (True, 0)


@pytest.mark.parametrize(
    ("actor", "expected"),
    [("olivia", 200), ("alice", 200), ("bob", 200), ("charlie", 404), ("anonymous", None)],
)
def test_members_read_the_club_rating_best_first(story, as_user, actor, expected):
    club = story.campaign.club
    PlayerRating.objects.create(club=club, user=story.alice, rating=1620.0, games=3)
    PlayerRating.objects.create(club=club, user=story.bob, rating=1480.0, games=3)
    client = _client(story, as_user, actor)

    response = client.get(f"/api/campaigns/{story.campaign.pk}/ratings/")

    if expected is None:
        assert response.status_code in DENIED_ANONYMOUS
        return
    assert response.status_code == expected
    if expected == 200:
        assert [(r["player"], r["rating"]) for r in response.json()] == [
            ("alice", 1620.0),
            ("bob", 1480.0),
        ]


def test_the_schema_lists_the_webhook_and_rating_paths(api_client):
    paths = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]

    assert set(paths["/api/campaigns/{campaign_pk}/webhooks/"]) >= {"get", "post"}
    assert set(paths["/api/campaigns/{campaign_pk}/webhooks/{id}/"]) >= {"get", "patch", "delete"}
    assert set(paths["/api/campaigns/{campaign_pk}/ratings/"]) == {"get"}
