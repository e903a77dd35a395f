"""The league core: pairings, results and standings as pure functions over frozen dataclasses.

No Django here: the league services load rows, call these functions and store what they
return. Randomness (a Swiss draw inside a score group) comes only from a `rules.dice.Dice`.
"""

from league.core.errors import LeagueError, PairingError, ResultError, SettingsError
from league.core.export import standings_csv
from league.core.pairing import (
    Entrant,
    Forfeit,
    PairingWarning,
    Ranked,
    check_manual_round,
    dropout_forfeits,
    join_round_robin,
    late_joiner_adjustment,
    next_swiss_round,
    round_robin,
    swap_players,
)
from league.core.records import (
    Adjustment,
    Pairing,
    PlayerId,
    Result,
    Round,
    current_results,
    player_key,
)
from league.core.settings import DEFAULT_TIE_BREAKERS, TIE_BREAKERS, LeagueSettings
from league.core.standings import StandingRow, compute_standings

__all__ = [
    "DEFAULT_TIE_BREAKERS",
    "TIE_BREAKERS",
    "Adjustment",
    "Entrant",
    "Forfeit",
    "LeagueError",
    "LeagueSettings",
    "Pairing",
    "PairingError",
    "PairingWarning",
    "PlayerId",
    "Ranked",
    "Result",
    "ResultError",
    "Round",
    "SettingsError",
    "StandingRow",
    "check_manual_round",
    "compute_standings",
    "current_results",
    "dropout_forfeits",
    "join_round_robin",
    "late_joiner_adjustment",
    "next_swiss_round",
    "player_key",
    "round_robin",
    "standings_csv",
    "swap_players",
]
