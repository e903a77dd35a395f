"""A player builds a Rencounter force on a phone: a new force, two units, six musketeers at
once, a figure rolled up with the squad creator, a hand edit to a fire skill that the service
record shows, and the base labels as a PDF."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from campaigns.models import Role
from rosters.models import Character, EntryCause, Force
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(page, live_server, user) -> None:
    """Give the browser the session of a signed-in user (sign-up is tested on its own)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def player_in(system: str, campaign_name: str):
    player = UserFactory(username="paula")
    campaign = CampaignFactory(name=campaign_name, system=system)
    MembershipFactory(user=player, campaign=campaign, role=Role.PLAYER)
    return player, campaign


def create_force(page, live_server, campaign, name: str) -> Force:
    page.goto(f"{live_server.url}/forces/new/?campaign={campaign.pk}")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Faction").fill("Parliament")
    page.get_by_role("button", name="Create the force").click()
    page.get_by_role("heading", name=f"Edit {name}").wait_for()
    return Force.objects.get(name=name)


def add_unit(page, name: str) -> None:
    page.get_by_label("Unit name").fill(name)
    page.get_by_role("button", name="Add the unit").click()
    page.get_by_role("link", name=name, exact=True).wait_for()


def test_a_player_builds_a_rencounter_force_and_prints_its_labels(page, live_server, screens):
    player, campaign = player_in("rencounter", "Edgehill")
    signed_in(page, live_server, player)

    force = create_force(page, live_server, campaign, "Hampden's Greencoats")
    add_unit(page, "Musketeers")
    add_unit(page, "Pikemen")
    page.get_by_role("button", name="Down Musketeers").click()
    expect(page.locator(".unit-row").first).to_contain_text("Pikemen")
    page.get_by_role("button", name="Up Musketeers").click()
    expect(page.locator(".unit-row").first).to_contain_text("Musketeers")
    assert list(force.units.order_by("order").values_list("name", flat=True)) == [
        "Musketeers",
        "Pikemen",
    ]
    page.get_by_label("Name of the new unit").fill("Forlorn Hope")
    page.get_by_role("button", name="Roll the squad").click()
    page.get_by_text("The squad creator rolled Forlorn Hope").wait_for()
    hope = force.units.get(name="Forlorn Hope")
    assert hope.leader.name == "Forlorn Hope 1"
    screens("build-force-units")

    # Six musketeers at once: F 7 M 6 Ex 3, matchlock musket.
    page.get_by_role("link", name="Add several at once").click()
    page.get_by_label("How many").fill("6")
    page.get_by_label("Name", exact=True).fill("Musketeer")
    page.get_by_label("Unit").select_option(label="Musketeers")
    page.get_by_label("Experience").select_option(label="3 Green")
    page.get_by_label("Fire skill").fill("7")
    page.get_by_label("Melee skill").fill("6")
    page.get_by_label("Matchlock musket (missile)").check()
    screens("build-force-several")
    page.get_by_test_id("save-many").click()
    page.get_by_text("6 characters join").wait_for()
    assert force.characters.filter(stats__fire=7, stats__melee=6).count() == 6

    # One figure rolled up with the squad creator, then saved.
    page.get_by_role("link", name="Add a figure").first.click()
    page.get_by_label("Name", exact=True).fill("Sgt. Venn")
    page.get_by_label("Unit").select_option(label="Pikemen")
    page.get_by_role("button", name="Roll a leader").click()
    page.get_by_test_id("rolled").wait_for()
    assert (
        "Roll a leader (Muster's dice: leader experience d6"
        in page.get_by_test_id("rolled").inner_text()
    )
    screens("build-force-rolled")
    page.get_by_test_id("save-figure").click()
    page.get_by_text("Sgt. Venn joins").wait_for()
    venn = Character.objects.get(name="Sgt. Venn")
    assert venn.service_record.get().note.startswith("Roll a leader")
    screens("build-force-roster")

    # A hand edit to one figure's fire skill shows in its service record.
    page.get_by_role("link", name="Musketeer 2").click()
    page.get_by_role("link", name="Edit", exact=True).click()
    page.get_by_label("Fire skill").fill("9")
    screens("build-force-edit-character")
    page.get_by_test_id("save-character").click()
    timeline = page.get_by_test_id("timeline")
    timeline.get_by_text("Edited by hand").wait_for()
    assert "Fire skill: 7 → 9" in timeline.inner_text()
    assert "Edited by hand by paula" in timeline.inner_text()
    entry = Character.objects.get(name="Musketeer 2").service_record.latest("pk")
    assert (entry.cause, entry.user_id) == (EntryCause.HAND_EDIT, player.pk)
    screens("build-force-service-record")

    # The labels.
    page.get_by_role("link", name="Hampden's Greencoats").first.click()
    with page.expect_response(lambda r: "/labels.pdf" in r.url) as answer:
        page.get_by_test_id("print-labels").click()
    response = answer.value
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert page.request.get(response.url).body()[:5] == b"%PDF-"
