"""API throttling: each scope has its own rate, a refusal says when to come back (Retry-After)."""

from __future__ import annotations

import pytest

from common.throttling import SCOPES

pytestmark = pytest.mark.django_db

RATES = {
    "reads": "3/minute",
    "writes": "2/minute",
    "pdfs": "1/minute",
    "imports": "1/minute",
    "simulate": "1/minute",
}


@pytest.fixture
def tight(settings):
    settings.API_THROTTLE_RATES = dict(RATES)
    return settings


def _reads(client, n: int) -> list[int]:
    return [client.get("/api/forces/").status_code for _ in range(n)]


def test_reads_past_the_rate_get_429_with_retry_after(story, as_user, tight):
    client = as_user(story.alice)

    codes = _reads(client, 4)
    refused = client.get("/api/forces/")

    assert codes == [200, 200, 200, 429]
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "throttled" in refused.json()["detail"].lower()


def test_each_caller_has_their_own_count(story, as_user, tight):
    _reads(as_user(story.alice), 3)

    assert _reads(as_user(story.bob), 3) == [200, 200, 200]


def test_pdfs_count_apart_from_reads(story, as_user, tight):
    client = as_user(story.alice)

    first = client.get(f"/api/forces/{story.force.pk}/roster.pdf")
    second = client.get(f"/api/forces/{story.force.pk}/roster.pdf")

    assert (first.status_code, second.status_code) == (200, 429)
    assert client.get("/api/forces/").status_code == 200


def test_imports_have_their_own_tight_scope(story, as_user, tight):
    client = as_user(story.alice)
    document = client.get(f"/api/forces/{story.force.pk}/export/").json()

    codes = [
        client.post("/api/forces/import/", {"document": document}, format="json").status_code
        for _ in range(2)
    ]

    assert codes == [201, 429]


def test_a_csv_export_counts_as_a_read_not_an_import(story, as_user, tight):
    client = as_user(story.alice)
    url = f"/api/forces/{story.force.pk}/characters-csv/"

    assert [client.get(url).status_code for _ in range(2)] == [200, 200]


def test_simulations_have_their_own_scope(story, as_user, tight):
    client = as_user(story.alice)
    body = {"sides": [{"force": story.force.pk}, {"force": story.force.pk}]}

    first = client.post("/api/battles/simulate/?runs=2", body, format="json")
    second = client.post("/api/battles/simulate/?runs=2", body, format="json")

    assert first.status_code != 429
    assert second.status_code == 429


def test_writes_past_the_rate_get_429_and_change_nothing(story, as_user, tight):
    client = as_user(story.alice)
    url = f"/api/forces/{story.force.pk}/"

    codes = [client.patch(url, {"name": f"Name {i}"}, format="json").status_code for i in range(3)]
    story.force.refresh_from_db()

    assert codes == [200, 200, 429]
    assert story.force.name == "Name 1"


def test_anonymous_callers_are_counted_by_address(db, api_client, tight):
    codes = [api_client.get("/api/systems/").status_code for _ in range(4)]

    assert codes[:3] == [200, 200, 200] and codes[3] == 429


def test_throttling_can_be_switched_off_for_load_benches(story, as_user, tight):
    tight.API_THROTTLE_ENABLED = False

    assert _reads(as_user(story.alice), 5) == [200] * 5


def test_every_scope_has_a_default_rate(settings):
    assert set(settings.API_THROTTLE_RATES) == set(SCOPES)
    for rate in settings.API_THROTTLE_RATES.values():
        count, per = rate.split("/")
        assert int(count) > 0 and per in {"second", "minute", "hour", "day"}


def test_the_schema_documents_429(client):
    schema = client.get("/api/schema/?format=json").json()

    assert "429" in schema["paths"]["/api/forces/"]["get"]["responses"]


# --- the caller's address, and the pages ---------------------------------------------------------


def test_an_anonymous_caller_cannot_buy_fresh_counts_with_a_forged_forwarded_for(client, tight):
    """With no proxy configured, the address is REMOTE_ADDR: X-Forwarded-For is the client's
    own claim (DRF with NUM_PROXIES=None used the whole header as the key)."""
    codes = [
        client.get(
            "/api/systems/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(4)
    ]

    assert codes[-1] == 429


def test_behind_one_proxy_the_address_the_proxy_saw_is_the_key(client, tight, settings):
    from rest_framework.settings import api_settings

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api_settings.reload()
    try:
        alice = [
            client.get("/api/systems/", HTTP_X_FORWARDED_FOR="forged, 198.51.100.7").status_code
            for _ in range(4)
        ]
        bob = client.get("/api/systems/", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code
    finally:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
        api_settings.reload()

    assert alice[-1] == 429
    assert bob != 429


def test_the_chronicle_pdf_page_counts_against_the_pdfs_rate(story, client, tight):
    client.force_login(story.alice)
    url = f"/campaigns/{story.campaign.pk}/chronicle.pdf"

    first, second = client.get(url), client.get(url)

    assert (first.status_code, second.status_code) == (200, 429)
    assert 0 < int(second["Retry-After"]) <= 60


def test_the_csv_import_page_counts_against_the_imports_rate(story, client, tight):
    import io

    client.force_login(story.alice)
    url = f"/forces/{story.force.pk}/import/"

    def upload():
        data = io.BytesIO(b"name,rank\nPvt. Hook,Private\n")
        data.name = "force.csv"
        return client.post(url, {"file": data})

    first, second = upload(), upload()

    assert first.status_code in (302, 400)
    assert second.status_code == 429


def test_the_admin_force_import_counts_against_the_imports_rate(client, tight):
    import io

    from tests.factories import UserFactory

    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    owner = UserFactory()

    def upload():
        data = io.BytesIO(b"{}")
        data.name = "force.json"
        return client.post("/admin/rosters/force/import-json/", {"file": data, "owner": owner.pk})

    assert [upload().status_code for _ in range(2)] == [200, 429]
