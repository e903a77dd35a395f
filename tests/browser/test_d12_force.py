"""A player builds a d12 Skirmish force, rolling a figure's troop type and ability on the
system's own tables with Muster's dice."""

from __future__ import annotations

import pytest

from rosters.models import Character
from rules.systems.d12_skirmish.tables import BASE
from tests.browser.test_build_force import add_unit, create_force, player_in, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_rolls_troop_type_and_ability_for_a_d12_figure(page, live_server, screens):
    player, campaign = player_in("d12_skirmish", "Shiloh")
    signed_in(page, live_server, player)
    force = create_force(page, live_server, campaign, "Ohio Volunteers")
    add_unit(page, "Company B")

    page.get_by_role("link", name="Add a figure").first.click()
    page.get_by_label("Name", exact=True).fill("Cpl. Reed")
    page.get_by_label("Unit").select_option(label="Company B")
    page.get_by_role("button", name="Roll troop type and ability").click()
    rolled = page.get_by_test_id("rolled")
    rolled.wait_for()
    assert "troop type d12" in rolled.inner_text() and "ability d12" in rolled.inner_text()
    troop = page.get_by_label("Troop type").input_value()
    ability = page.get_by_label("Ability").input_value()
    screens("d12-force-rolled")

    page.get_by_test_id("save-figure").click()
    page.get_by_text("Cpl. Reed joins").wait_for()
    reed = Character.objects.get(force=force, name="Cpl. Reed")
    assert (reed.stats["troop"], reed.stats["ability"]) == (troop, ability)
    assert reed.service_record.get().note.startswith("Roll troop type and ability")
    figure = page.locator(".figure", has_text="Cpl. Reed")
    assert BASE.TROOP_NAMES[troop] in figure.inner_text()
    if ability != "none":
        assert BASE.ABILITY_NAMES[ability] in figure.inner_text()
    screens("d12-force-roster")
