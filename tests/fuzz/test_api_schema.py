"""Schemathesis against /api/schema/ on a live test server, as a signed-in player.

Every operation in the schema is called with generated input (bounded: FUZZ_EXAMPLES cases per
operation, derandomized so a run is repeatable). Each answer must not be a 5xx, must use a
documented status code and content type, and its body must match the documented schema (the
shared 400/401/403/404/409 answers are documented by `config.openapi`). The player organises a
campaign with two forces and a battle, so small ids in generated paths often hit real rows.

The operations are driven with hypothesis directly rather than `schema.parametrize()`: the
lazy-fixture loader of schemathesis 4 does not run under pytest 9.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def fuzz_token(live_server) -> str:
    """Seed a small campaign and return the API token of its organiser-player."""
    from rest_framework.authtoken.models import Token

    from tests.fuzz.world import seed_world

    return Token.objects.create(user=seed_world()).key


def _fuzzer(operation, headers: dict[str, str]) -> Callable[[], None]:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS, timeout=60)

    return run


def test_every_api_operation_answers_as_documented_and_never_with_a_5xx(live_server, fuzz_token):
    # The schema is built on its first request (drf-spectacular walks every view): on a busy
    # 2-core machine that took longer than the loader's 10 s default.
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/", timeout=120)
    headers = {"Authorization": f"Token {fuzz_token}"}
    failures: dict[str, str] = {}
    operations = [result.ok() for result in schema.get_all_operations()]

    for operation in operations:
        try:
            _fuzzer(operation, headers)()
        except (Exception, BaseExceptionGroup) as failure:  # collect all, then report them all
            failures[operation.label] = str(failure)[:1500]

    assert len(operations) > 50
    assert not failures, "\n\n".join(f"{k}:\n{v}" for k, v in failures.items())
