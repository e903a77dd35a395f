"""House rules end to end, in a browser at a phone's width: olivia, who organises a Grits & Glory
campaign, adds a weapon to its weapon table on the editor page, sees the exact odds before and
after, and saves; then alice, who plays in it, finds the new weapon on her unit's card and on the
campaign's reference sheet (read back from the PDFs), and the table assistant offers it.
"""

from __future__ import annotations

import re

import pytest

from battles.services import SideChoice, battle_start
from campaigns.models import Role
from campaigns.services.house_rules import house_rules_current
from rules.system import get_system
from tests.browser.conftest import choose
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)
from tests.printing.pdfs import open_pdf, page_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYSTEM = "grits_and_glory"
WEAPONS = get_system(SYSTEM).house.table("weapons")
#: The row the form leaves empty to fill: the weapon table as written, then one more.
NEW = len(WEAPONS.rows())
GATLING = {
    "Key": "gatling",
    "Name": "Gatling gun",
    "Damage dice": "2",
    "Damage bonus": "1",
    "Short range": "24",
    "Medium range": "48",
    "Long range": "96",
    "RoF": "3",
    "Reload": "0",
    "Reach": "0",
}
#: A column that sits right of a phone's screen: the table scrolls in its box, not the page.
PHONE_WIDTH = 390


@pytest.fixture
def deadwood():
    campaign = CampaignFactory(system=SYSTEM, name="Deadwood")
    olivia, alice, bob = (UserFactory(username=n) for n in ("olivia", "alice", "bob"))
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    forces = []
    for user, name in ((alice, "Red"), (bob, "Blue")):
        MembershipFactory(user=user, campaign=campaign)
        force = ForceFactory(campaign=campaign, owner=user, name=name)
        unit = UnitFactory(force=force, name=f"{name} posse")
        CharacterFactory(force=force, unit=unit, name=f"{name} Sheriff")
        forces.append(force)
    return campaign, forces


def _row_cell(page, column: str, row: str):
    return page.get_by_label(f"{column}, {row}", exact=True)


def _add_the_gatling(page) -> None:
    page.locator("#table-weapons > summary").click()
    row = f"new row {NEW + 1}"
    for column, value in GATLING.items():
        _row_cell(page, column, row).fill(value)
    _row_cell(page, "Kind", row).select_option("ranged")
    _row_cell(page, "Damage die", row).select_option("8")


def _pdf_text(page, url: str) -> str:
    """The text of a PDF the page opened (Chromium hands it to its viewer, so fetch it again
    in the same session)."""
    answer = page.request.get(url)
    assert answer.status == 200 and answer.body()[:5] == b"%PDF-"
    return " ".join(page_text(p) for p in open_pdf(answer.body()).pages)


def _no_sideways_page(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def test_an_organisers_new_weapon_reaches_the_odds_the_table_the_card_and_the_sheet(
    page, live_server, sign_in, screens, deadwood
):
    campaign, forces = deadwood
    editor = f"{live_server.url}/campaigns/{campaign.pk}/house-rules/"

    # olivia adds a Gatling gun to the weapon table and previews it.
    sign_in("olivia")
    page.goto(editor)
    screens("house-rules-start")
    _add_the_gatling(page)
    bow = next(i for i, row in enumerate(WEAPONS.rows()) if row["key"] == "bow")
    _row_cell(page, "Damage bonus", f"row {bow + 1} (bow)").fill("2")
    _no_sideways_page(page)
    page.get_by_role("button", name="Preview", exact=True).click()

    preview = page.locator("#preview")
    preview.wait_for()
    assert "Weapons: added gatling" in preview.inner_text()
    assert "Weapons, bow: Damage bonus 0 → 2" in preview.inner_text()
    gatling = page.get_by_test_id("odds-comparison").filter(has_text="Gatling gun")
    bow_odds = page.get_by_test_id("odds-comparison").filter(has_text="Bow: damage")
    assert gatling.count() >= 1 and bow_odds.count() >= 1
    # A new weapon has no odds before; the bow's move, outcome by outcome, exactly.
    first = gatling.first.locator("tbody tr").first.locator("td")
    assert first.nth(0).inner_text() == "—" and re.search(r"\d%$", first.nth(1).inner_text())
    moved = bow_odds.first.locator("tbody tr.is-up, tbody tr.is-down")
    assert moved.count() >= 1
    before, after = (moved.first.locator("td").nth(i).inner_text() for i in (0, 1))
    assert re.fullmatch(r"\d+(\.\d)?%", before) and after.endswith("%") and before not in after
    unchanged = page.get_by_test_id("odds-unchanged").inner_text()
    assert unchanged.startswith("Odds the edit leaves as they were: Shooting")
    _no_sideways_page(page)
    screens("house-rules-preview")

    page.get_by_label("What changed, in a line").fill("Gatling guns come to Deadwood")
    page.get_by_role("button", name="Save as a new version").click()
    page.get_by_text("Saved as version 1").wait_for()
    screens("house-rules-saved")
    version = house_rules_current(campaign)
    assert version is not None and version.note == "Gatling guns come to Deadwood"
    assert page.get_by_test_id("house-version").count() == 1

    # A battle set up now plays under version 1: the table assistant offers the Gatling gun.
    battle = battle_start(
        sides=[SideChoice(force=f) for f in forces], campaign=campaign, user=forces[0].owner
    )
    assert battle.house_rules_id == version.pk
    page.get_by_role("button", name=re.compile("^Sign out")).click()
    sign_in("alice")

    # alice gives her sheriff the club's new gun, then prints his card and the sheet. In
    # Grits & Glory the unit is the playing piece: his form shows the posse's stats read-only,
    # so the gun goes on the posse (its edit page) and he plays with it.
    red = forces[0]
    sheriff = red.characters.get()
    posse = sheriff.unit
    page.goto(f"{live_server.url}/characters/{sheriff.pk}/edit/")
    assert page.get_by_label("Gatling gun", exact=False).is_disabled()
    page.goto(f"{live_server.url}/units/{posse.pk}/edit/")
    page.get_by_label("Gatling gun", exact=False).check()
    screens("house-rules-unit-edit")
    page.get_by_role("button", name=re.compile("^Save")).first.click()
    page.wait_for_url(f"{live_server.url}/forces/{red.pk}/edit/#units")
    posse.refresh_from_db()
    assert "gatling" in posse.stats["weapons"]
    page.goto(f"{live_server.url}/characters/{sheriff.pk}/")
    assert "Gatling gun" in page.locator("main").inner_text()
    page.goto(f"{live_server.url}/forces/{red.pk}/")
    with page.expect_response(lambda r: "/cards.pdf" in r.url) as answer:
        page.get_by_role("button", name="Cards (PDF)").click()
    card = _pdf_text(page, answer.value.url)
    assert "Red Sheriff" in card and "Gatling gun" in card and "House rules v1" in card
    page.goto(f"{live_server.url}/forces/{red.pk}/")  # the card opened in the PDF viewer
    with page.expect_response(lambda r: "/reference.pdf" in r.url) as answer:
        page.get_by_role("link", name="Quick reference (PDF)").click()
    sheet = _pdf_text(page, answer.value.url)
    assert "Gatling gun" in sheet and "House rules v1" in sheet

    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    choose(page, "Check", "Damage against Toughness")
    page.locator("details.situation > summary").click()
    weapons = page.get_by_label("Weapon", exact=True)
    offered = [t.strip() for t in weapons.locator("option").all_text_contents()]
    assert "Gatling gun (2d8+1)" in offered
    weapons.select_option("gatling")
    screens("house-rules-table-assistant")
