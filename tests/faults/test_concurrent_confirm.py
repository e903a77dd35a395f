"""Two organisers confirm the same league result at the same moment: one wins, the other gets
a 409, and the pairing is confirmed once (by the winner, version bumped once)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from campaigns.models import Role
from league.models import Pairing, Round
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
ROUNDS = 5  # repeat the race: a lucky schedule once proves little


def _reported_pairing() -> tuple[Pairing, list[Any]]:
    campaign = CampaignFactory()
    home, away = (MembershipFactory(campaign=campaign, user=UserFactory()) for _ in range(2))
    organisers = [UserFactory() for _ in range(2)]
    for user in organisers:
        MembershipFactory(campaign=campaign, user=user, role=Role.ORGANISER)
    round_ = Round.objects.create(campaign=campaign, number=1)
    pairing = Pairing.objects.create(
        round=round_, home=home, away=away, winner="HOME", reported_by_home=True, version=1
    )
    return pairing, organisers


def _confirm_together(pairing: Pairing, organisers: list[Any]) -> list[int]:
    barrier, codes = threading.Barrier(len(organisers)), []

    def confirm(user: Any) -> None:
        client = APIClient()
        client.force_authenticate(user)
        barrier.wait(timeout=10)
        try:
            url = f"/api/pairings/{pairing.pk}/confirm/"
            codes.append(client.post(url, {"version": 1}, format="json").status_code)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=confirm, args=(u,)) for u in organisers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(codes)


@pytest.mark.parametrize("attempt", range(ROUNDS))
def test_two_organisers_confirming_at_once_one_wins_and_the_other_gets_409(attempt: int) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks")
    pairing, organisers = _reported_pairing()

    codes = _confirm_together(pairing, organisers)

    pairing.refresh_from_db()
    assert codes == [200, 409]
    assert pairing.confirmed_by_organiser is True
    assert pairing.confirmed_by_id in {u.pk for u in organisers}
    assert pairing.version == 2
