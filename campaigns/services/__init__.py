"""Campaign writes (`<entity>_<action>`, keyword-only, atomic), one module per concern:
clubs, campaigns and memberships; the league's settings and rounds; league results."""

from campaigns.services.clubs import (
    ORGANISERS_GROUP,
    campaign_create,
    campaign_update,
    club_create,
    membership_create,
    membership_delete,
    membership_update,
    organiser_access_sync,
    organisers_group,
)
from campaigns.services.league import (
    LateJoin,
    ManualRound,
    adjustment_create,
    league_join,
    league_update,
    membership_withdraw,
    round_check,
    round_create_manual,
    round_lock,
    round_robin_generate,
    round_swap_players,
    swiss_round_generate,
)
from campaigns.services.results import (
    Claim,
    claim_from,
    pairing_auto_resolve,
    pairing_confirm,
    pairing_link_battle,
    pairing_report,
)

__all__ = [
    "ORGANISERS_GROUP", "Claim", "LateJoin", "ManualRound", "adjustment_create",
    "campaign_create", "campaign_update", "claim_from", "club_create", "league_join",
    "league_update", "membership_create", "membership_delete", "membership_update",
    "membership_withdraw", "organiser_access_sync", "organisers_group", "pairing_auto_resolve",
    "pairing_confirm", "pairing_link_battle", "pairing_report", "round_check",
    "round_create_manual", "round_lock", "round_robin_generate", "round_swap_players",
    "swiss_round_generate",
]
