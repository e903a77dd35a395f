"""A player's evening in a real browser: sign in, print labels, play a short battle with the
table assistant, finish it, watch the post-battle rolls arrive, read the career it left."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleEvent, BattleStatus
from battles.services import battle_confirm, pipeline
from tests.browser.conftest import choose
from tests.pages.conftest import make_muster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def held_worker(monkeypatch):
    """Hold the post-battle task back, so the test plays the worker once the page is polling."""
    queued: list[int] = []
    monkeypatch.setattr(pipeline, "queue_processing", queued.append)
    return queued


FIRE = "Fire: d12 at or under skill + modifiers, then damage"
MELEE = "Melee: attack d12 against parry d12"


def _resolve(page, seq: int) -> None:
    page.get_by_test_id("resolve").click()
    page.locator(f'.event[data-seq="{seq}"]').wait_for()


def test_a_player_signs_in_and_downloads_labels_for_a_force(page, live_server, sign_in, screens):
    muster = make_muster(size=4)
    page.goto(f"{live_server.url}/accounts/login/")
    screens("sign-in")

    sign_in("alice")
    screens("home")
    page.get_by_role("link", name="Red").first.click()
    page.get_by_role("heading", name="Red", exact=True).wait_for()
    screens("force")
    with page.expect_response(lambda r: "/labels.pdf" in r.url) as answer:
        page.get_by_test_id("print-labels").click()

    response = answer.value
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert f"/api/forces/{muster.red.pk}/labels.pdf?preset=" in response.url
    # Chromium hands a PDF it opened to its viewer, so read the bytes again in the same session.
    assert page.request.get(response.url).body()[:5] == b"%PDF-"


def test_a_short_battle_from_setup_to_the_career_it_leaves(
    page, live_server, sign_in, screens, held_worker
):
    muster = make_muster(size=3)
    sign_in("alice")

    # Set up: from the campaign page, Red against Blue.
    page.goto(f"{live_server.url}/campaigns/{muster.campaign.pk}/")
    screens("campaign")
    page.get_by_role("link", name="Set up a battle").first.click()
    choose(page, "Your force", "Red — Rencounter — Brandywine", "/battles/new/")
    choose(page, "Opponent", "Blue (bob) — Rencounter — Brandywine", "/battles/new/")
    page.get_by_label("Scenario").fill("Ford at Chadd's")
    screens("battle-setup")
    page.get_by_role("button", name="Start the battle").click()
    page.get_by_role("heading", name="Resolve a check").wait_for()
    battle = Battle.objects.get()

    # 1: Red man 1 fires at Blue man 1 with the server's dice; the odds show before rolling.
    choose(page, "Check", FIRE, "/form/")
    choose(page, "Who acts", "Red man 2", "/form/")
    choose(page, "Against", "Blue man 1", "/form/")
    assert page.locator("#preview tr[data-outcome]").count() == 6
    _resolve(page, 1)

    # 2: the same shot with dice typed in at the table: a 12 misses.
    page.get_by_label("I rolled these").check()
    page.get_by_label("Dice rolled at the table").fill("12")
    _resolve(page, 2)
    assert (
        page.get_by_test_id("outcome").inner_text()
        == "Red man 2 fires at Blue man 1: miss — Red man 2: unloaded (fired)."
    )
    screens("table")

    # 3: a melee, then voided as a mistake.
    choose(page, "Check", MELEE, "/form/")
    page.get_by_label("Roll for me").check()
    _resolve(page, 3)
    page.get_by_test_id("void").click()
    page.locator('.event.is-voided[data-seq="3"]').wait_for()
    # The void is an event of its own (#4, logged and chained), marking #3 voided.
    log = [(e.kind, e.voided) for e in BattleEvent.objects.order_by("seq")]
    assert [voided for _, voided in log] == [False, False, True, False]
    assert log[-1][0] == "VOID"

    # Finish: Red wins; the worker is held back, so the page shows its progress and polls.
    page.locator("#finish > summary").click()  # folded away on a phone
    page.get_by_label("Win").first.check()
    page.get_by_label("Loss").nth(1).check()
    page.get_by_role("button", name="Save the result").click()
    page.get_by_test_id("finish").click()
    page.get_by_test_id("consent").wait_for()  # consent: bob has still to confirm
    assert "Waiting for bob (Blue) to confirm" in page.get_by_test_id("consent").inner_text()
    screens("after-reported")
    assert held_worker == []
    battle_confirm(battle=battle, user=muster.bob)  # bob confirms on his own phone
    page.reload()
    page.get_by_role("progressbar").wait_for()
    screens("after-waiting")
    assert held_worker == [battle.pk]

    pipeline.battle_process(battle_id=battle.pk)  # the worker's turn
    page.get_by_test_id("audit-ok").wait_for(timeout=10_000)
    assert page.get_by_test_id("roll").count() >= 1
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PROCESSED
    assert page.get_by_test_id("seed").inner_text() == battle.seed
    screens("after")

    # The career: the new battle is on Red man 2's timeline.
    page.get_by_role("link", name="Red man 2").first.click()
    timeline = page.get_by_test_id("timeline")
    timeline.wait_for()
    assert "Fought in Ford at Chadd's" in timeline.inner_text()
    screens("character")
