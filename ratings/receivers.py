"""The club rating listens to the league: every written result is rated (or re-rated), and
round 1 of a Swiss league seeded by rating is seeded from the club's ratings."""

from __future__ import annotations

from collections.abc import Sequence

from campaigns.models import Campaign
from league.core import Entrant, Ranked
from league.models import Pairing
from ratings.selectors import seeded_by_rating
from ratings.services import rating_record_game


def rate_the_game(sender: object, *, pairing: Pairing, **kwargs: object) -> None:
    """Rate a game whose result was just reported or confirmed (league.signals)."""
    rating_record_game(pairing=pairing)


def seed_by_rating(
    sender: object, *, campaign: Campaign, rows: Sequence[Ranked], **kwargs: object
) -> list[Entrant]:
    """Answer the league's seeding question (league.signals.swiss_seeding)."""
    return seeded_by_rating(campaign, rows)
