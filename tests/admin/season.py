"""A league in progress for the admin tests: round 1 played with one disputed and one missing
result (the demo's own season), round 2 paired, and one battle stuck before its rolls."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from battles.models import Battle, BattleStatus
from campaigns.models import Campaign
from league.demo_season import season_in_progress
from league.models import Pairing, Round
from tests.league.league_helpers import make_league

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


@dataclass
class Season:
    campaign: Campaign
    olivia: Any
    disputed: Pairing
    missing: Pairing
    stuck: Battle

    @property
    def round_two(self) -> Round:
        return self.campaign.rounds.get(number=2)


def player_names(size: int) -> list[str]:
    return NAMES[:size] if size <= len(NAMES) else [f"player{n:02d}" for n in range(size)]


def seeded_season(size: int = 8, organiser: str = "olivia") -> Season:
    campaign, olivia, _ = make_league(player_names(size), organiser=organiser, name="Winter League")
    disputed, missing = season_in_progress(campaign=campaign, organiser=olivia)
    stuck = Battle.objects.create(
        campaign=campaign,
        system=campaign.system,
        scenario="The mill",
        status=BattleStatus.FINISHED,
        finished_at=timezone.now() - timedelta(hours=2),
        seed="0" * 64,
        seed_sha256="1" * 64,
    )
    return Season(campaign, olivia, disputed, missing, stuck)
