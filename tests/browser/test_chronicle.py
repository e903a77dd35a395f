"""The chronicle in a browser at phone width: the campaign's story, a battle report with a
player's paragraph written through the form, an obituary, and the printed chronicle's pages."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rosters.models import Character
from tests.browser.conftest import SCREENSHOTS
from tests.chronicle.conftest import demo, fight, finish, rare_fight  # noqa: F401 (fixture)
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def chronicle(demo):  # noqa: F811
    """The demo club, a rare fight, a death in battle, and the demo players' password known."""
    for user in get_user_model().objects.all():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    rare_fight(demo["escarmouche"])
    battle = fight(demo["rencounter"], "The last stand at the mill")
    victim = battle.figures.filter(side__index=1).order_by("pk").first()
    winner = battle.figures.filter(side__index=0).order_by("pk").first()
    finish(battle, [{"figure": victim.pk, "status": "dead"}, {"figure": winner.pk, "kills": 1}])
    return demo


def test_alice_reads_the_chronicle_writes_her_paragraph_and_prints_it(
    page, live_server, screens, sign_in, chronicle
):
    campaign = chronicle["rencounter"]
    sign_in("alice")

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/chronicle/")
    assert page.get_by_role("heading", name="Roll of honour").is_visible()
    screens("chronicle-campaign")

    battle = Battle.objects.get(scenario="The last stand at the mill")
    page.goto(f"{live_server.url}/battles/{battle.pk}/report/")
    page.get_by_label("Your paragraph").fill("Gridley held the mill race until the powder ran out.")
    page.get_by_role("button", name="Save my paragraph").click()
    assert page.get_by_test_id("player-paragraph").is_visible()
    screens("chronicle-battle-report")

    rare = Battle.objects.get(scenario="The rare fight")
    page.goto(f"{live_server.url}/battles/{rare.pk}/report/")
    assert page.get_by_text("1 in 144").is_visible()
    screens("chronicle-rare-report")

    dead = Character.objects.get(status=Character.Status.DEAD, force__campaign=campaign)
    page.goto(f"{live_server.url}/characters/{dead.pk}/story/")
    assert page.get_by_role("heading", name="Obituary").is_visible()
    screens("chronicle-obituary")

    pdf = page.request.get(f"{live_server.url}/campaigns/{campaign.pk}/chronicle.pdf")
    assert pdf.status == 200
    path = SCREENSHOTS / "chronicle.pdf"
    path.write_bytes(pdf.body())
    # Rendered with pypdfium2 (a dev dependency), not poppler's pdftoppm: no system package.
    document = pdfium.PdfDocument(pdf.body())
    try:
        for number, pdf_page in enumerate(document, start=1):
            image = pdf_page.render(scale=70 / 72).to_pil()
            image.save(SCREENSHOTS / f"chronicle-pdf-{number}.png")
    finally:
        document.close()
    assert sorted(SCREENSHOTS.glob("chronicle-pdf-*.png"))
