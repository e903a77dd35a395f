"""What the database itself refuses, whatever code writes to it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from rosters.models import Character, Force, ServiceRecordEntry
from rosters.services import force_delete
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    ServiceRecordEntryFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def refused(action) -> bool:
    try:
        with transaction.atomic():
            action()
    except IntegrityError:
        return True
    return False


def test_two_characters_in_a_force_cannot_share_a_name():
    character = CharacterFactory(name="Tom")

    assert refused(lambda: CharacterFactory(force=character.force, name="Tom"))


def test_the_same_name_is_fine_in_another_force():
    CharacterFactory(name="Tom")

    assert not refused(lambda: CharacterFactory(name="Tom"))


def test_a_status_outside_the_list_is_refused():
    character = CharacterFactory()

    assert refused(lambda: Character.objects.filter(pk=character.pk).update(status="ZOMBIE"))


def test_unit_names_are_unique_within_a_force():
    unit = UnitFactory(name="Pikes")

    assert refused(lambda: UnitFactory(force=unit.force, name="Pikes"))


def test_a_character_cannot_sit_in_another_forces_unit():
    character = CharacterFactory()
    stranger_unit = UnitFactory()

    assert refused(lambda: Character.objects.filter(pk=character.pk).update(unit=stranger_unit))


def test_a_unit_holding_characters_cannot_move_to_another_force():
    unit = UnitFactory()
    CharacterFactory(force=unit.force, unit=unit)
    elsewhere = ForceFactory()

    assert refused(lambda: type(unit).objects.filter(pk=unit.pk).update(force=elsewhere))


def test_a_force_cannot_join_a_campaign_of_another_system():
    force = ForceFactory(system="rencounter")
    campaign = CampaignFactory(system="escarmouche")

    assert refused(lambda: Force.objects.filter(pk=force.pk).update(campaign=campaign))


def test_a_campaign_with_forces_keeps_its_system():
    force = ForceFactory(campaign=CampaignFactory(system="rencounter"))

    assert refused(
        lambda: (
            type(force.campaign).objects.filter(pk=force.campaign_id).update(system="escarmouche")
        )
    )


def test_the_service_record_is_never_rewritten():
    entry = ServiceRecordEntryFactory(note="wounded at Breitenfeld")

    assert refused(lambda: ServiceRecordEntry.objects.filter(pk=entry.pk).update(note="fine"))


def test_deleting_a_user_keeps_the_entries_they_wrote():
    user = UserFactory()
    entry = ServiceRecordEntryFactory(user=user)

    user.delete()

    entry.refresh_from_db()
    assert entry.user is None


def test_deleting_a_force_that_never_fought_removes_its_roster_and_record():
    character = CharacterFactory(unit=None)
    UnitFactory(force=character.force)
    ServiceRecordEntryFactory(character=character)

    force_delete(force=character.force)

    assert not ServiceRecordEntry.objects.exists()


def test_the_database_refuses_to_take_the_service_record_along_with_a_force():
    character = CharacterFactory(unit=None)
    ServiceRecordEntryFactory(character=character)

    with pytest.raises(ProtectedError):
        character.force.delete()


def test_installing_the_cross_table_rules_again_is_harmless():
    # They are re-installed after every migrate (SQLite drops triggers on table rebuilds).
    from django.db import connection

    from rosters import db_constraints

    db_constraints.install(connection)
    db_constraints.install(connection)
    character = CharacterFactory()

    assert refused(lambda: Character.objects.filter(pk=character.pk).update(unit=UnitFactory()))
