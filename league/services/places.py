"""Hand edits the organiser makes in the admin: a pairing's table and players, and the points
given or taken by hand. Each checks what the database cannot (a locked round, a game already
reported) and says why it refuses."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Membership, Role
from league.errors import LeagueConflict
from league.models import LeagueAdjustment, Pairing, Round, RoundStatus


@transaction.atomic
def pairing_place(
    *,
    round_: Round,
    pairing: Pairing | None = None,
    table: int,
    home: Membership,
    away: Membership | None,
) -> Pairing:
    """Seat two players at a table of a round (a new pairing when `pairing` is None), or move
    an unplayed pairing's players; a locked round or a reported game keeps its places."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == RoundStatus.LOCKED:
        raise LeagueConflict(f"round {round_.number} is locked")
    for player in (home, away):
        if player is not None and player.campaign_id != round_.campaign_id:
            raise ValidationError(f"{player.player_name} does not play in this campaign")
    if pairing is None:
        pairing = Pairing(round=round_)
    else:
        pairing = Pairing.objects.select_for_update().get(pk=pairing.pk, round=round_)
        if pairing.version:
            raise ValidationError(
                "a result was already reported for this game; it keeps its players"
            )
    pairing.table, pairing.home, pairing.away = table, home, away
    pairing.validate_constraints()  # a player twice in the round: an error, not a 500
    pairing.save()
    return pairing


@transaction.atomic
def adjustment_update(
    *,
    adjustment: LeagueAdjustment,
    points: int,
    reason: str,
    player: Membership | None = None,
) -> LeagueAdjustment:
    """Correct the points, the reason or the player of a hand adjustment (the reason stays
    required; the player stays a player of the adjustment's campaign)."""
    if player is not None and (
        player.campaign_id != adjustment.campaign_id or player.role != Role.PLAYER
    ):
        raise ValidationError({"player": [f"{player.player_name} does not play in this league"]})
    if not reason.strip():
        raise ValidationError({"reason": ["an adjustment needs a reason"]})
    if points == 0:
        raise ValidationError({"points": ["an adjustment of 0 points changes nothing"]})
    adjustment = LeagueAdjustment.objects.select_for_update().get(pk=adjustment.pk)
    adjustment.points, adjustment.reason = points, reason.strip()
    if player is not None:
        adjustment.player = player
    adjustment.save(update_fields=["points", "reason", "player"])
    return adjustment


@transaction.atomic
def adjustment_delete(*, adjustment: LeagueAdjustment) -> None:
    """Take back a hand adjustment: it was a correction, not a played game."""
    LeagueAdjustment.objects.filter(pk=adjustment.pk).delete()
