"""Building a force: archive, delete only what never fought, unit order, several at once, marks."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle, BattleSide
from rosters import services
from rosters.models import Character, CharacterStatus, EntryCause, Force, ServiceRecordEntry
from rosters.recruits import characters_create_many, squad_create
from rules.dice import GivenDice
from tests.factories import CharacterFactory, ForceFactory, UnitFactory, UserFactory

pytestmark = pytest.mark.django_db


def fought(force: Force) -> Force:
    battle = Battle.objects.create(system=force.system, scenario="Skirmish at the mill")
    BattleSide.objects.create(battle=battle, index=0, force=force)
    return force


def test_a_force_that_never_fought_is_deleted_with_its_characters():
    force = ForceFactory()
    CharacterFactory(force=force)

    services.force_delete(force=force)

    assert not Force.objects.exists() and not Character.objects.exists()


def test_a_force_that_fought_cannot_be_deleted_and_keeps_everything():
    force = fought(ForceFactory())
    CharacterFactory(force=force)

    with pytest.raises(ValidationError, match="archive it"):
        services.force_delete(force=force)

    assert Force.objects.filter(pk=force.pk).exists()
    assert force.characters.count() == 1


def test_archiving_and_restoring_a_force_keeps_its_history():
    force = fought(ForceFactory())

    services.force_archive(force=force)
    archived_at = Force.objects.get(pk=force.pk).archived_at
    services.force_archive(force=force)  # again: harmless, the first date stays

    assert archived_at is not None
    assert Force.objects.get(pk=force.pk).archived_at == archived_at
    services.force_restore(force=force)
    assert Force.objects.get(pk=force.pk).archived_at is None
    assert force.battle_sides.count() == 1


def test_shifting_a_unit_up_swaps_it_with_the_one_above_and_renumbers():
    force = ForceFactory()
    *_, third = (
        UnitFactory(force=force, name=n, order=o)
        for n, o in (("First", 3), ("Second", 7), ("Third", 9))
    )

    services.unit_shift(unit=third, by=-1)

    names = list(force.units.order_by("order").values_list("name", "order"))
    assert names == [("First", 0), ("Third", 1), ("Second", 2)]


def test_shifting_the_top_unit_up_changes_nothing():
    force = ForceFactory()
    top = UnitFactory(force=force, name="Top", order=0)
    UnitFactory(force=force, name="Below", order=1)

    services.unit_shift(unit=top, by=-1)

    assert list(force.units.order_by("order").values_list("name", flat=True)) == ["Top", "Below"]


def test_a_unit_with_characters_is_not_deleted_when_only_empty_ones_may_be():
    unit = UnitFactory()
    CharacterFactory(force=unit.force, unit=unit)

    with pytest.raises(ValidationError, match="move them out"):
        services.unit_delete(unit=unit, only_if_empty=True)

    assert unit.characters.count() == 1


def test_several_characters_are_made_alike_each_with_a_creation_entry_by_the_user():
    force = ForceFactory(system="rencounter")
    alice = UserFactory()
    stats = {"experience": 3, "fire": 7, "melee": 6, "weapons": ["matchlock_musket"]}

    made = characters_create_many(
        force=force, names=[f"Musketeer {n}" for n in range(1, 7)], stats=stats, user=alice
    )

    assert len(made) == 6
    assert {c.stats["fire"] for c in made} == {7}
    entries = ServiceRecordEntry.objects.filter(character__force=force)
    assert entries.count() == 6
    assert {(e.cause, e.user_id) for e in entries} == {(EntryCause.CREATED, alice.pk)}


def test_several_at_once_is_all_or_nothing_when_a_name_is_taken():
    force = ForceFactory(system="rencounter")
    CharacterFactory(force=force, name="Musketeer 3")

    with pytest.raises(ValidationError, match="Musketeer 3"):
        characters_create_many(force=force, names=[f"Musketeer {n}" for n in range(1, 5)])

    assert force.characters.count() == 1


def test_marking_a_character_dead_needs_a_reason_and_records_it_as_a_hand_edit():
    character = CharacterFactory()
    alice = UserFactory()

    with pytest.raises(ValidationError):
        services.character_mark(character=character, status=CharacterStatus.DEAD, reason=" ")
    services.character_mark(
        character=character, status=CharacterStatus.DEAD, reason="Fell at the ford", user=alice
    )

    entry = character.service_record.get()
    assert entry.cause == EntryCause.HAND_EDIT
    assert entry.note == "Fell at the ford" and entry.user == alice
    assert entry.after == {"status": CharacterStatus.DEAD}


def test_the_api_answers_409_for_deleting_a_force_that_fought(client):
    force = fought(ForceFactory())
    client.force_login(force.owner)

    response = client.delete(f"/api/forces/{force.pk}/")

    assert response.status_code == 409
    assert "archive it" in response.json()["force"][0]
    assert "archive it" in response.json()["detail"]
    assert Force.objects.filter(pk=force.pk).exists()


def test_the_squad_creator_rolls_a_unit_led_by_its_first_figure():
    force = ForceFactory(system="rencounter")
    alice = UserFactory()
    dice = GivenDice([1, 6, 1, 2, 5, 6])  # group of 1+4; a Hero leads; Green, Green, Vet, Vet

    unit = squad_create(force=force, name="Forlorn Hope", dice=dice, user=alice)

    men = list(unit.characters.order_by("name"))
    assert [c.name for c in men] == [f"Forlorn Hope {n}" for n in range(1, 6)]
    assert [c.stats["experience"] for c in men] == [6, 3, 3, 5, 5]
    assert [c.stats["fire"] for c in men] == [12, 6, 6, 10, 10]
    assert unit.leader == men[0] and men[0].rank == "Leader"
    entry = men[0].service_record.get()
    assert entry.user == alice and "squad creator: a group of 5" in entry.note


def test_the_squad_creator_is_refused_outside_rencounter_and_makes_nothing():
    force = ForceFactory(system="d12_skirmish")

    with pytest.raises(ValidationError):
        squad_create(force=force, name="Company A", dice=GivenDice([1] * 12))

    assert not force.units.exists() and not force.characters.exists()
