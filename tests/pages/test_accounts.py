"""Accounts (django-allauth): sign up with a display name, sign in by username or e-mail, the
invite-only club, password reset and change, the profile page, sign out."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from campaigns.services import invitation_create
from tests.factories import PASSWORD, ClubFactory, UserFactory

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "muskets at dawn 1777"


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """allauth counts sign-ups and resets per address in the cache; each test starts afresh."""
    cache.clear()


def _sign_up(client, **changes):
    data = {
        "username": "dora",
        "email": "dora@example.org",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
        "display_name": "Dora the Drummer",
        **changes,
    }
    return client.post("/accounts/signup/", data)


def test_the_sign_up_page_is_at_its_contract_url(client):
    response = client.get("/accounts/signup/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Sign up</h1>" in html
    assert 'name="display_name"' in html


def test_signing_up_makes_the_player_signs_them_in_and_mails_a_confirmation(client):
    response = _sign_up(client)

    user = get_user_model().objects.get(username="dora")
    assert response.status_code == 302
    assert user.first_name == "Dora the Drummer"
    assert client.get("/").status_code == 200
    assert any("dora@example.org" in m.to for m in mail.outbox)


def test_a_sign_up_with_mismatched_passwords_is_shown_beside_the_field_and_saves_nothing(client):
    response = _sign_up(client, password2="something else entirely")

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert not get_user_model().objects.filter(username="dora").exists()


def test_a_taken_username_is_refused_and_nothing_is_saved(client):
    UserFactory(username="dora")

    response = _sign_up(client, email="other@example.org")

    assert "username" in response.content.decode().lower()
    assert get_user_model().objects.filter(username="dora").count() == 1


def test_the_old_sign_in_form_field_names_still_sign_in(client):
    UserFactory(username="alice")

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert client.get("/").status_code == 200


def test_a_player_signs_in_with_their_e_mail_address(client):
    UserFactory(username="alice", email="alice@example.org")

    response = client.post("/accounts/login/", {"login": "alice@example.org", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_a_wrong_password_shows_the_form_again_with_its_error(client):
    UserFactory(username="alice")

    response = client.post("/accounts/login/", {"login": "alice", "password": "wrong"})

    assert response.status_code == 200
    assert 'id="login-error"' in response.content.decode()


def test_sign_up_is_open_while_any_club_is_open(client):
    ClubFactory(invite_only=True)
    ClubFactory(invite_only=False)

    response = client.get("/accounts/signup/")

    assert 'name="password1"' in response.content.decode()


def test_an_invite_only_club_closes_sign_up_without_an_invitation(client):
    ClubFactory(invite_only=True)

    page = client.get("/accounts/signup/")
    _sign_up(client)

    assert "Sign-up is by invitation" in page.content.decode()
    assert not get_user_model().objects.filter(username="dora").exists()


def test_an_invitation_link_carries_the_right_to_sign_up(client, muster):
    muster.campaign.club.invite_only = True
    muster.campaign.club.save()
    invitation = invitation_create(campaign=muster.campaign, user=muster.olivia)

    client.get(f"/campaigns/{muster.campaign.pk}/join/{invitation.code}/")
    response = _sign_up(client)

    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()


def test_a_revoked_invitation_no_longer_opens_sign_up(client, muster):
    from campaigns.services import invitation_revoke

    muster.campaign.club.invite_only = True
    muster.campaign.club.save()
    invitation = invitation_create(campaign=muster.campaign, user=muster.olivia)
    client.get(f"/campaigns/{muster.campaign.pk}/join/{invitation.code}/")
    invitation_revoke(invitation=invitation, user=muster.olivia)

    _sign_up(client)

    assert not get_user_model().objects.filter(username="dora").exists()


def test_password_reset_mails_a_link_that_sets_a_new_password(client):
    UserFactory(username="alice", email="alice@example.org")

    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    link = next(
        word for word in mail.outbox[-1].body.split() if "/accounts/password/reset/key/" in word
    )
    form = client.get(link, follow=True)
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert done.status_code == 302
    assert get_user_model().objects.get(username="alice").check_password(NEW_PASSWORD)


def test_a_signed_in_player_changes_their_password(client):
    alice = UserFactory(username="alice")
    client.force_login(alice)

    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_the_profile_asks_strangers_to_sign_in(client):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_player_sets_their_display_name_on_the_profile(client):
    alice = UserFactory(username="alice")
    client.force_login(alice)

    response = client.post("/accounts/profile/", {"display_name": "  Alice   of Anjou "})

    alice.refresh_from_db()
    assert response.status_code == 302
    assert alice.first_name == "Alice of Anjou"


def test_a_display_name_too_long_is_refused_beside_the_field(client):
    alice = UserFactory(username="alice", first_name="Alice")
    client.force_login(alice)

    response = client.post("/accounts/profile/", {"display_name": "x" * 151})

    alice.refresh_from_db()
    assert response.status_code == 200
    assert 'id="id_display_name-error"' in response.content.decode()
    assert alice.first_name == "Alice"


def test_the_display_name_is_what_the_campaign_shows(client, muster):
    muster.bob.first_name = "Bob the Bold"
    muster.bob.save()
    client.force_login(muster.alice)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert "Bob the Bold" in html


def test_signing_out_is_a_post_and_ends_the_session(client):
    client.force_login(UserFactory(username="alice"))

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert client.get("/").status_code == 302
