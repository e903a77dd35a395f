"""Writes to rosters: forces, units, characters and their service record.

Every function is `<entity>_<action>`, keyword-only and atomic; a change to a character writes
its service-record entry in the same transaction. Stats always pass the rule system's schema.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from common.stats import clean_stats, starting_stats, system_for
from common.users import User
from rosters.house_rules import rules_for_force
from rosters.models import Character, CharacterStatus, EntryCause, Force, ServiceRecordEntry, Unit
from rosters.photos import is_new_upload, photo_clean
from rosters.snapshots import character_snapshot, snapshot_diff
from rules.aftermath import MAX_PERMANENT_SURVIVABLE

CHARACTER_FIELDS = ("name", "rank", "status", "unit", "stats", "permanent_wounds", "notes", "photo")
FORCE_FIELDS = ("name", "faction", "notes", "campaign")


# --- forces -------------------------------------------------------------------------------


def _force_system(system: str | None, campaign: Campaign | None) -> str:
    if campaign is not None and system and system != campaign.system:
        raise ValidationError(
            {"campaign": [f"{campaign} is played under {campaign.system}, not {system}"]}
        )
    key = system or (campaign.system if campaign else "")
    if not key:
        raise ValidationError({"system": ["choose a rule system or a campaign"]})
    system_for(key)
    return key


@transaction.atomic
def force_create(
    *,
    owner: User,
    name: str,
    system: str | None = None,
    campaign: Campaign | None = None,
    faction: str = "",
    notes: str = "",
) -> Force:
    """Create a force; its system is the campaign's unless it stands alone."""
    force = Force(
        owner=owner,
        name=name,
        campaign=campaign,
        system=_force_system(system, campaign),
        faction=faction,
        notes=notes,
    )
    force.full_clean()
    force.save()
    return force


@transaction.atomic
def force_update(*, force: Force, **changes: Any) -> Force:
    """Change a force's name, faction, notes or campaign (which must play its system)."""
    unknown = set(changes) - set(FORCE_FIELDS)
    if unknown:
        raise ValidationError({name: ["cannot be changed here"] for name in sorted(unknown)})
    if changes.get("campaign") is not None:
        _force_system(force.system, changes["campaign"])
    for name, value in changes.items():
        setattr(force, name, value)
    force.full_clean()
    force.save()
    return force


class ForceHasFought(ValidationError):
    """A force that took a side in a battle: its history is kept, so it is archived instead."""


def force_has_fought(force: Force) -> bool:
    """Say whether the force took a side in any battle (its history must then be kept)."""
    return force.battle_sides.exists()


@transaction.atomic
def force_delete(*, force: Force) -> None:
    """Delete a force that never fought, with its units, characters and their record."""
    if force_has_fought(force):
        raise ForceHasFought(
            {"force": [f"{force} has fought battles: archive it to keep its history"]}
        )
    # The record is protected from a cascade; a force that never fought takes its own along.
    ServiceRecordEntry.objects.filter(character__force=force).delete()
    force.delete()


@transaction.atomic
def force_archive(*, force: Force) -> Force:
    """Put a force away: it keeps its battles and records but leaves the active rosters."""
    if force.archived_at is None:
        force.archived_at = timezone.now()
        force.save(update_fields=["archived_at", "updated_at"])
    return force


@transaction.atomic
def force_restore(*, force: Force) -> Force:
    """Bring an archived force back into service."""
    if force.archived_at is not None:
        force.archived_at = None
        force.save(update_fields=["archived_at", "updated_at"])
    return force


# --- units --------------------------------------------------------------------------------


def _unit_stats(force: Force, stats: Mapping[str, object] | None) -> dict[str, object]:
    system = rules_for_force(force)
    if system.piece == "unit":
        return starting_stats(system.stats) if stats is None else clean_stats(system.stats, stats)
    if stats:
        raise ValidationError({"stats": [f"{system.name} keeps stats on characters, not units"]})
    return {}


def _check_leader(unit: Unit, leader: Character | None) -> None:
    if leader is not None and (leader.force_id != unit.force_id or leader.unit_id != unit.pk):
        raise ValidationError({"leader": [f"{leader} is not in {unit}"]})


def _check_unit_name(force_id: int, name: str, unit_pk: int | None = None) -> None:
    clash = Unit.objects.filter(force_id=force_id, name=name)
    if unit_pk is not None:
        clash = clash.exclude(pk=unit_pk)
    if clash.exists():
        raise ValidationError({"name": [f"the force already has a unit called {name}"]})


@transaction.atomic
def unit_create(
    *, force: Force, name: str, order: int = 0, stats: Mapping[str, object] | None = None
) -> Unit:
    """Create a unit in a force (unit stats only for systems whose piece is the unit)."""
    _check_unit_name(force.pk, name)
    unit = Unit(force=force, name=name, order=order, stats=_unit_stats(force, stats))
    unit.full_clean()
    unit.save()
    return unit


