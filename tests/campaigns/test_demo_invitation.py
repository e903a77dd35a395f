"""`seed_demo` prints a sign-up invitation link to the demo campaign: the same link each run,
and one that lets a new player in."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from campaigns.models import Invitation

pytestmark = pytest.mark.django_db
LINK = re.compile(r"http://127\.0\.0\.1:8000(/campaigns/(\d+)/join/([\w-]+)/)")


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_the_demo_prints_one_standing_invitation_link(var_dir):
    first, second = seed(), seed()

    links = [LINK.search(text) for text in (first, second)]
    assert links[0] is not None and links[0].group(0) == links[1].group(0)
    assert Invitation.objects.count() == 1
    assert "printed on this console" in first


def test_the_printed_link_lets_a_new_player_sign_up_and_join(var_dir, client):
    path, campaign_pk, _ = LINK.search(seed()).groups()

    landing = client.get(path)
    client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "matchlocks at midnight",
            "password2": "matchlocks at midnight",
        },
    )
    joined = client.post(path)

    assert landing.status_code == 200
    assert joined["Location"] == f"/campaigns/{campaign_pk}/"
