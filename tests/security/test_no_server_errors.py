"""Each input an attacker's probe turned into a 500 now gets a clear 400 naming the field, and
nothing is written: a NUL in the address, an extra figure whose stats are not an object, a
force document whose lists are not lists, too many permanent wounds, a house-rules pack with
1e400 or a lone surrogate, a webhook's events that are not events, the admin's force import,
invalid UTF-8 in a form body; and what does fail under /api/ answers JSON."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client

from battles.models import Battle
from notices.models import Webhook
from rosters import interchange
from rosters.models import Character, Force, ServiceRecordEntry
from tests.factories import CampaignFactory, ForceFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    models = (Force, Character, ServiceRecordEntry, Battle, Webhook)
    return {m.__name__: m.objects.count() for m in models}


# --- the address -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/campaigns/1/join/ab%00cd/",
        "/campaigns/1/join/%00/",
        "/api/forces/?search=a%00b",
        "/forces/1/%00/",
    ],
)
def test_a_nul_in_the_address_is_a_400(client, url, settings):
    settings.DEBUG = False
    response = client.get(url)
    assert response.status_code == 400
    assert b"NUL" in response.content


def test_a_nul_in_the_address_is_a_400_in_production_settings_too(client, settings):
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = False
    response = client.get("/campaigns/1/join/ab%00cd/", secure=True)
    assert response.status_code == 400


# --- API bodies --------------------------------------------------------------------------------


@pytest.mark.parametrize("stats", ["fire=7", [7, 6], 7, True])
def test_an_extra_figure_whose_stats_are_not_an_object_is_a_400(story, as_user, stats):
    before = _counts()
    body = {
        "campaign": story.campaign.pk,
        "sides": [
            {"force": story.force.pk, "extras": [{"name": "Drummer", "stats": stats}]},
            {"force": story.force.pk},
        ],
    }
    response = as_user(story.alice).post("/api/battles/", body, format="json")
    assert response.status_code == 400, response.content
    assert "extras" in json.dumps(response.json())
    assert _counts() == before


@pytest.mark.parametrize("field", ["characters", "units"])
@pytest.mark.parametrize("value", ["Sgt. Gridley", {"name": "x"}, 7])
def test_a_force_document_whose_lists_are_not_lists_is_a_400(story, as_user, field, value):
    document = interchange.force_export_json(force=story.force)
    document["force"][field] = value
    before = _counts()
    response = as_user(story.alice).post(
        "/api/forces/import/", {"document": document}, format="json"
    )
    assert response.status_code == 400, response.content
    paths = [p["path"] for p in response.json()["problems"]]
    assert f"force.{field}" in paths
    assert _counts() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("stats", "F7"), ("name", ["x"]), ("permanent_wounds", "arm"), ("order", "first")],
)
def test_a_force_document_item_of_the_wrong_type_is_a_400(story, as_user, field, value):
    document = interchange.force_export_json(force=story.force)
    item = document["force"]["units" if field == "order" else "characters"][0]
    item[field] = value
    response = as_user(story.alice).post(
        "/api/forces/import/", {"document": document}, format="json"
    )
    assert response.status_code == 400, response.content
    assert any(p["path"].endswith(f".{field}") for p in response.json()["problems"])


@pytest.mark.parametrize("count", [6, 500])
def test_too_many_permanent_wounds_are_refused_by_a_patch(story, as_user, count):
    client = as_user(story.alice)
    url = f"/api/characters/{story.character.pk}/"
    response = client.patch(url, {"permanent_wounds": ["arm"] * count}, format="json")
    assert response.status_code == 400, response.content
    assert "permanent_wounds" in response.json()
    story.character.refresh_from_db()
    assert story.character.permanent_wounds == []


def test_five_permanent_wounds_are_still_allowed_and_the_figure_still_simulates(story, as_user):
    client = as_user(story.alice)
    url = f"/api/characters/{story.character.pk}/"
    response = client.patch(url, {"permanent_wounds": ["arm"] * 5}, format="json")
    assert response.status_code == 200, response.content
    other = ForceFactory(owner=story.alice, campaign=story.campaign, name="Second")
    from tests.factories import CharacterFactory

    CharacterFactory(force=other, name="Pvt. Hook")
    body = {"sides": [{"force": story.force.pk}, {"force": other.pk}]}
    simulated = client.post("/api/battles/simulate/?runs=5", body, format="json")
    assert simulated.status_code == 200, simulated.content


@pytest.mark.parametrize("body", [b'{"name": 1e400}', b'{"name": 123456789012345678901234}'])
def test_a_number_no_field_can_hold_is_a_400(story, as_user, body):
    client = as_user(story.alice)
    response = client.patch(
        f"/api/characters/{story.character.pk}/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "too large a number" in response.json()["detail"]


def test_a_nul_in_a_json_string_is_a_400(story, as_user):
    response = as_user(story.alice).patch(
        f"/api/characters/{story.character.pk}/", {"notes": "a\x00b"}, format="json"
    )
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


def test_invalid_utf8_in_a_form_encoded_api_body_is_a_400_not_a_replacement_mark(story, as_user):
    client = as_user(story.alice)
    response = client.patch(
        f"/api/characters/{story.character.pk}/",
        b"notes=caf%E9",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    story.character.refresh_from_db()
    assert "\ufffd" not in story.character.notes


def test_an_unexpected_failure_under_the_api_answers_json(story, monkeypatch):
    from rosters import api

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(api.ForceViewSet, "list", broken)
    client = Client(raise_request_exception=False)
    client.force_login(story.alice)
    response = client.get("/api/forces/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "a bug" not in response.content.decode()


# --- pages and the admin -------------------------------------------------------------------------


@pytest.fixture
def organiser_client(client):
    olivia = UserFactory(username="olivia")
    campaign = CampaignFactory(system="game_the_90")
    from campaigns.models import Role

    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    client.force_login(olivia)
    return client, campaign


@pytest.mark.parametrize(
    "text",
    [
        b'{"system": "game_the_90", "tables": {"x": 1e400}}',
        b'{"system": "game_the_90", "name": "\\ud800", "tables": {}}',
        b'{"system": "game_the_90", "name": "a\\u0000b", "tables": {}}',
    ],
)
def test_a_house_rules_pack_with_a_number_or_text_no_table_can_hold_is_a_400(
    organiser_client, text
):
    client, campaign = organiser_client
    upload = io.BytesIO(text)
    upload.name = "pack.json"
    response = client.post(f"/campaigns/{campaign.pk}/house-rules/import/", {"pack": upload})
    assert response.status_code == 400
    assert campaign.house_rules_versions.count() == 0


@pytest.fixture
def root(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("events", ["5", '"\\ud800"', '{"a": 1}', "result_confirmed"])
def test_the_webhook_admin_refuses_events_that_are_not_known_events(root, events):
    campaign = CampaignFactory()
    response = root.post(
        "/admin/notices/webhook/add/",
        {
            "campaign": campaign.pk,
            "name": "Chat",
            "url": "https://chat.example.org/hook",
            "format": "json",
            "events": [events],
            "secret": "s" * 64,
            "active": "on",
            "deliveries-TOTAL_FORMS": "0",
            "deliveries-INITIAL_FORMS": "0",
        },
    )
    if events == "result_confirmed":
        assert response.status_code == 302
        assert Webhook.objects.get().events == ["result_confirmed"]
    else:
        assert response.status_code == 200
        assert "events" in response.context["adminform"].form.errors
        assert Webhook.objects.count() == 0


def test_a_webhook_whose_events_are_not_a_list_is_refused_by_the_model():
    from django.core.exceptions import ValidationError

    hook = Webhook(campaign=CampaignFactory(), name="x", url="https://a.example.org/", events=5)
    with pytest.raises(ValidationError, match="list of event names"):
        hook.full_clean()


@pytest.mark.parametrize(
    "text",
    [
        b'{"format": "muster.force", "version": 1, "force": {"name": 1e400}}',
        b'{"format": "muster.force", "version": 1, "force": {"name": "\\ud800"}}',
        b"[" * 5000 + b"]" * 5000,
        b'{"format": "muster.force", "version": 1, "force": {"name": "A", "system": '
        b'"rencounter", "characters": "x"}}',
    ],
)
def test_the_admin_force_import_refuses_hostile_json_in_words(root, text):
    owner = UserFactory()
    upload = io.BytesIO(text)
    upload.name = "force.json"
    before = _counts()
    response = root.post("/admin/rosters/force/import-json/", {"file": upload, "owner": owner.pk})
    assert response.status_code == 200
    assert _counts() == before