@transaction.atomic
def unit_update(*, unit: Unit, **changes: Any) -> Unit:
    """Change a unit's name, order, leader or stats."""
    unknown = set(changes) - {"name", "order", "leader", "stats"}
    if unknown:
        raise ValidationError({name: ["cannot be changed here"] for name in sorted(unknown)})
    if "stats" in changes:
        changes["stats"] = _unit_stats(unit.force, changes["stats"])
    if "leader" in changes:
        _check_leader(unit, changes["leader"])
    if "name" in changes:
        _check_unit_name(unit.force_id, changes["name"], unit.pk)
    for name, value in changes.items():
        setattr(unit, name, value)
    unit.full_clean()
    unit.save()
    return unit


@transaction.atomic
def unit_shift(*, unit: Unit, by: int) -> Unit:
    """Move a unit up (by < 0) or down the roster, renumbering the force's units 0, 1, 2 ..."""
    units = list(
        Unit.objects.select_for_update()
        .filter(force_id=unit.force_id)
        .order_by("order", "name", "pk")
    )
    index = next(i for i, u in enumerate(units) if u.pk == unit.pk)
    target = max(0, min(len(units) - 1, index + by))
    units.insert(target, units.pop(index))
    changed = [u for position, u in enumerate(units) if u.order != position]
    for position, u in enumerate(units):
        u.order = position
    Unit.objects.bulk_update(changed, ["order"])
    return units[target]


def unit_next_order(force: Force) -> int:
    """Return the order that puts a new unit at the end of the force's roster."""
    last = force.units.order_by("-order").values_list("order", flat=True).first()
    return 0 if last is None else last + 1


@transaction.atomic
def unit_delete(*, unit: Unit, user: User | None = None, only_if_empty: bool = False) -> None:
    """Delete a unit; its characters stay in the force, unassigned, and say so in their record.

    `only_if_empty` refuses a unit that still has characters (the player pages ask for that).
    """
    if only_if_empty and unit.characters.exists():
        raise ValidationError({"unit": [f"{unit} still has characters: move them out first"]})
    for character in unit.characters.select_for_update():
        character_move(character=character, unit=None, user=user)
    unit.delete()


# --- characters ---------------------------------------------------------------------------


def _check_unit(force: Force, unit: Unit | None) -> None:
    if unit is not None and unit.force_id != force.pk:
        raise ValidationError({"unit": [f"{unit} is not a unit of {force}"]})


def _save_version(character: Character, user: User | None) -> None:
    # simple-history falls back to the request's user (admin, API) when none is given here.
    if user is not None:
        # simple-history's documented way to name the author of the next version.
        character._history_user = user  # type: ignore[attr-defined]  # read by simple-history
    character.save()


def _record(
    *,
    character: Character,
    cause: str,
    before: dict[str, object],
    after: dict[str, object],
    user: User | None,
    note: str = "",
    battle_id: int | None = None,
) -> ServiceRecordEntry:
    return ServiceRecordEntry.objects.create(
        character=character,
        cause=cause,
        before=before,
        after=after,
        note=note[:300],
        user=user if user is not None and user.is_authenticated else None,
        battle_id=battle_id,
    )


def character_fought(
    *, character: Character, battle_id: int, note: str, user: User | None = None
) -> ServiceRecordEntry:
    """Record that the character fought in a battle (written when the battle is finished)."""
    return _record(
        character=character,
        cause=EntryCause.BATTLE,
        before={},
        after={},
        user=user,
        note=note,
        battle_id=battle_id,
    )


def _new_stats(force: Force, stats: Mapping[str, object] | None) -> dict[str, object]:
    # No stats at all means "a fresh recruit": the system's starting block.
    schema = rules_for_force(force).stats
    return starting_stats(schema) if stats is None else clean_stats(schema, stats)


#: Causes a player or organiser types in; the post-battle roll follows the rules themselves.
TYPED_CAUSES = (EntryCause.CREATED, EntryCause.HAND_EDIT, EntryCause.IMPORT)


def _check_permanent_wounds(wounds: object, status: str, cause: str) -> None:
    """Typed permanent wounds stay within the rules: a list of texts, and no more on a living
    figure than a fight can leave him with (rules.aftermath: a sixth point kills), or every
    battle and simulation he entered would start with a dead man."""
    if not isinstance(wounds, list | tuple) or not all(isinstance(w, str) for w in wounds):
        raise ValidationError({"permanent_wounds": ["must be a list of texts"]})
    living = status != CharacterStatus.DEAD
    if cause in TYPED_CAUSES and living and len(wounds) > MAX_PERMANENT_SURVIVABLE:
        raise ValidationError(
            {
                "permanent_wounds": [
                    f"a living figure carries at most {MAX_PERMANENT_SURVIVABLE} permanent "
                    f"wounds (the rules kill him at {MAX_PERMANENT_SURVIVABLE + 1}), "
                    f"not {len(wounds)}"
                ]
            }
        )


