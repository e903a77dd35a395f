"""The league listens to the battles below it."""

from __future__ import annotations

from datetime import date

from league.models import Pairing


def unlink_abandoned_battle(sender: object, *, battle_id: int, **kwargs: object) -> None:
    """A league game set up with an abandoned battle goes back to waiting for one."""
    Pairing.objects.filter(battle_id=battle_id).update(battle=None)


def answer_by_round_deadline(sender: object, *, battle_id: int, **kwargs: object) -> date | None:
    """A league game's report is answered by its round's deadline (None: no deadline set)."""
    pairing = Pairing.objects.filter(battle_id=battle_id).select_related("round").first()
    return pairing.round.deadline if pairing is not None else None
