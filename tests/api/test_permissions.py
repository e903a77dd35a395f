"""Who may do what, endpoint by endpoint.

alice owns the force, bob is another player in the campaign, olivia organises it, charlie is
a stranger, and anonymous is not signed in. Strangers get 404 for private objects.
"""

from __future__ import annotations

import io

import pytest

from rosters.interchange import force_export_csv

pytestmark = pytest.mark.django_db

ACTORS = ("alice", "bob", "olivia", "charlie", "anonymous")
DENIED_ANONYMOUS = {401, 403}


def _expect(owner: int, other: int, organiser: int, stranger: int = 404) -> dict:
    return {"alice": owner, "bob": other, "olivia": organiser, "charlie": stranger}


def force_url(s):
    return f"/api/forces/{s.force.pk}/"


def character_url(s):
    return f"/api/characters/{s.character.pk}/"


def unit_url(s):
    return f"/api/units/{s.unit.pk}/"


def campaign_url(s):
    return f"/api/campaigns/{s.campaign.pk}/"


CASES = [
    ("get", force_url, None, _expect(200, 200, 200)),
    ("patch", force_url, {"notes": "Muster at dawn"}, _expect(200, 403, 200)),
    ("delete", force_url, None, _expect(204, 403, 204)),
    ("get", lambda s: force_url(s) + "export/", None, _expect(200, 200, 200)),
    ("get", lambda s: force_url(s) + "characters-csv/", None, _expect(200, 200, 200)),
    ("get", unit_url, None, _expect(200, 200, 200)),
    ("patch", unit_url, {"name": "Firelocks"}, _expect(200, 403, 200)),
    ("delete", unit_url, None, _expect(204, 403, 204)),
    ("get", character_url, None, _expect(200, 200, 200)),
    ("patch", character_url, {"rank": "Ensign"}, _expect(200, 403, 200)),
    ("get", lambda s: character_url(s) + "service-record/", None, _expect(200, 200, 200)),
    ("post", lambda s: character_url(s) + "move/", {"unit": None}, _expect(200, 403, 200)),
    ("post", lambda s: character_url(s) + "retire/", {}, _expect(200, 403, 200)),
    ("get", campaign_url, None, _expect(200, 200, 200)),
    ("patch", campaign_url, {"status": "FINISHED"}, _expect(403, 403, 200)),
]


def _case_id(case) -> str:
    method, url, _, _ = case
    return f"{method}-{url.__name__ if url.__name__ != '<lambda>' else 'action'}"


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_each_actor_gets_the_answer_their_role_allows(story, as_user, actor, case):
    method, url, body, expected = case
    client = as_user(None if actor == "anonymous" else getattr(story, actor))

    response = getattr(client, method)(url(story), body, format="json")

    if actor == "anonymous":
        assert response.status_code in DENIED_ANONYMOUS
    else:
        assert response.status_code == expected[actor], response.content


@pytest.mark.parametrize("actor, count", [("alice", 1), ("bob", 1), ("olivia", 1), ("charlie", 0)])
def test_lists_show_only_what_the_actor_may_read(story, as_user, actor, count):
    client = as_user(getattr(story, actor))

    for url in ("/api/forces/", "/api/units/", "/api/characters/", "/api/campaigns/"):
        assert client.get(url).json()["count"] == count, url


def test_anonymous_users_cannot_list_anything(api_client, story):
    for url in (
        "/api/forces/",
        "/api/units/",
        "/api/characters/",
        "/api/campaigns/",
        "/api/memberships/",
    ):
        assert api_client.get(url).status_code in DENIED_ANONYMOUS


@pytest.mark.parametrize(
    "actor, code", [("alice", 201), ("bob", 403), ("olivia", 201), ("charlie", 400)]
)
def test_only_owner_and_organiser_add_characters_to_a_force(story, as_user, actor, code):
    # charlie cannot even name the force: to him it does not exist (400, "object does not exist").
    client = as_user(getattr(story, actor))

    response = client.post(
        "/api/characters/", {"force": story.force.pk, "name": "Tom"}, format="json"
    )

    assert response.status_code == code


@pytest.mark.parametrize(
    "actor, code", [("alice", 201), ("bob", 403), ("olivia", 201), ("charlie", 404)]
)
def test_only_owner_and_organiser_import_characters(story, as_user, actor, code):
    header = force_export_csv(force=story.force).splitlines()[0]
    upload = io.BytesIO(f"{header}\nPrivate Jones{',' * header.count(',')}\n".encode())
    upload.name = "roster.csv"
    client = as_user(getattr(story, actor))

    response = client.post(
        f"/api/forces/{story.force.pk}/characters-csv/", {"file": upload}, format="multipart"
    )

    assert response.status_code == code, response.content


@pytest.mark.parametrize("actor, code", [("alice", 403), ("bob", 403), ("olivia", 201)])
def test_only_organisers_add_members(story, as_user, actor, code):
    newcomer = type(story.alice).objects.create(username="dora")
    client = as_user(getattr(story, actor))

    response = client.post(
        "/api/memberships/", {"campaign": story.campaign.pk, "user": newcomer.pk}, format="json"
    )

    assert response.status_code == code


def test_strangers_do_not_see_a_campaigns_memberships(story, as_user):
    assert as_user(story.charlie).get("/api/memberships/").json()["count"] == 0
    assert as_user(story.bob).get("/api/memberships/").json()["count"] == 3


def test_a_player_may_leave_a_campaign_but_not_remove_others(story, as_user):
    bob_membership = story.bob.memberships.get()
    alice_membership = story.alice.memberships.get()
    client = as_user(story.bob)

    assert client.delete(f"/api/memberships/{alice_membership.pk}/").status_code == 403
    assert client.delete(f"/api/memberships/{bob_membership.pk}/").status_code == 204


def test_a_player_cannot_create_a_force_for_someone_else(story, as_user):
    response = as_user(story.bob).post(
        "/api/forces/",
        {"name": "Sock puppets", "campaign": story.campaign.pk, "owner": story.alice.pk},
        format="json",
    )

    assert response.status_code == 403


def test_an_organiser_can_create_a_force_for_a_player(story, as_user):
    response = as_user(story.olivia).post(
        "/api/forces/",
        {"name": "Bob's Dragoons", "campaign": story.campaign.pk, "owner": story.bob.pk},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["owner"]["username"] == "bob"


def test_an_organiser_cannot_create_a_force_for_an_outsider(story, as_user):
    response = as_user(story.olivia).post(
        "/api/forces/",
        {"name": "Mercenaries", "campaign": story.campaign.pk, "owner": story.charlie.pk},
        format="json",
    )

    assert response.status_code == 400
    assert "owner" in response.json()


@pytest.mark.parametrize(
    "actor, code", [("alice", 201), ("bob", 403), ("olivia", 201), ("charlie", 400)]
)
def test_only_owner_and_organiser_add_units(story, as_user, actor, code):
    client = as_user(getattr(story, actor))

    response = client.post(
        "/api/units/", {"force": story.force.pk, "name": "Dragoons"}, format="json"
    )

    assert response.status_code == code
