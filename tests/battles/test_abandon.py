"""Careers count only battles fought; an abandoned battle is deleted without a trace."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import PermissionDenied

from battles import services
from battles.errors import BattleConflict
from battles.models import Battle
from pages.selectors import character_career
from rosters.models import Character, EntryCause, ServiceRecordEntry
from rules.system import get_system
from tests.battles.conftest import Cast, fought_battle, start_battle
from tests.consent import finish_agreed


def _veteran(cast: Cast) -> Character | None:
    return cast.red.characters.order_by("pk").first()


def test_setting_up_a_battle_writes_nothing_on_any_career(cast: Cast) -> None:
    start_battle(cast)

    career = character_career(_veteran(cast), get_system("rencounter"))

    assert career.battles == 0
    assert not ServiceRecordEntry.objects.filter(cause=EntryCause.BATTLE).exists()


def test_finishing_a_battle_writes_fought_in_on_each_figure_that_fought(cast: Cast) -> None:
    battle = fought_battle(cast)

    finish_agreed(battle)

    veteran = _veteran(cast)
    entry = ServiceRecordEntry.objects.get(character=veteran, battle_id=battle.pk)
    assert entry.note == "Fought in Skirmish at the ford"
    assert character_career(veteran, get_system("rencounter")).battles == 1


def test_the_creator_deletes_an_abandoned_battle_and_no_career_mentions_it(cast: Cast) -> None:
    battle = start_battle(cast)
    red, blue = (battle.figures.filter(side__index=i).first() for i in (0, 1))
    services.battle_resolve(
        battle=battle, check="fire", actor=red.pk, target=blue.pk, params={"skill": 9}
    )

    services.battle_delete(battle=battle, user=cast.alice)

    assert not Battle.objects.filter(pk=battle.pk).exists()
    career = character_career(_veteran(cast), get_system("rencounter"))
    assert career.battles == 0 and not career.timeline


def test_only_the_creator_may_delete_a_battle(cast: Cast) -> None:
    battle = start_battle(cast)

    with pytest.raises(PermissionDenied):
        services.battle_delete(battle=battle, user=cast.bob)

    assert Battle.objects.filter(pk=battle.pk).exists()


def test_a_finished_battle_cannot_be_deleted(cast: Cast) -> None:
    battle = finish_agreed(fought_battle(cast))

    with pytest.raises(BattleConflict):
        services.battle_delete(battle=battle, user=cast.alice)


def test_the_migration_forgets_entries_of_battles_never_finished(cast: Cast) -> None:
    from django.apps import apps

    forget = importlib.import_module(
        "battles.migrations.0006_forget_service_entries_of_unfinished_battles"
    ).forget_unfinished
    abandoned, fought = start_battle(cast), finish_agreed(fought_battle(cast))
    veteran = _veteran(cast)
    ServiceRecordEntry.objects.create(
        character=veteran, cause=EntryCause.BATTLE, note="Fought in it", battle_id=abandoned.pk
    )

    forget(apps, None)

    assert not ServiceRecordEntry.objects.filter(battle_id=abandoned.pk).exists()
    assert ServiceRecordEntry.objects.filter(battle_id=fought.pk).exists()
