"""Object-level permissions over EVERY API operation, for the five actors.

The operations come from the OpenAPI schema, so a new endpoint is covered the day it is added:
a read is classified by its resource below, and a write must be listed in WRITES (the test
fails, naming it, until it is). For each (operation, actor):

- allowed: the answer is not 401/403/404 (permission passed; a 400/409 from the body or the
  object's state is fine) and never a 5xx;
- refused: the answer is 400/401/403/404, the database is exactly as before, and the body names
  nothing of the campaign's private data.

Actors: owner (alice, owns the force), player (bob, same campaign), organiser (olivia, this
campaign), other_organiser (oscar, organises another campaign), anonymous.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from drf_spectacular.generators import SchemaGenerator

from tests.security.world import ACTORS, World, build_world

pytestmark = pytest.mark.django_db

MEMBERS = frozenset({"owner", "player", "organiser"})
OWNER_OR_ORGANISER = frozenset({"owner", "organiser"})
ORGANISER = frozenset({"organiser"})
SIGNED_IN = frozenset({"owner", "player", "organiser", "other_organiser"})
#: Who may read each resource's objects (by the first path segment after /api/).
READERS = {
    "forces": MEMBERS,
    "units": MEMBERS,
    "characters": MEMBERS,
    "battles": MEMBERS,
    "campaigns": MEMBERS,
    "memberships": MEMBERS,
    "rounds": MEMBERS,
    "pairings": MEMBERS,
    "print-jobs": frozenset({"owner"}),
    "systems": SIGNED_IN,
}
#: Reads nested under a resource whose readers are not the resource's own (by operationId).
NESTED_READERS = {
    "campaigns_ratings_list": MEMBERS,  # the club rating of the campaign's players
    "campaigns_webhooks_list": ORGANISER,  # a hook's secret is the organisers' alone
    "campaigns_webhooks_retrieve": ORGANISER,
}
PRIVATE_NAMES = (b"Gridley", b"Thirty Years")
REFUSED = {400, 401, 403, 404}
DENIED = {401, 403, 404}

Body = Callable[[World], Any] | None


def _figures(w: World) -> list[int]:
    return list(w.battle.figures.order_by("pk").values_list("pk", flat=True))


def _sides(w: World) -> list[dict[str, Any]]:
    ids = w.battle.sides.order_by("index").values_list("pk", flat=True)
    return [{"side": pk, "result": r} for pk, r in zip(ids, ("WIN", "LOSS"), strict=True)]


def _force_document(w: World) -> dict[str, Any]:
    from rosters.interchange import force_export_json

    document = force_export_json(force=w.force)
    document["force"]["name"] = "Imported Company"
    return {"document": document, "campaign": w.campaign.pk}


def _csv(w: World) -> dict[str, Any]:
    upload = io.BytesIO(b"name,rank\nPte. Newcome,Private\n")
    upload.name = "characters.csv"
    return {"file": upload}


HOOK = {"name": "Club Discord", "url": "https://chat.example.org/hook", "format": "discord"}


def _house_rules(w: World) -> dict[str, Any]:
    """The campaign's current pack: saving it again succeeds (or, for a system with no
    editable tables, is a 400 that says so)."""
    return {"document": w.campaign.house_rules_versions.get(number=1).document}


#: Every write operation: who may do it, and a body that would succeed for them.
WRITES: dict[str, tuple[frozenset[str], Body]] = {
    "battles_create": (
        OWNER_OR_ORGANISER,
        lambda w: {
            "campaign": w.campaign.pk,
            "sides": [{"force": w.force.pk}, {"force": w.second_force.pk}],
        },
    ),
    "battles_activation_create": (OWNER_OR_ORGANISER, lambda w: {"method": "cards"}),
    "battles_auto_resolve_create": (OWNER_OR_ORGANISER, None),
    "battles_draw_create": (OWNER_OR_ORGANISER, None),
    "battles_finish_create": (OWNER_OR_ORGANISER, None),
    # Consent: who may call them; what each may agree is tests/battles/test_consent.py.
    "battles_confirm_create": (OWNER_OR_ORGANISER, None),
    "battles_dispute_create": (OWNER_OR_ORGANISER, lambda w: {"note": "Ned lived"}),
    "battles_settle_create": (OWNER_OR_ORGANISER, None),
    "battles_reopen_create": (OWNER_OR_ORGANISER, None),
    "battles_requeue_create": (ORGANISER, None),
    "battles_resolve_create": (
        OWNER_OR_ORGANISER,
        lambda w: {
            "check": "fire",
            "actor": _figures(w)[0],
            "target": _figures(w)[-1],
            "params": {"skill": 12},
        },
    ),
    "battles_result_create": (OWNER_OR_ORGANISER, lambda w: {"sides": _sides(w)}),
    "battles_simulate_battle": (MEMBERS, None),
    "battles_simulate_create": (
        MEMBERS,
        lambda w: {"sides": [{"force": w.force.pk}, {"force": w.second_force.pk}]},
    ),
    "battles_void_create": (OWNER_OR_ORGANISER, None),
    "campaigns_create": (SIGNED_IN, lambda w: {"name": "A new war", "system": "rencounter"}),
    "campaigns_partial_update": (ORGANISER, lambda w: {"name": "Renamed war"}),
    "campaigns_rounds_create": (ORGANISER, lambda w: {"kind": "ROUND_ROBIN"}),
    "campaigns_house_rules_create": (ORGANISER, _house_rules),
    "campaigns_house_rules_update": (ORGANISER, _house_rules),
    "campaigns_house_rules_preview_create": (ORGANISER, _house_rules),
    "campaigns_webhooks_create": (ORGANISER, lambda w: HOOK),
    "campaigns_webhooks_partial_update": (ORGANISER, lambda w: {"active": False}),
    "campaigns_webhooks_destroy": (ORGANISER, None),
    "characters_create": (OWNER_OR_ORGANISER, lambda w: {"force": w.force.pk, "name": "Newcome"}),
    "characters_partial_update": (OWNER_OR_ORGANISER, lambda w: {"rank": "Captain"}),
    "characters_move_create": (OWNER_OR_ORGANISER, lambda w: {"unit": None}),
    "characters_retire_create": (OWNER_OR_ORGANISER, lambda w: {"note": "old wounds"}),
    "forces_create": (MEMBERS, lambda w: {"name": "New Company", "campaign": w.campaign.pk}),
    "forces_partial_update": (OWNER_OR_ORGANISER, lambda w: {"faction": "Parliament"}),
    "forces_destroy": (OWNER_OR_ORGANISER, None),
    "forces_characters_csv_create": (OWNER_OR_ORGANISER, _csv),
    "forces_import_create": (MEMBERS, _force_document),
    "memberships_create": (
        ORGANISER,
        lambda w: {
            "campaign": w.campaign.pk,
            "user": w.user("other_organiser").pk,
            "role": "PLAYER",
        },
    ),
    "memberships_partial_update": (ORGANISER, lambda w: {"role": "ORGANISER"}),
    "memberships_destroy": (OWNER_OR_ORGANISER, None),  # alice may leave; olivia may remove
    "pairings_auto_resolve_create": (ORGANISER, None),
    "pairings_confirm_create": (ORGANISER, lambda w: {"version": 0, "result": {"winner": "HOME"}}),
    "pairings_link_battle_create": (OWNER_OR_ORGANISER, lambda w: {"battle": w.battle.pk}),
    "pairings_report_create": (frozenset({"owner"}), lambda w: {"winner": "HOME"}),
    "print_cards.pdf_create": (
        SIGNED_IN,
        lambda w: {"system": "rencounter", "figures": [{"name": "Preview"}]},
    ),
    "print_labels.pdf_create": (
        SIGNED_IN,
        lambda w: {"system": "rencounter", "figures": [{"name": "Preview"}]},
    ),
    "print_stickers.pdf_create": (SIGNED_IN, lambda w: {}),
    "rounds_lock_create": (ORGANISER, None),
    "rounds_swap_create": (
        ORGANISER,
        lambda w: {"first": w.membership.pk, "second": w.pairing.away_id},
    ),
    "units_create": (OWNER_OR_ORGANISER, lambda w: {"force": w.force.pk, "name": "Pikemen"}),
    "units_partial_update": (OWNER_OR_ORGANISER, lambda w: {"name": "Shot"}),
    "units_destroy": (OWNER_OR_ORGANISER, None),
}


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method.upper(), operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


OPERATIONS = _operations()


def _resource(path: str) -> str:
    return path.split("/")[2]


def _url(path: str, w: World) -> str:
    if "{" not in path:
        return path
    objects = {
        "forces": w.force.pk,
        "units": w.unit.pk,
        "characters": w.character.pk,
        "battles": w.battle.pk,
        "campaigns": w.campaign.pk,
        "memberships": w.membership.pk,
        "rounds": w.round.pk,
        "pairings": w.pairing.pk,
        "print-jobs": w.print_job.pk,
        "systems": "rencounter",
    }
    resource = _resource(path)
    assert resource in objects, f"add an object of /api/{resource}/ to the permission world"
    path = path.replace("{number}", "1")  # the campaign's house-rules version 1
    path = path.replace("/webhooks/{id}/", f"/webhooks/{w.webhook.pk}/")  # the campaign's hook
    start, end = path.index("{"), path.index("}")
    return path[:start] + str(objects[resource]) + path[end + 1 :]


def _public(operation: dict[str, Any]) -> bool:
    return {} in operation.get("security", [])


def _allowed(path: str, method: str, operation: dict[str, Any], actor: str) -> bool:
    if method == "GET" and operation["operationId"] in NESTED_READERS:
        return actor in NESTED_READERS[operation["operationId"]]
    if method == "GET":
        readers = READERS.get(_resource(path))
        assert readers is not None, f"say who may read /api/{_resource(path)}/ in READERS"
        if "{" not in path:  # a list: anyone signed in gets theirs (checked for leaks below)
            readers = SIGNED_IN
        return actor in readers or _public(operation)
    key = operation["operationId"]
    assert key in WRITES, f"say who may call {method} {path} ({key}) in WRITES"
    return actor in WRITES[key][0]


def _fingerprint() -> dict[str, list[dict[str, Any]]]:
    """Every row of Muster's own tables: a refused request must not change one of them."""
    labels = ("rosters", "campaigns", "battles", "league", "printing", "notices", "ratings")
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for label in labels
        for model in apps.get_app_config(label).get_models()
    }


