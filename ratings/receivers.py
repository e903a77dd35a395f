"""The club rating listens to the league: every written result is rated (or re-rated)."""

from __future__ import annotations

from campaigns.models import Pairing
from ratings.services import rating_record_game


def rate_the_game(sender: object, *, pairing: Pairing, **kwargs: object) -> None:
    """Rate a game whose result was just reported or confirmed (campaigns.signals)."""
    rating_record_game(pairing=pairing)
