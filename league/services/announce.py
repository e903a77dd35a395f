"""Telling the players and hooks about a round paired by hand in the admin."""

from __future__ import annotations

from league.models import Round
from league.signals import round_paired


def round_announce(*, round_: Round) -> None:
    """Announce a round's pairings (the notices key each player's notice and the hooks' event
    by round, so a round announced again after another table is added tells only the new
    players)."""
    round_paired.send(sender=Round, round_=round_)
