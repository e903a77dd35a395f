"""The table assistant on a 390 px phone: short at the start, the result always in view.

For each of the five systems a battle is played through activation, three checks (one with
dice typed in, one voided), the result and the finish; after every Resolve the result must
be on screen without the player scrolling.
"""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleStatus
from battles.services import SideChoice, battle_start
from pages.table import suggested_check
from rules.checks import Check
from rules.dice import SeededDice
from rules.errors import RulesError
from rules.system import all_systems, get_system
from tests.browser.conftest import choose
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)
from tests.pages.conftest import make_muster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_SCREENS = 2
IN_VIEW = """() => {
  const box = document.querySelector('#result').getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_a_six_a_side_rencounter_table_starts_within_two_phone_screens(
    page, live_server, sign_in, screens
):
    muster = make_muster(size=6)
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    sign_in("alice")
    page.goto(f"{live_server.url}/battles/{battle.pk}/")

    height = page.evaluate("document.documentElement.scrollHeight")
    screens("table-start-6v6")
    assert height <= PHONE_SCREENS * 844, height


def test_a_rencounter_melee_shows_nine_against_eight_and_its_odds_without_opening_situation(
    page, live_server, sign_in, screens
):
    muster = make_muster(size=2)
    for force, melee in ((muster.red, 9), (muster.blue, 8)):
        man = force.characters.get(name=f"{force.name} man 1")
        man.stats = {**man.stats, "melee": melee}
        man.save()
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    melee = get_system("rencounter").checks["melee"]
    sign_in("alice")
    page.goto(f"{live_server.url}/battles/{battle.pk}/")

    choose(page, "Check", melee.title)
    choose(page, "Who acts", "Red man 1")
    choose(page, "Against", "Blue man 1")

    attack, parry = page.locator("#param-attack_skill"), page.locator("#param-parry_skill")
    assert attack.is_visible() and parry.is_visible()
    assert (attack.input_value(), parry.input_value()) == ("9", "8")
    assert page.get_by_test_id("source-attack_skill").inner_text() == "melee 9 — Red man 1"
    assert page.get_by_test_id("source-parry_skill").inner_text() == "melee 8 — Blue man 1"
    assert page.locator("details.situation").get_attribute("open") is None
    # The odds on the page are the engine's for the form as it stands: 9 against 8.
    sent = page.evaluate(
        "() => Object.fromEntries(new FormData(document.querySelector('#check-form')))"
    )
    params = {f.name: sent[f.name] for f in melee.params.fields if f.name in sent}
    assert (params["attack_skill"], params["parry_skill"]) == ("9", "8")
    odds = melee.odds(params)
    rows = page.locator("#preview tr[data-outcome]")
    shown = {r.get_attribute("data-outcome"): r.get_attribute("data-exact") for r in rows.all()}
    assert shown == {k: f"{v.numerator}/{v.denominator}" for k, v in odds.probabilities.items()}
    screens("table-melee-9-v-8")


def _battle(system: str) -> Battle:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(system=system, name=f"{get_system(system).name} league")
    for user in (alice, bob):
        MembershipFactory(user=user, campaign=campaign)
    forces = []
    for owner, name in ((alice, "Red"), (bob, "Blue")):
        force = ForceFactory(campaign=campaign, owner=owner, name=name)
        unit = UnitFactory(force=force, name=f"{name} band")
        for i in range(3):
            CharacterFactory(force=force, unit=unit, name=f"{name} man {i + 1}")
        forces.append(force)
    return battle_start(sides=[SideChoice(force=f) for f in forces], campaign=campaign, user=alice)


def _resolve(page, seq: int) -> None:
    page.get_by_test_id("resolve").click()
    page.locator(f'.event[data-seq="{seq}"]').wait_for()
    # The swap scrolls the result into view: no jump to the top or the bottom of the page.
    page.wait_for_function(IN_VIEW, timeout=3_000)


def _playable(
    battle: Battle, actor: str, target: str, only: Check | None = None
) -> tuple[Check, str]:
    """Return the first check the figures can take as suggested, and dice it uses exactly.

    Call it again after a check: wounds or shaken change the parameters the form suggests, and
    with them how many dice the check reads.
    """
    figures = {f.name: f for f in battle.figures.all()}
    checks = [only] if only else get_system(battle.system).checks.values()
    for check in checks:
        form = suggested_check(check, figures[actor], figures[target])
        if form.params is None:
            continue
        try:
            resolution = check.resolve(form.params, SeededDice("typed", "at the table"))
        except RulesError:
            continue  # e.g. shooting with a unit that carries no missiles
        return check, " ".join(str(d.value) for d in resolution.dice)
    raise AssertionError(f"no check of {battle.system} fits these figures")


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_a_battle_is_played_on_a_phone_with_the_result_always_in_view(
    page, live_server, sign_in, screens, system
):
    battle = _battle(system)
    sign_in("alice")
    page.goto(f"{live_server.url}/battles/{battle.pk}/")

    # Activation: start the first method and draw.
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Draw").wait_for()
    page.get_by_role("button", name="Draw").click()
    page.locator('.event[data-seq="2"]').wait_for()

    # 1: a check of the system, Red man 1 against Blue man 1, server dice.
    check, _ = _playable(battle, "Red man 1", "Blue man 1")
    choose(page, "Check", check.title)
    choose(page, "Who acts", "Red man 1")
    if check.takes_target:  # a check of the actor alone shows no target to pick
        choose(page, "Against", "Blue man 1")
    _resolve(page, 3)
    screens(f"table-{system}-check")

    # 2: the same check with dice typed in at the table.
    _, dice = _playable(battle, "Red man 1", "Blue man 1", only=check)
    page.get_by_label("I rolled these").check()
    page.get_by_label("Dice rolled at the table").fill(dice)
    _resolve(page, 4)
    assert page.locator('.event[data-seq="4"] .badge', has_text="typed-in dice").count() == 1

    # 3: rolled again, then voided as a mistake.
    page.get_by_label("Roll for me").check()
    _resolve(page, 5)
    page.get_by_test_id("void").click()
    page.locator('.event.is-voided[data-seq="5"]').wait_for()
    page.wait_for_function(IN_VIEW, timeout=3_000)
    screens(f"table-{system}-voided")

    # The result, then the finish.
    page.locator("#finish > summary").click()
    page.get_by_label("Win").first.check()
    page.get_by_label("Loss").nth(1).check()
    page.get_by_role("button", name="Save the result").click()
    page.get_by_test_id("finish").click()
    page.get_by_role("heading", name="Casualties").first.wait_for()
    screens(f"after-{system}")

    battle.refresh_from_db()
    assert battle.status != BattleStatus.IN_PROGRESS
    # The void is logged as an event of its own (#6) after the one it voided.
    assert [e.voided for e in battle.events.order_by("seq")] == [False] * 4 + [True, False]
    assert battle.events.get(seq=6).kind == "VOID"
