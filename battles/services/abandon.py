"""Abandoning a battle: one set up (or begun) and never finished is deleted without a trace."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from battles.models import Battle
from battles.selectors import battle_is_deletable_by
from battles.services.common import PLAYABLE, locked, require_status
from battles.signals import battle_abandoning
from common.users import User
from rosters.models import ServiceRecordEntry


@transaction.atomic
def battle_delete(*, battle: Battle, user: User) -> None:
    """Delete an unfinished battle its creator abandons: sides, figures, events, any entries.

    A finished battle is history (careers and the ledger point at it) and stays.
    """
    battle = locked(battle.pk)
    require_status(battle, PLAYABLE, "delete the battle")
    if not battle_is_deletable_by(battle, user):
        raise PermissionDenied("Only the player who set the battle up can delete it.")
    ServiceRecordEntry.objects.filter(battle_id=battle.pk).delete()
    # A league game set up with this battle goes back to waiting for one (the link protects
    # only a battle that was played): the league, above, unlinks it.
    battle_abandoning.send(sender=Battle, battle_id=battle.pk)
    battle.delete()
