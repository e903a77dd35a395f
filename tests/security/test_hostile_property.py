"""Hostile input, as a property: whatever body reaches any write operation of the OpenAPI schema
or any form of the site's pages, the answer is never a 5xx, and an answer of 400 writes nothing.

Bodies are drawn by hypothesis from what broke Muster before: wrong types in every field the
schema names, numbers too large for any column (10^30, 1e308), text with NUL, lone surrogates or
3,000 characters, nesting, whole bodies that are not objects, and raw text no JSON encoder
writes (1e400, NaN). Forms get the same as form-encoded bytes, invalid UTF-8 included.
HOSTILE_EXAMPLES sets the examples per operation (default 12).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any
from urllib.parse import quote, quote_from_bytes

import pytest
from django.apps import apps
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.security.test_api_permissions import OPERATIONS, _url
from tests.security.world import build_world

pytestmark = pytest.mark.django_db
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "12"))
MUSTER_APPS = {
    "campaigns",
    "rosters",
    "battles",
    "chronicle",
    "printing",
    "ratings",
    "notices",
    "auth",
    "account",
}
SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
WRITES = [(p, m, op) for p, m, op in OPERATIONS if m in ("POST", "PUT", "PATCH")]
#: Organisers write these; the force's owner (alice) writes the rest.
ORGANISER_RESOURCES = {"campaigns", "rounds", "memberships"}

HOSTILE_TEXT = st.sampled_from(
    ["\ud800", "a\x00b", "x" * 3000, "<script>alert(1)</script>", "../../etc/passwd", "", " "]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([1e308, -1e308, 0.5, -1, 0, 2**31, 2**63]),
    st.text(max_size=20),
    HOSTILE_TEXT,
)
HOSTILE = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)
RAW_BODIES = st.sampled_from(
    ['{"name": 1e400}', '{"name": NaN}', "[", '"just text"', "[" * 200 + "]" * 200, "null"]
)


def _fields(operation: dict[str, Any]) -> list[str]:
    """The request body's property names, as the schema documents them."""
    content = operation.get("requestBody", {}).get("content", {})
    body = content.get("application/json", {}).get("schema", {})
    ref = body.get("$ref", "")
    if ref:
        body = SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return sorted(body.get("properties", {}))


def _bodies(operation: dict[str, Any]) -> st.SearchStrategy[str]:
    fields = _fields(operation)
    objects = st.fixed_dictionaries({}, optional={f: HOSTILE for f in fields})
    encoded = st.one_of(objects, HOSTILE).map(json.dumps)
    return st.one_of(encoded, RAW_BODIES)


def fingerprint() -> str:
    """Every row of Muster's own tables (and accounts), hashed: a 400 must leave it as it was."""
    rows = []
    for model in apps.get_models():
        if model._meta.app_label in MUSTER_APPS:
            rows.append((model._meta.label, list(model.objects.order_by("pk").values())))
    return hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.fixture
def world(settings):
    settings.API_THROTTLE_ENABLED = False
    return build_world()


def _caller(world: Any, path: str) -> APIClient:
    client = APIClient()
    resource = path.split("/")[2]
    client.force_authenticate(
        world.user("organiser" if resource in ORGANISER_RESOURCES else "owner")
    )
    return client


@pytest.mark.parametrize(
    ("path", "method", "operation"), WRITES, ids=[f"{m} {p}" for p, m, _ in WRITES]
)
def test_no_write_operation_answers_5xx_and_a_400_writes_nothing(world, path, method, operation):
    client, url = _caller(world, path), _url(path, world)
    send = getattr(client, method.lower())

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(body=_bodies(operation))
    def hostile(body: str) -> None:
        before = fingerprint()
        response = send(url, body, content_type="application/json")
        assert response.status_code < 500, (method, url, body[:200], response.content[:300])
        if response.status_code == 400:
            assert fingerprint() == before, (method, url, body[:200])

    hostile()


# --- the site's forms ----------------------------------------------------------------------------

FORM = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>(.*?)</form>", re.S | re.I)
ACTION = re.compile(r"<form\b[^>]*action=\"([^\"]*)\"", re.I)
FIELD = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"", re.I)
SKIPPED = {"csrfmiddlewaretoken"}


def _page_urls(w: Any) -> list[str]:
    """The pages of the world that carry forms (players' and organisers')."""
    return [
        "/forces/new/",
        f"/forces/{w.force.pk}/",
        f"/forces/{w.force.pk}/edit/",
        f"/forces/{w.force.pk}/characters/new/",
        f"/characters/{w.character.pk}/",
        f"/characters/{w.character.pk}/edit/",
        f"/campaigns/{w.campaign.pk}/",
        f"/campaigns/{w.campaign.pk}/house-rules/",
        f"/battles/{w.battle.pk}/",
        f"/battles/{w.battle.pk}/report/",
        f"/pairings/{w.pairing.pk}/report/",
        "/profile/",
        "/notifications/",
    ]


def _forms(client: Client, url: str) -> list[tuple[str, list[str]]]:
    page = client.get(url)
    if page.status_code != 200:
        return []
    html = page.content.decode()
    found = []
    for match in FORM.finditer(html):
        opening = html[match.start() : match.start() + 400]
        action = ACTION.search(opening)
        target = action.group(1) if action and action.group(1) else url
        names = sorted(set(FIELD.findall(match.group(1))) - SKIPPED)
        if target.startswith("/"):
            found.append((target.replace("&amp;", "&"), names))
    return found


FORM_VALUES = st.one_of(
    st.binary(max_size=12),
    st.sampled_from([b"\xff\xfe", b"a\x00b", b"9" * 40, b"-1", b"1e400", b"x" * 3000, b""]),
    st.text(max_size=12).map(str.encode),
)


def _encoded(data: dict[str, bytes]) -> bytes:
    return "&".join(f"{quote(k)}={quote_from_bytes(v)}" for k, v in data.items()).encode()


def test_no_form_answers_5xx_and_a_400_writes_nothing(world):
    client = Client()
    client.force_login(world.user("owner"))
    organiser = Client()
    organiser.force_login(world.user("organiser"))
    forms = [
        (who, target, names)
        for who in (client, organiser)
        for url in _page_urls(world)
        for target, names in _forms(who, url)
    ]
    assert len(forms) >= 10, "the pages' forms were not found"

    for who, target, names in forms:
        _fuzz_form(who, target, names)


def _fuzz_form(who: Client, target: str, names: list[str]) -> None:
    values = st.fixed_dictionaries({}, optional={n: FORM_VALUES for n in names})

    @settings(
        max_examples=max(EXAMPLES // 3, 3),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=values)
    def hostile(data: dict[str, bytes]) -> None:
        before = fingerprint()
        response = who.post(
            target, _encoded(data), content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code < 500, (target, data, response.content[:300])
        if response.status_code == 400:
            assert fingerprint() == before, (target, data)

    hostile()
