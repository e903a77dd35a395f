"""The table page renders in every activation state of every method of every system."""

from __future__ import annotations

import re

import pytest

from battles.models import Battle
from battles.services import SideChoice, battle_start
from pages.activation import activation_lines
from rules.system import all_systems
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

METHODS = [(s.key, name) for s in all_systems() for name in s.activation]
#: What a player must never read: dotted event names, side-prefixed refs, snake_case keys.
RAW = re.compile(r"activation\.(start|draw)|\b\d:\w|\b[a-z]+_[a-z_]+\b\s*[:=]")


def _battle(system: str) -> tuple[Battle, object]:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(system=system)
    forces = []
    for owner, name in ((alice, "Red"), (bob, "Blue")):
        force = ForceFactory(campaign=campaign, owner=owner, name=name)
        for u in range(2):
            unit = UnitFactory(force=force, name=f"{name} band {u + 1}")
            for i in range(2):
                CharacterFactory(force=force, unit=unit, name=f"{name} man {u * 2 + i + 1}")
        forces.append(force)
    battle = battle_start(sides=[SideChoice(force=f) for f in forces], campaign=campaign)
    return battle, alice


def _visible_text(html: str) -> str:
    body = html.split('id="table"', 1)[1]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", body, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


@pytest.mark.parametrize(("system", "method"), METHODS)
def test_the_table_renders_after_starting_and_through_many_draws(client, system, method):
    battle, alice = _battle(system)
    client.force_login(alice)

    started = client.post(f"/battles/{battle.pk}/activation/", {"method": method})
    assert started.status_code == 302
    page = client.get(f"/battles/{battle.pk}/")
    assert page.status_code == 200
    assert 'data-testid="activation"' in page.content.decode()

    for _ in range(14):  # through the end of a turn, a reshuffle and a new deal
        assert client.post(f"/battles/{battle.pk}/draw/").status_code == 302
        page = client.get(f"/battles/{battle.pk}/")
        assert page.status_code == 200
        text = _visible_text(page.content.decode())
        assert not RAW.search(text), RAW.search(text)


def test_a_dice_tie_shows_each_roll_and_the_reroll_by_unit_name():
    lines = activation_lines(
        {
            "units": ["1:Red band 1"],
            "turn": 1,
            "rolls": [{"1:Red band 1": 3, "2:Blue band 1": 3}, {"1:Red band 1": 5}],
        }
    )

    assert lines == ("Dice: Red band 1 3 · Blue band 1 3", "Tied, rolled again: Red band 1 5")


def test_dice_and_counters_show_the_running_totals():
    lines = activation_lines({"unit": "2:Blue band 1", "turn": 1, "totals": {"1:A": 3, "2:B": 5}})

    assert lines == ("Counters so far: A 3 · B 5",)
