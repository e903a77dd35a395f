"""A new player's first league game in a real browser (390×844): olivia makes an invitation
link, a brand-new user signs up through it and joins, reports the result of their first game,
and bob, the opponent, confirms it from his own browser."""

from __future__ import annotations

import pytest

from campaigns.models import Membership
from league.models import Pairing
from league.services import round_create_manual
from tests.browser.conftest import PHONE, Screens
from tests.factories import PASSWORD
from tests.pages.conftest import make_muster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NEW_PASSWORD = "pikes and shot 1642"


def _context(browser):
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    context.set_default_timeout(15_000)
    return context, context.new_page()


def _sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{url}/")


def test_a_new_player_signs_up_joins_and_reports_a_result_the_opponent_confirms(
    browser, live_server
):
    muster = make_muster(size=3)
    contexts = []
    try:
        # olivia makes the link and shows its QR code.
        olivia_context, olivia = _context(browser)
        contexts.append(olivia_context)
        _sign_in(olivia, live_server.url, "olivia")
        olivia.goto(f"{live_server.url}/campaigns/{muster.campaign.pk}/")
        olivia.get_by_test_id("invite-players").click()
        olivia.get_by_role("button", name="Make a new link").click()
        link = olivia.get_by_test_id("invite-link").inner_text().strip()
        Screens(olivia)("join-01-organiser-invitation-link")
        assert f"/campaigns/{muster.campaign.pk}/join/" in link

        # dora, who has no account, opens it, signs up and comes back to join.
        dora_context, dora = _context(browser)
        contexts.append(dora_context)
        dora_screens = Screens(dora)
        dora.goto(link)
        dora.get_by_role("heading", name=f"Join {muster.campaign.name}").wait_for()
        dora_screens("join-02-invitation-anonymous")
        dora.get_by_role("link", name="Sign up to join").click()
        dora.get_by_label("Username").fill("dora")
        dora.get_by_label("Email").fill("dora@example.org")
        dora.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
        dora.get_by_label("Password (again)").fill(NEW_PASSWORD)
        dora.get_by_label("Display name").fill("Dora the Drummer")
        dora_screens("join-03-sign-up")
        dora.get_by_role("button", name="Sign up").click()
        dora.get_by_role("button", name="Join as a player").wait_for()
        dora_screens("join-04-invitation-signed-in")
        dora.get_by_role("button", name="Join as a player").click()
        dora.get_by_role("heading", name=muster.campaign.name, exact=True).wait_for()
        assert "Dora the Drummer" in dora.get_by_test_id("members").inner_text()

        # The organiser pairs the round (in the admin; here through the service).
        players = Membership.objects.filter(campaign=muster.campaign)
        round_create_manual(
            campaign=muster.campaign,
            pairings=[(players.get(user__username="dora"), players.get(user__username="bob"))],
        )
        pairing = Pairing.objects.get(round__campaign=muster.campaign)

        # dora reports: she won 11-7.
        dora.reload()
        game = dora.get_by_test_id("my-game")
        assert "you v bob" in game.inner_text()
        dora_screens("join-05-my-game-to-report")
        game.get_by_label("I won").check()
        game.get_by_label("Your victory points").fill("11")
        game.get_by_label("Their victory points").fill("7")
        game.get_by_label("Short report (optional)").fill("The drums carried the day.")
        game.get_by_role("button", name="Send my result").click()
        dora.get_by_test_id("my-game").wait_for()
        assert dora.get_by_test_id("my-game").get_attribute("data-state") == "waiting"
        dora_screens("join-06-reported-waiting")

        # bob signs in elsewhere, sees it on his home page and confirms it.
        bob_context, bob = _context(browser)
        contexts.append(bob_context)
        bob_screens = Screens(bob)
        _sign_in(bob, live_server.url, "bob")
        assert (
            "Confirm the result against Dora the Drummer"
            in bob.get_by_test_id("attention").inner_text()
        )
        bob_screens("join-07-opponent-home-attention")
        bob.get_by_role("link", name="Confirm the result against Dora the Drummer").click()
        bob.get_by_test_id("confirm-result").wait_for()
        bob_screens("join-08-opponent-confirms")
        bob.get_by_test_id("confirm-result").click()
        bob.get_by_test_id("my-game").wait_for()
        assert bob.get_by_test_id("my-game").get_attribute("data-state") == "agreed"
        bob_screens("join-09-opponent-agreed")

        # The game counts, and dora sees that bob agreed.
        pairing.refresh_from_db()
        assert pairing.is_settled and (pairing.home_vp, pairing.away_vp) == (11, 7)
        dora.reload()
        assert dora.get_by_test_id("my-game").get_attribute("data-state") == "agreed"
        dora_screens("join-10-agreed")
        with dora.expect_response(lambda r: "/packet.pdf" in r.url) as answer:
            dora.get_by_test_id("game-packet").click()
        assert answer.value.status == 200
    finally:
        for context in contexts:
            context.close()


def test_the_account_and_organiser_pages_read_well_on_a_phone(browser, live_server):
    """Every page around accounts and joining, photographed and held to the basics."""
    from campaigns.services import invitation_create
    from league.services import claim_from, pairing_report

    muster = make_muster(size=2)
    players = Membership.objects.filter(campaign=muster.campaign)
    round_create_manual(
        campaign=muster.campaign,
        pairings=[(players.get(user__username="alice"), players.get(user__username="bob"))],
    )
    pairing = Pairing.objects.get(round__campaign=muster.campaign)
    pairing_report(pairing=pairing, user=muster.alice, claim=claim_from({"winner": "HOME"}))
    pairing_report(pairing=pairing, user=muster.bob, claim=claim_from({"winner": "AWAY"}))
    invitation_create(campaign=muster.campaign, user=muster.olivia)
    context, page = _context(browser)
    try:
        screens = Screens(page)
        url = live_server.url
        page.goto(f"{url}/accounts/login/")
        screens("account-sign-in")
        page.goto(f"{url}/accounts/password/reset/")
        screens("account-password-reset")
        page.get_by_label("Email").fill("olivia@example.org")
        page.get_by_role("button", name="Reset my password").click()
        page.wait_for_url("**/password/reset/done/")
        screens("account-password-reset-sent")

        _sign_in(page, url, "olivia")
        for name, path in (
            ("account-profile", "/accounts/profile/"),
            ("account-password-change", "/accounts/password/change/"),
            ("account-email", "/accounts/email/"),
            ("campaign-organiser", f"/campaigns/{muster.campaign.pk}/"),
            ("campaign-disputes", f"/campaigns/{muster.campaign.pk}/disputes/"),
        ):
            page.goto(f"{url}{path}")
            screens(name)
        page.get_by_role("button", name="alice's result stands").click()
        page.get_by_text("No disputed results").wait_for()
        page.goto(f"{url}/campaigns/{muster.campaign.pk}/")
        page.get_by_role("link", name="Remove bob").click()
        screens("campaign-member-remove")
        page.get_by_role("button", name="Remove bob").click()
        page.get_by_text("has league games").wait_for()
        screens("campaign-member-remove-refused")
    finally:
        context.close()
