"""League writes (`<entity>_<action>`, keyword-only, atomic), one module per concern: the
league's settings and rounds, results and the players' reports, the season desk, history."""

from league.services.announce import (
    round_announce,
)
from league.services.battles import pairing_auto_resolve, pairing_link_battle
from league.services.history import (
    pairing_delete,
    round_delete,
)
from league.services.league import (
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
from league.services.places import adjustment_delete, adjustment_update, pairing_place
from league.services.reports import (
    pairing_report_file,
)
from league.services.results import (
    Claim,
    claim_from,
    claims_by_side,
    pairing_confirm,
    pairing_report,
)
from league.services.season import (
    RowResult,
    SeasonChanges,
    round_deadline_set,
    round_next_pair,
    round_results_record,
    season_update,
)

__all__ = [
    "Claim",
    "LateJoin",
    "ManualRound",
    "RowResult",
    "SeasonChanges",
    "adjustment_create",
    "adjustment_delete",
    "adjustment_update",
    "claim_from",
    "claims_by_side",
    "league_join",
    "league_update",
    "membership_withdraw",
    "pairing_auto_resolve",
    "pairing_confirm",
    "pairing_delete",
    "pairing_link_battle",
    "pairing_place",
    "pairing_report",
    "pairing_report_file",
    "round_announce",
    "round_check",
    "round_create_manual",
    "round_deadline_set",
    "round_delete",
    "round_lock",
    "round_next_pair",
    "round_results_record",
    "round_robin_generate",
    "round_swap_players",
    "season_update",
    "swiss_round_generate",
]
