"""Double taps are harmless: a table request sent twice with its key is applied once."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from battles import services
from battles.models import Battle, BattleEvent, BattleStatus
from tests.battles.conftest import Cast, fought_battle


def _pair(battle: Battle) -> tuple[int, int]:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    return red.pk, blue.pk


def _fire(battle: Battle, key: str) -> BattleEvent:
    red, blue = _pair(battle)
    return services.battle_resolve(
        battle=battle, check="fire", actor=red, target=blue, params={"skill": 9}, key=key
    )


def test_a_check_sent_twice_with_one_key_is_resolved_once(battle: Battle) -> None:
    first = _fire(battle, "tap-1")
    again = _fire(battle, "tap-1")

    assert again.pk == first.pk
    assert battle.events.count() == 1


def test_two_taps_with_different_keys_are_two_checks(battle: Battle) -> None:
    _fire(battle, "tap-1")
    _fire(battle, "tap-2")

    assert battle.events.count() == 2


def test_a_void_sent_twice_voids_only_the_last_event(battle: Battle) -> None:
    _fire(battle, "tap-1")
    _fire(battle, "tap-2")

    services.battle_void_last(battle=battle, key="void-1")
    services.battle_void_last(battle=battle, key="void-1")

    # One void, logged once as an event of its own after the one it voids.
    assert list(battle.events.order_by("seq").values_list("kind", "voided")) == [
        ("CHECK", False),
        ("CHECK", True),
        ("VOID", False),
    ]


def test_an_activation_draw_sent_twice_draws_one_card(battle: Battle) -> None:
    services.battle_activation_start(battle=battle, method="cards", key="start-1")
    services.battle_activation_start(battle=battle, method="cards", key="start-1")
    services.battle_activation_draw(battle=battle, key="draw-1")
    services.battle_activation_draw(battle=battle, key="draw-1")

    assert battle.events.count() == 2


def test_a_finish_sent_twice_is_finished_once(cast: Cast) -> None:
    battle = fought_battle(cast)

    services.battle_finish(battle=battle, user=cast.olivia, key="finish-1")
    again = services.battle_finish(battle=battle, user=cast.olivia, key="finish-1")

    assert again.status == BattleStatus.FINISHED


def test_the_database_refuses_a_second_event_with_the_same_key(battle: Battle) -> None:
    _fire(battle, "tap-1")

    with pytest.raises(IntegrityError), transaction.atomic():
        BattleEvent.objects.create(battle=battle, seq=2, check_name="fire", request_key="tap-1")
