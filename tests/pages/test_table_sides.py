"""The table page on two phones offers each player only their own side's figures.

alice plays Red, bob plays Blue, olivia organises the campaign (tests/battles/conftest.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from battles import services
from battles.models import Battle
from battles.services.turns import drawn_sides
from tests.battles.conftest import Cast, make_cast, start_battle


@pytest.fixture
def cast(db: Any) -> Cast:
    return make_cast()


def _who_acts(html: str) -> list[str]:
    """The figure names the "Who acts" list offers."""
    select = re.search(r'<select id="check-actor".*?</select>', html, re.S)
    assert select is not None
    return re.findall(r"<option value=\"\d+\"[^>]*>([^<]+)</option>", select.group(0))


def _table(client: Any, user: Any, battle: Battle, query: str = "") -> str:
    client.force_login(user)
    return client.get(f"/battles/{battle.pk}/{query}").content.decode()


def test_on_their_own_phones_who_acts_offers_only_the_viewers_figures(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)

    alice_sees = _who_acts(_table(client, cast.alice, battle))
    bob_sees = _who_acts(_table(client, cast.bob, battle))

    assert alice_sees == ["Red 1", "Red 2", "Red 3"]
    assert bob_sees == ["Blue 1", "Blue 2", "Blue 3"]


def test_the_organiser_and_one_phone_mode_are_offered_every_figure(client, cast: Cast) -> None:
    everyone = ["Red 1", "Red 2", "Red 3", "Blue 1", "Blue 2", "Blue 3"]
    two_phones = start_battle(cast, one_phone=False)
    one_phone = start_battle(cast)

    assert _who_acts(_table(client, cast.olivia, two_phones)) == everyone
    assert _who_acts(_table(client, cast.bob, one_phone)) == everyone


def test_an_opponents_figure_in_the_address_is_not_picked_as_the_actor(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red = battle.figures.filter(side__index=0).order_by("pk").first()

    html = _table(client, cast.bob, battle, f"?actor={red.pk}")

    assert f'<option value="{red.pk}"' not in html


def test_only_the_viewers_figures_carry_the_adjust_buttons(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = (battle.figures.filter(side__index=i).order_by("pk").first() for i in (0, 1))

    html = _table(client, cast.bob, battle)

    assert f'data-testid="adjust-{blue.pk}"' in html
    assert f'data-testid="adjust-{red.pk}"' not in html


def test_acting_for_the_opponents_figure_from_the_page_is_refused_by_name(
    client, cast: Cast
) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = (battle.figures.filter(side__index=i).order_by("pk").first() for i in (0, 1))
    client.force_login(cast.bob)

    answer = client.post(
        f"/battles/{battle.pk}/check/",
        {"actor": red.pk, "check": "fire", "against": blue.pk, "skill": 9, "key": "k1"},
    )

    assert answer.status_code == 400
    assert "Red 1 is alice&#x27;s figure" in answer.content.decode()
    assert battle.events.count() == 0


def test_the_draw_waits_for_the_player_whose_unit_activated_last(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)
    drawn = services.battle_activation_draw(battle=battle, user=cast.olivia)
    (side,) = drawn_sides(drawn.details)
    drawing, waiting = (cast.alice, cast.bob) if side == 0 else (cast.bob, cast.alice)

    waiting_page = _table(client, waiting, battle)
    refused = client.post(f"/battles/{battle.pk}/draw/", {"key": "d1"})
    drawing_page = _table(client, drawing, battle)
    drawn_again = client.post(f"/battles/{battle.pk}/draw/", {"key": "d2"})

    assert f"{drawing.username} draws the next activation" in waiting_page
    assert refused.status_code == 400
    assert f"{drawing.username} draws the next activation" in refused.content.decode()
    # Both controls are on both pages, one hidden, so the stream can swap them (live.js).
    assert re.search(r'data-testid="draw-waits" data-draw-waits hidden></p>', drawing_page)
    assert re.search(r"<form [^>]*data-draw-form>", drawing_page)
    assert re.search(r"<form [^>]*data-draw-form hidden>", waiting_page)
    assert drawn_again.status_code == 302 and battle.events.count() == 3


def test_the_draw_control_says_which_sides_the_viewer_draws_for(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)

    plays = {
        user.username: re.search(r'data-draw-plays="([^"]*)"', _table(client, user, battle))
        for user in (cast.alice, cast.bob, cast.olivia)
    }

    assert {name: found.group(1) for name, found in plays.items() if found} == {
        "alice": "0",
        "bob": "1",
        "olivia": "all",
    }


def test_the_page_refuses_the_other_players_void_of_a_draw_by_name(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.olivia)
    drawn = services.battle_activation_draw(battle=battle, user=cast.olivia)
    (side,) = drawn_sides(drawn.details)
    drawer, other = (cast.alice, cast.bob) if side == 0 else (cast.bob, cast.alice)
    services.battle_activation_draw(battle=battle, user=drawer)
    client.force_login(other)

    refused = client.post(f"/battles/{battle.pk}/void/", {"key": "v1"})
    client.force_login(drawer)
    allowed = client.post(f"/battles/{battle.pk}/void/", {"key": "v2"})

    assert refused.status_code == 400
    assert f"{drawer.username} drew this activation" in refused.content.decode()
    assert allowed.status_code == 302
    assert list(battle.events.filter(voided=True).values_list("seq", flat=True)) == [3]
