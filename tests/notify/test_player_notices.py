"""Players' in-site notifications: a pairing for you, a result to confirm, read and unread,
and the e-mail choice."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from league import services
from league.models import Pairing
from notices.models import Notice
from notices.services import notice_settings_update
from notices.tasks import email_notice
from tests.league.league_helpers import make_league


def paired_league():
    campaign, olivia, players = make_league(["alice", "bob"])
    services.swiss_round_generate(campaign=campaign)
    return campaign, olivia, players, Pairing.objects.get(round__campaign=campaign)


@pytest.mark.django_db
def test_each_player_hears_who_they_play_when_a_round_is_paired():
    campaign, _olivia, players, _pairing = paired_league()
    alice = Notice.objects.get(user=players["alice"].user)
    assert alice.text == f"{campaign.name}, round 1: you play bob at table 1."
    assert Notice.objects.get(user=players["bob"].user).text.endswith("you play alice at table 1.")


@pytest.mark.django_db
def test_the_opponent_is_asked_to_confirm_a_reported_result_and_only_once():
    _campaign, _olivia, _players, pairing = paired_league()
    claim = services.claim_from({"winner": "HOME", "home_vp": 5})
    reporter = pairing.home.user
    services.pairing_report(pairing=pairing, user=reporter, claim=claim)
    other = pairing.away.user
    asked = Notice.objects.filter(user=other, key__startswith="to-confirm")
    assert asked.count() == 1
    assert "Report the same result to confirm it" in asked.get().text
    assert not Notice.objects.filter(user=reporter, key__startswith="to-confirm").exists()
    services.pairing_report(pairing=pairing, user=other, claim=claim)  # now settled
    assert Notice.objects.filter(key__startswith="to-confirm").count() == 1


@pytest.mark.django_db
def test_the_notifications_page_lists_unread_and_marks_them_read(client):
    _campaign, _olivia, players, _pairing = paired_league()
    client.force_login(players["alice"].user)
    page = client.get(reverse("notifications"))
    assert page.status_code == 200
    assert "1 unread." in page.content.decode()
    assert "you play bob at table 1." in page.content.decode()
    home = client.get(reverse("home")).content.decode()
    assert 'data-testid="home-notices"' in home
    client.post(reverse("notifications-read"))
    client.post(reverse("notifications-read"))  # a double submit changes nothing
    assert "Nothing unread." in client.get(reverse("notifications")).content.decode()
    assert 'data-testid="home-notices"' not in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_a_player_who_asked_for_e_mail_gets_each_notice_mailed_once(
    django_capture_on_commit_callbacks,
):
    campaign, _olivia, players = make_league(["alice", "bob"])
    alice = players["alice"].user
    alice.email = "alice@example.org"
    alice.save()
    notice_settings_update(user=alice, email=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.swiss_round_generate(campaign=campaign)
    notice = Notice.objects.get(user=alice)
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert "you play bob" in mail.outbox[0].body
    assert email_notice.apply(kwargs={"notice_id": notice.pk}).get() is False  # a duplicate
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_e_mail_choice_is_saved_from_the_notifications_page(client):
    _campaign, _olivia, players, _pairing = paired_league()
    bob = players["bob"].user
    client.force_login(bob)
    client.post(reverse("notifications-email"), {"email": "on"})
    assert bob.notice_settings.email is True
    client.post(reverse("notifications-email"), {})
    bob.notice_settings.refresh_from_db()
    assert bob.notice_settings.email is False
