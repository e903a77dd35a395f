"""Removing league rows that are not history yet: an unplayed pairing or round.

A played, reported or locked one is refused with the reason (`selectors.*_kept_because`); the
database refuses it as well (`PROTECT` on reports, rated games and battles).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from league import selectors
from league.models import Pairing, Round


@transaction.atomic
def pairing_delete(*, pairing: Pairing) -> None:
    """Delete a pairing nobody has played or reported; its battle, if any, stays unlinked."""
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    reason = selectors.pairing_kept_because(pairing)
    if reason:
        raise ValidationError({"pairing": [reason]})
    pairing.battle = None
    pairing.save(update_fields=["battle"])
    pairing.delete()


@transaction.atomic
def round_delete(*, round_: Round) -> None:
    """Delete an unlocked round nobody has played a game of, with its pairings."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    reason = selectors.round_kept_because(round_)
    if reason:
        raise ValidationError({"round": [reason]})
    Pairing.objects.filter(round=round_).update(battle=None)
    round_.delete()
