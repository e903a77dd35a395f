"""A processed battle reaches the club's hook with its report; the admin shows failing hooks."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group

from battles.services import pipeline
from notices import delivery as sending
from notices.models import Delivery, HookFormat, Webhook
from tests.battles.conftest import finished, make_cast
from tests.factories import CampaignFactory
from tests.league.league_helpers import make_league

pytestmark = pytest.mark.usefixtures("inline_delivery")


@pytest.mark.django_db
def test_a_processed_battle_reaches_the_hook_with_its_report_once(receiver):
    cast = make_cast()
    hook = Webhook.objects.create(
        campaign=cast.campaign,
        name="Club chat",
        url=receiver.url,
        format=HookFormat.JSON,
        events=["battle_processed"],
    )
    battle = finished(cast)
    assert pipeline.battle_process(battle_id=battle.pk) is True
    assert pipeline.battle_process(battle_id=battle.pk) is False  # a duplicate task: no event
    row = Delivery.objects.get(webhook=hook)
    sending.deliver(delivery_id=row.pk)
    payload = json.loads(receiver.requests[0].body)
    assert payload["event"] == "battle_processed"
    assert payload["data"] == {"battle": battle.pk}
    assert "Skirmish at the ford" in payload["title"]
    assert payload["text"]  # the chronicle's report, in sentences
    assert "_" not in payload["text"]  # no raw keys


@pytest.mark.django_db
def test_the_admin_lists_an_organisers_failing_hook_with_its_last_error(client, receiver):
    receiver.fail_first = 99
    Group.objects.filter(name="Organisers").delete()  # remade with the webhook permissions
    campaign, olivia, _players = make_league(["alice", "bob"])
    hook = Webhook.objects.create(campaign=campaign, name="Club chat", url=receiver.url)
    theirs = Webhook.objects.create(
        campaign=CampaignFactory(name="Elsewhere"), name="Not hers", url=receiver.url
    )
    Webhook.objects.filter(pk=hook.pk).update(
        failures_in_row=3, last_error="the receiver answered 500 Internal Server Error"
    )
    client.force_login(olivia)
    page = client.get("/admin/notices/webhook/")
    assert olivia.has_perm("notices.view_webhook")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Club chat" in text and "the receiver answered 500" in text
    assert theirs.name not in text


@pytest.mark.django_db
def test_a_report_that_cannot_be_written_still_announces_the_result(receiver, monkeypatch):
    cast = make_cast()
    Webhook.objects.create(
        campaign=cast.campaign,
        name="Club chat",
        url=receiver.url,
        format=HookFormat.JSON,
        events=["battle_processed"],
    )

    def broken(battle):
        raise ValueError("no report today")

    monkeypatch.setattr("chronicle.reports.battle_report", broken)
    battle = finished(cast)
    assert pipeline.battle_process(battle_id=battle.pk) is True
    sending.deliver(delivery_id=Delivery.objects.get().pk)
    text = json.loads(receiver.requests[0].body)["text"]
    assert text == f"{cast.red.name} won; {cast.blue.name} lost."