def _call(client: Any, method: str, url: str, body: Any) -> Any:
    if method == "GET":
        return client.get(url)
    if isinstance(body, dict) and any(hasattr(v, "read") for v in body.values()):
        return (
            client.generic(method, url)
            if body is None
            else client.post(url, body, format="multipart")
        )
    return client.generic(method, url, data=_json(body), content_type="application/json")


def _json(body: Any) -> str:
    import json

    return json.dumps(body if body is not None else {})


def _client(api_client: Any, w: World, actor: str) -> Any:
    user = w.user(actor)
    if user is not None:
        api_client.force_authenticate(user=user)
    return api_client


CASES = [
    pytest.param(path, method, operation, actor, id=f"{method} {path} as {actor}")
    for path, method, operation in OPERATIONS
    for actor in ACTORS
]


@pytest.mark.parametrize(("path", "method", "operation", "actor"), CASES)
def test_every_api_operation_lets_in_exactly_the_right_actors(
    api_client, path, method, operation, actor
):
    w = build_world()
    body_of = WRITES.get(operation["operationId"], (None, None))[1]
    body = body_of(w) if body_of else None
    allowed = _allowed(path, method, operation, actor)
    before = _fingerprint()

    response = _call(_client(api_client, w, actor), method, _url(path, w), body)

    assert response.status_code < 500, response.content[:500]
    if allowed:
        assert response.status_code not in DENIED, response.content[:500]
    else:
        assert response.status_code in REFUSED, response.content[:500]
        assert _fingerprint() == before
    if actor in ("other_organiser", "anonymous"):
        content = b"".join(response) if response.streaming else response.content
        assert not [n for n in PRIVATE_NAMES if n in content], content[:500]


def test_the_schema_lists_every_router_endpoint_so_none_escapes_the_matrix():
    paths = {path for path, _, _ in OPERATIONS}

    assert len(OPERATIONS) > 50
    assert {"/api/forces/{id}/", "/api/battles/{id}/finish/", "/api/print-jobs/{id}/"} <= paths
