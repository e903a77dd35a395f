"""The table assistant on a 390 px phone: short at the start, the result always in view."""

from __future__ import annotations

import pytest

from battles.services import SideChoice, battle_start
from tests.pages.conftest import make_muster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_six_a_side_rencounter_table_starts_within_two_phone_screens(
    page, live_server, sign_in, screens
):
    muster = make_muster(size=6)
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    sign_in("alice")
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"table page height at 390 px: {height}")
    screens("table-start-6v6")
    assert height <= 2 * 844
