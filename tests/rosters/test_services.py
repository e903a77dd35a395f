"""Roster services: every change writes its service-record entry in the same transaction."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from rosters import services
from rosters.models import Character, CharacterStatus, EntryCause, ServiceRecordEntry
from rules.system import get_system
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def an_int_stat(system_key: str):
    return next(
        f for f in get_system(system_key).stats.fields if f.kind == "int" and f.max is not None
    )


def test_creating_a_character_records_its_creation_with_the_full_snapshot():
    force = ForceFactory()
    user = UserFactory()

    character = services.character_create(force=force, name="Sgt. Gridley", user=user)

    entry = character.service_record.get()
    assert entry.cause == EntryCause.CREATED
    assert entry.user == user
    assert entry.before == {}
    assert entry.after["name"] == "Sgt. Gridley"
    assert entry.after["stats"] == character.stats


def test_creation_fills_the_schema_defaults():
    force = ForceFactory()

    character = services.character_create(force=force, name="Tom")

    assert character.stats == get_system(force.system).stats.validate({})


def test_an_out_of_range_stat_is_refused_and_nothing_is_saved():
    force = ForceFactory()
    stat = an_int_stat(force.system)

    with pytest.raises(ValidationError) as caught:
        services.character_create(force=force, name="Tom", stats={stat.name: stat.max + 1})

    assert stat.name in caught.value.field_errors
    assert not Character.objects.exists()
    assert not ServiceRecordEntry.objects.exists()


def test_a_hand_edit_records_only_what_changed():
    character = services.character_create(force=ForceFactory(), name="Tom")
    stat = an_int_stat(character.force.system)
    old = character.stats[stat.name]
    new = stat.min if old != stat.min else stat.max

    services.character_update(character=character, stats={stat.name: new}, rank="Corporal")

    entry = character.service_record.latest("id")
    assert entry.cause == EntryCause.HAND_EDIT
    assert entry.before == {"rank": "", "stats": {stat.name: old}}
    assert entry.after == {"rank": "Corporal", "stats": {stat.name: new}}


def test_an_edit_that_changes_nothing_records_nothing():
    character = services.character_create(force=ForceFactory(), name="Tom")

    services.character_update(character=character, name="Tom", stats={})

    assert character.service_record.count() == 1


def test_a_failed_update_leaves_the_character_and_record_untouched():
    character = services.character_create(force=ForceFactory(), name="Tom")
    stat = an_int_stat(character.force.system)

    with pytest.raises(ValidationError):
        services.character_update(
            character=character, rank="Major", stats={stat.name: stat.max + 5}
        )

    character.refresh_from_db()
    assert character.rank == ""
    assert character.service_record.count() == 1


def test_moving_a_character_between_units_of_its_force_is_recorded():
    force = ForceFactory()
    first, second = UnitFactory(force=force, name="Pikes"), UnitFactory(force=force, name="Shot")
    character = services.character_create(force=force, name="Tom", unit=first)

    services.character_move(character=character, unit=second)

    entry = character.service_record.latest("id")
    assert (entry.cause, entry.before, entry.after) == (
        EntryCause.MOVED,
        {"unit": "Pikes"},
        {"unit": "Shot"},
    )


def test_a_character_cannot_join_a_unit_of_another_force():
    character = CharacterFactory()
    stranger_unit = UnitFactory()

    with pytest.raises(ValidationError) as caught:
        services.character_move(character=character, unit=stranger_unit)

    assert "unit" in caught.value.message_dict
    character.refresh_from_db()
    assert character.unit is None


def test_retiring_sets_the_status_and_records_why():
    character = CharacterFactory()

    services.character_retire(character=character, note="lost an arm at Lutzen")

    entry = character.service_record.get()
    assert character.status == CharacterStatus.RETIRED
    assert (entry.cause, entry.note) == (EntryCause.RETIRED, "lost an arm at Lutzen")


def test_the_dead_do_not_retire():
    character = CharacterFactory(status=CharacterStatus.DEAD)

    with pytest.raises(ValidationError):
        services.character_retire(character=character)


def test_a_force_takes_its_campaigns_system():
    campaign = CampaignFactory(system="escarmouche")

    force = services.force_create(owner=UserFactory(), name="Les Gris", campaign=campaign)

    assert force.system == "escarmouche"


def test_a_force_cannot_join_a_campaign_of_another_system():
    campaign = CampaignFactory(system="escarmouche")

    with pytest.raises(ValidationError) as caught:
        services.force_create(
            owner=UserFactory(), name="Redcoats", system="rencounter", campaign=campaign
        )

    assert "campaign" in caught.value.message_dict


def test_an_unknown_system_is_refused():
    with pytest.raises(ValidationError) as caught:
        services.force_create(owner=UserFactory(), name="Redcoats", system="chess")

    assert "system" in caught.value.message_dict


def test_units_of_figure_systems_carry_no_stats():
    force = ForceFactory(system="rencounter")

    with pytest.raises(ValidationError):
        services.unit_create(force=force, name="Shot", stats={"experience": 3})


def test_units_of_unit_systems_have_schema_checked_stats():
    force = ForceFactory(system="game_the_90")

    unit = services.unit_create(force=force, name="Sir Hugh's Knights", stats={"type": "knights"})

    assert unit.stats["type"] == "knights"


def test_a_units_leader_must_be_one_of_its_members():
    unit = UnitFactory()
    outsider = CharacterFactory(force=unit.force)

    with pytest.raises(ValidationError):
        services.unit_update(unit=unit, leader=outsider)


def test_deleting_a_unit_unassigns_its_characters_on_the_record():
    unit = UnitFactory(name="Forlorn Hope")
    character = services.character_create(force=unit.force, name="Tom", unit=unit)

    services.unit_delete(unit=unit)

    character.refresh_from_db()
    assert character.unit is None
    assert character.service_record.latest("id").before == {"unit": "Forlorn Hope"}
