"""Recruiting: several characters at once ("6 musketeers, F 7 M 6 Ex 3, matchlock musket"),
or a whole Rencounter unit rolled with the text's squad creator.

All or nothing: one transaction, so a clash on the tenth name leaves none of the first nine.
Each recruit gets its own creation entry in the service record, by the user who added it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from common.users import User
from rosters.models import Character, Force, Unit
from rosters.services import character_create, unit_create, unit_update
from rules.dice import Dice
from rules.systems.rencounter.squads import generate_force


@transaction.atomic
def characters_create_many(
    *,
    force: Force,
    names: Sequence[str],
    stats: Mapping[str, object] | None = None,
    unit: Unit | None = None,
    rank: str = "",
    user: User | None = None,
    note: str = "",
) -> list[Character]:
    """Create one character per name, all with the same stats, unit and rank."""
    if not names:
        raise ValidationError({"names": ["name at least one character"]})
    if len(set(names)) != len(names):
        raise ValidationError({"names": ["a name is listed twice"]})
    taken = set(force.characters.filter(name__in=names).values_list("name", flat=True))
    if taken:
        raise ValidationError({"names": [f"already in {force}: {', '.join(sorted(taken))}"]})
    return [
        character_create(
            force=force,
            name=name,
            stats=stats,
            unit=unit,
            rank=rank,
            user=user,
            note=note,
        )
        for name in names
    ]


@transaction.atomic
def squad_create(
    *,
    force: Force,
    name: str,
    dice: Dice,
    varied: bool = False,
    order: int = 0,
    user: User | None = None,
) -> Unit:
    """Roll a Rencounter unit with the squad creator: its leader first, then its men.

    The figures are "<unit> 1" (the leader, who leads the unit), "<unit> 2" ...; each creation
    entry says what the squad creator rolled for it.
    """
    if force.system != "rencounter":
        raise ValidationError({"name": ["the squad creator is Rencounter's"]})
    squad = generate_force(dice, units=1, side=name, varied=varied)[0]
    unit = unit_create(force=force, name=name, order=order)
    size = len(squad.figures)
    taken = set(force.characters.filter(name__startswith=name).values_list("name", flat=True))
    clash = sorted(taken & {f"{name} {n}" for n in range(1, size + 1)})
    if clash:
        raise ValidationError({"name": [f"already in {force}: {', '.join(clash)}"]})
    members: list[Character] = []
    for number, stats in enumerate(squad.figures, start=1):
        role = "leader" if number == 1 else "man"
        members.append(
            character_create(
                force=force,
                name=f"{name} {number}",
                stats=stats,
                unit=unit,
                rank="Leader" if number == 1 else "",
                user=user,
                note=f"Rolled with the squad creator: a group of {size}, "
                f"{role} with experience {stats['experience']}",
            )
        )
    return unit_update(unit=unit, leader=members[0])