@transaction.atomic
def character_create(
    *,
    force: Force,
    name: str,
    stats: Mapping[str, object] | None = None,
    unit: Unit | None = None,
    rank: str = "",
    status: str = CharacterStatus.ACTIVE,
    permanent_wounds: Iterable[str] = (),
    notes: str = "",
    photo: File[bytes] | None = None,
    user: User | None = None,
    cause: str = EntryCause.CREATED,
    note: str = "",
) -> Character:
    """Create a character with schema-checked stats and its first service-record entry."""
    _check_unit(force, unit)
    _check_permanent_wounds(list(permanent_wounds), status, cause)
    character = Character(
        force=force,
        unit=unit,
        name=name,
        rank=rank,
        status=status,
        notes=notes,
        stats=_new_stats(force, stats),
        permanent_wounds=list(permanent_wounds),
    )
    if photo:
        character.photo = photo_clean(photo) if is_new_upload(photo) else photo
    character.full_clean()
    _save_version(character, user)
    _record(
        character=character,
        cause=cause,
        before={},
        after=character_snapshot(character),
        user=user,
        note=note,
    )
    return character


@transaction.atomic
def character_update(
    *,
    character: Character,
    user: User | None = None,
    cause: str = EntryCause.HAND_EDIT,
    note: str = "",
    battle_id: int | None = None,
    **changes: Any,
) -> Character:
    """Change a character's fields; stats are merged, re-validated and the change recorded.

    Returns the character unchanged (and records nothing) when no value actually differs.
    """
    unknown = set(changes) - set(CHARACTER_FIELDS)
    if unknown:
        raise ValidationError({name: ["cannot be changed here"] for name in sorted(unknown)})
    before = character_snapshot(character)
    if "unit" in changes:
        _check_unit(character.force, changes["unit"])
    if "permanent_wounds" in changes or "status" in changes:
        _check_permanent_wounds(
            changes.get("permanent_wounds", character.permanent_wounds),
            changes.get("status", character.status),
            cause,
        )
    if "stats" in changes:
        merged = {**character.stats, **(changes["stats"] or {})}
        changes["stats"] = clean_stats(rules_for_force(character.force).stats, merged)
    if is_new_upload(changes.get("photo")):
        changes["photo"] = photo_clean(changes["photo"])
    for name, value in changes.items():
        setattr(character, name, value)
    return _save_with_entry(
        character, before, cause=cause, user=user, note=note, battle_id=battle_id
    )


def _save_with_entry(
    character: Character,
    before: dict[str, object],
    *,
    cause: str,
    user: User | None,
    note: str = "",
    battle_id: int | None = None,
) -> Character:
    old, new = snapshot_diff(before, character_snapshot(character))
    if not old and not new:
        return character
    character.full_clean()
    _save_version(character, user)
    _record(
        character=character,
        cause=cause,
        before=old,
        after=new,
        user=user,
        note=note,
        battle_id=battle_id,
    )
    return character


@transaction.atomic
def character_move(
    *, character: Character, unit: Unit | None, user: User | None = None, note: str = ""
) -> Character:
    """Move a character to another unit of its force (or out of any unit)."""
    _check_unit(character.force, unit)
    before = character_snapshot(character)
    character.unit = unit
    return _save_with_entry(character, before, cause=EntryCause.MOVED, user=user, note=note)


@transaction.atomic
def character_retire(
    *, character: Character, user: User | None = None, note: str = ""
) -> Character:
    """Retire a living character from active service."""
    if character.status == CharacterStatus.DEAD:
        raise ValidationError({"status": [f"{character} is dead and cannot retire"]})
    if character.status == CharacterStatus.RETIRED:
        raise ValidationError({"status": [f"{character} has already retired"]})
    before = character_snapshot(character)
    character.status = CharacterStatus.RETIRED
    return _save_with_entry(character, before, cause=EntryCause.RETIRED, user=user, note=note)


#: Statuses a player sets by hand with a reason (retiring has its own service).
MARKED_STATUSES = (CharacterStatus.ACTIVE, CharacterStatus.DEAD, CharacterStatus.CAPTURED)


@transaction.atomic
def character_mark(
    *, character: Character, status: str, reason: str, user: User | None = None
) -> Character:
    """Mark a character dead, captured or back in service, with the reason in the record."""
    if status not in MARKED_STATUSES:
        raise ValidationError({"status": [f"{status} is not a status to set by hand"]})
    if status != CharacterStatus.ACTIVE and not reason.strip():
        raise ValidationError({"reason": ["Say what happened (it goes in the service record)."]})
    return character_update(
        character=character,
        user=user,
        cause=EntryCause.HAND_EDIT,
        note=reason.strip(),
        status=status,
    )
