"""Finishing a battle the way its players do: one reports, every other side confirms."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from battles.services import battle_confirm, battle_finish


def finish_agreed(battle: Battle, **kwargs: Any) -> Battle:
    """Report the result as the first side's owner, then confirm it as each other owner."""
    owners = [
        side.force.owner for side in battle.sides.select_related("force__owner").order_by("index")
    ]
    battle = battle_finish(battle=battle, user=owners[0], **kwargs)
    for owner in owners[1:]:
        battle = battle_confirm(battle=battle, user=owner)
    return battle
