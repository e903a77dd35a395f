"""Friendly fire: only where the rules allow it, marked as such, never a kill."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle


def _comrades(battle: Battle) -> tuple[int, int]:
    red = list(battle.figures.filter(side__index=0).order_by("pk"))
    return red[0].pk, red[1].pk


def test_a_musket_shot_at_a_comrade_is_refused_and_changes_nothing(battle: Battle) -> None:
    shooter, comrade = _comrades(battle)

    with pytest.raises(ValidationError, match="own side"):
        services.battle_resolve(
            battle=battle, check="fire", actor=shooter, target=comrade, params={"skill": 9}
        )

    assert not battle.events.exists()
    assert battle.figures.get(pk=comrade).state["status"] == "unhurt"


def test_friendly_fire_where_the_rules_allow_it_is_marked_and_never_a_kill(
    battle: Battle,
) -> None:
    shooter, comrade = _comrades(battle)

    # A stray shot strikes an interposed friend: damage 1 strikes him dead.
    event = services.battle_resolve(
        battle=battle, check="damage", actor=shooter, target=comrade, dice=[1]
    )

    assert event.details["friendly_fire"] is True
    assert battle.figures.get(pk=comrade).state["status"] == "dead"
    assert battle.figures.get(pk=shooter).kills == 0


def test_the_same_blow_on_an_enemy_counts_a_kill(battle: Battle) -> None:
    shooter = battle.figures.filter(side__index=0).order_by("pk").first()
    enemy = battle.figures.filter(side__index=1).order_by("pk").first()

    event = services.battle_resolve(
        battle=battle, check="damage", actor=shooter.pk, target=enemy.pk, dice=[1]
    )

    assert "friendly_fire" not in event.details
    assert battle.figures.get(pk=shooter.pk).kills == 1
