"""Side rules at the table on two phones: each player draws only when the draw is theirs.

alice plays Red (side 1), bob plays Blue (side 2), olivia organises the campaign (see conftest).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle
from battles.services.turns import drawing_sides, drawn_sides
from tests.battles.conftest import Cast, start_battle


def _owner(cast: Cast, side: int) -> Any:
    return (cast.alice, cast.bob)[side]


def _drawn_once(cast: Cast, **kwargs: Any) -> tuple[Battle, int]:
    """Start dice and counters (every draw names one unit) and let olivia draw once."""
    battle = start_battle(cast, **kwargs)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)
    drawn = services.battle_activation_draw(battle=battle, user=cast.olivia)
    (side,) = drawn_sides(drawn.details)
    return battle, side


def test_a_draw_names_the_sides_of_the_units_it_activated() -> None:
    assert drawn_sides({"unit": "2:Line"}) == {1}
    assert drawn_sides({"units": ["1:Line", "1:Guns"], "turn": 3}) == {0}
    assert drawn_sides({"side": "2", "may_act": ["2:Ned"]}) == {1}
    assert drawn_sides({"turn_ends": True, "turn": 2}) == frozenset()


def test_after_a_start_either_player_may_draw(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)

    services.battle_activation_draw(battle=battle, user=cast.bob)

    assert battle.events.count() == 2


def test_the_player_whose_unit_activated_draws_next_and_the_other_is_refused_by_name(
    cast: Cast,
) -> None:
    battle, side = _drawn_once(cast, one_phone=False)
    waiting, drawing = _owner(cast, 1 - side), _owner(cast, side)

    with pytest.raises(ValidationError, match=f"{drawing.username} draws the next activation"):
        services.battle_activation_draw(battle=battle, user=waiting)
    assert battle.events.count() == 2  # nothing drawn, no dice rolled

    services.battle_activation_draw(battle=battle, user=drawing)
    assert battle.events.count() == 3


def test_the_organiser_draws_for_anyone(cast: Cast) -> None:
    battle, _ = _drawn_once(cast, one_phone=False)

    services.battle_activation_draw(battle=battle, user=cast.olivia)

    assert battle.events.count() == 3


def test_one_phone_mode_lets_either_player_draw(cast: Cast) -> None:
    battle, side = _drawn_once(cast)

    services.battle_activation_draw(battle=battle, user=_owner(cast, 1 - side))

    assert drawing_sides(battle) is None and battle.events.count() == 3


def test_a_voided_draw_hands_the_draw_back(cast: Cast) -> None:
    battle, _ = _drawn_once(cast, one_phone=False)

    services.battle_void_last(battle=battle, user=cast.olivia)

    assert drawing_sides(battle) is None  # the start stands again: either player draws


def test_the_api_refuses_a_draw_by_the_other_player_with_the_same_words(cast: Cast) -> None:
    battle, side = _drawn_once(cast, one_phone=False)
    waiting, drawing = _owner(cast, 1 - side), _owner(cast, side)

    refused = cast.client(waiting).post(f"/api/battles/{battle.pk}/draw/")
    allowed = cast.client(drawing).post(f"/api/battles/{battle.pk}/draw/")

    assert refused.status_code == 400
    assert f"{drawing.username} draws the next activation" in str(refused.json())
    assert allowed.status_code == 201


def test_the_api_refuses_a_check_for_the_opponents_figure(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    body = {"check": "fire", "actor": red.pk, "target": blue.pk, "params": {"skill": 9}}

    answer = cast.client(cast.bob).post(f"/api/battles/{battle.pk}/resolve/", body, format="json")

    assert answer.status_code == 400
    assert f"{red.name} is alice's figure" in str(answer.json())
    assert battle.events.count() == 0


# --- voiding a draw: it belongs to the player who drew ------------------------------------


def _drawn_by_its_player(cast: Cast, **kwargs: Any) -> tuple[Battle, Any, Any]:
    """Draw once more, by the player whose unit activated; return (battle, drawer, other)."""
    battle, side = _drawn_once(cast, **kwargs)
    drawer, other = _owner(cast, side), _owner(cast, 1 - side)
    services.battle_activation_draw(battle=battle, user=drawer)
    return battle, drawer, other


def test_a_draw_records_the_player_who_drew_it(cast: Cast) -> None:
    battle, drawer, _ = _drawn_by_its_player(cast, one_phone=False)

    assert battle.events.order_by("-seq").first().created_by == drawer


def test_the_other_player_may_not_void_a_draw_and_is_told_whose_it_is(cast: Cast) -> None:
    battle, drawer, other = _drawn_by_its_player(cast, one_phone=False)
    head = Battle.objects.get(pk=battle.pk).activation_state

    with pytest.raises(ValidationError, match=f"{drawer.username} drew this activation"):
        services.battle_void_last(battle=battle, user=other)

    battle.refresh_from_db()
    assert battle.activation_state == head  # nothing restored
    assert not battle.events.filter(voided=True).exists() and battle.events.count() == 3


def test_the_drawer_and_the_organiser_may_void_a_draw(cast: Cast) -> None:
    battle, drawer, _ = _drawn_by_its_player(cast, one_phone=False)

    services.battle_void_last(battle=battle, user=drawer)  # the third event, the player's draw
    services.battle_void_last(battle=battle, user=cast.olivia)  # the second, olivia's own

    assert sorted(battle.events.filter(voided=True).values_list("seq", flat=True)) == [2, 3]


def test_either_player_may_void_the_organisers_draw(cast: Cast) -> None:
    battle, side = _drawn_once(cast, one_phone=False)  # olivia drew: she plays no side

    services.battle_void_last(battle=battle, user=_owner(cast, 1 - side))

    assert battle.events.filter(voided=True).count() == 1


def test_one_phone_mode_lets_either_player_void_a_draw(cast: Cast) -> None:
    battle, _, other = _drawn_by_its_player(cast)

    services.battle_void_last(battle=battle, user=other)

    assert battle.events.filter(voided=True).count() == 1


def test_the_other_player_may_not_void_a_start_either(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.alice)

    with pytest.raises(ValidationError, match="alice started this activation"):
        services.battle_void_last(battle=battle, user=cast.bob)


def test_the_api_refuses_the_other_players_void_of_a_draw_by_name(cast: Cast) -> None:
    battle, drawer, other = _drawn_by_its_player(cast, one_phone=False)

    refused = cast.client(other).post(f"/api/battles/{battle.pk}/void/")
    allowed = cast.client(drawer).post(f"/api/battles/{battle.pk}/void/")

    assert refused.status_code == 400
    assert f"only {drawer.username} or an organiser may void it" in str(refused.json())
    assert allowed.status_code == 200 and allowed.json()["seq"] == 3
