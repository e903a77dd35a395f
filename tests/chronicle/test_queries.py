"""Query budgets: the chronicle page and a battle report read the same number of queries
however many battles (or events) there are."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from battles.services import battle_resolve
from tests.chronicle.conftest import fight, finish

pytestmark = pytest.mark.django_db


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_chronicle_page_reads_as_many_queries_for_one_battle_as_for_two(client, demo):
    campaign = demo["rencounter"]
    client.force_login(get_user_model().objects.get(username="alice"))
    url = reverse("campaign-chronicle", args=[campaign.pk])
    one = queries(client, url)

    finish(fight(campaign, "The second fight"), [])

    assert queries(client, url) == one


def test_a_battle_report_reads_as_many_queries_for_one_event_as_for_three(client, demo):
    battle = fight(demo["escarmouche"], "A long fight")
    attacker, defender = (battle.figures.filter(side__index=i).first() for i in (0, 1))
    client.force_login(get_user_model().objects.get(username="alice"))

    def log_fight() -> None:
        battle_resolve(battle=battle, check="fight", actor=attacker.pk, target=defender.pk)

    log_fight()
    finish(battle, [])
    url = reverse("battle-report", args=[battle.pk])
    one = queries(client, url)
    Battle.objects.filter(pk=battle.pk).update(status="IN_PROGRESS")
    log_fight()
    log_fight()
    Battle.objects.filter(pk=battle.pk).update(status="PROCESSED")

    assert queries(client, url) == one
