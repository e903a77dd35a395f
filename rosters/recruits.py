"""Recruiting: several characters at once ("6 musketeers, F 7 M 6 Ex 3, matchlock musket").

All or nothing: one transaction, so a clash on the tenth name leaves none of the first nine.
Each recruit gets its own creation entry in the service record, by the user who added it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from rosters.models import Character, Force, Unit
from rosters.services import character_create


@transaction.atomic
def characters_create_many(
    *,
    force: Force,
    names: Sequence[str],
    stats: Mapping[str, Any] | None = None,
    unit: Unit | None = None,
    rank: str = "",
    user: AbstractBaseUser | None = None,
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
