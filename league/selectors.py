"""Reads about a campaign's league: its settings, rounds and pairings as the league core's
records, the table, and which rows are history that is kept."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Max, Q, QuerySet

from campaigns.models import Campaign, Membership, Role
from league.core import (
    Adjustment,
    LeagueSettings,
    PlayerId,
    Result,
    StandingRow,
    compute_standings,
    standings_csv,
)
from league.core import Pairing as CorePairing
from league.core import Round as CoreRound
from league.models import League, LeagueAdjustment, Pairing, Round, RoundStatus, Winner

# --- the league: rows turned into the league core's records ----------------------------------


@dataclass(frozen=True)
class Standings:
    """The table and the names to show it with (players are membership ids in the core)."""

    rows: tuple[StandingRow, ...]
    names: dict[PlayerId, str]

    def csv(self) -> str:
        return standings_csv(self.rows, self.names)


def league_of(campaign: Campaign) -> League:
    """Return the campaign's league settings row, with defaults if none was saved yet."""
    league = League.objects.filter(campaign_id=campaign.pk).first()
    return league if league is not None else League(campaign=campaign)


def league_settings(league: League) -> LeagueSettings:
    """Return the core's settings for a league row (raises SettingsError if they are bad)."""
    return LeagueSettings.from_mapping(settings_mapping(league))


def settings_mapping(league: League) -> dict[str, object]:
    names = (
        "win_points",
        "draw_points",
        "loss_points",
        "bye_points",
        "major_victory_bonus",
        "max_games_per_pair",
        "late_joiner_points",
    )
    mapping: dict[str, object] = {name: getattr(league, name) for name in names}
    mapping["tie_breakers"] = tuple(league.tie_breakers or ())
    return mapping


def league_players(campaign: Campaign) -> QuerySet[Membership]:
    """Return the campaign's players (organisers run the league, players play in it)."""
    return (
        Membership.objects.filter(campaign_id=campaign.pk, role=Role.PLAYER)
        .select_related("user")
        .order_by("pk")
    )


def withdrawn_by(players: Iterable[Membership], number: int) -> frozenset[int]:
    """Return the ids of the players who no longer play in round `number`."""
    return frozenset(
        p.pk
        for p in players
        if p.withdrawn_from_round is not None and p.withdrawn_from_round <= number
    )


def league_pairings(campaign: Campaign) -> QuerySet[Pairing]:
    return (
        Pairing.objects.filter(round__campaign_id=campaign.pk)
        .select_related("round")
        .order_by("round__number", "table", "pk")
    )


def core_rounds(pairings: Iterable[Pairing]) -> tuple[CoreRound, ...]:
    """Return the schedule as the core's rounds, in round order (pairings already sorted)."""
    by_number: dict[int, list[CorePairing]] = {}
    for pairing in pairings:
        by_number.setdefault(pairing.round.number, []).append(
            CorePairing(pairing.home_id, pairing.away_id)
        )
    return tuple(CoreRound(n, tuple(p)) for n, p in sorted(by_number.items()))


def core_result(pairing: Pairing) -> Result:
    """Return a settled pairing's result as the core's record."""
    if pairing.is_bye:
        return Result(pairing.round.number, pairing.home_id, None, pairing_id=pairing.pk)
    winners: dict[str, int | None] = {Winner.HOME: pairing.home_id, Winner.AWAY: pairing.away_id}
    winner = winners.get(pairing.winner)
    return Result(
        pairing.round.number,
        pairing.home_id,
        pairing.away_id,
        winner=winner,
        home_vp=pairing.home_vp,
        away_vp=pairing.away_vp,
        home_figures_lost=pairing.home_figures_lost,
        away_figures_lost=pairing.away_figures_lost,
        major_victory=pairing.major_victory,
        forfeit=pairing.home_no_show or pairing.away_no_show,
        pairing_id=pairing.pk,
    )


def counted(pairings: Sequence[Pairing]) -> list[Pairing]:
    """Return the pairings whose result counts: settled games, and the byes of rounds that are
    over (locked, or every game settled), so a bye in round 5 does not score in round 1."""
    open_rounds = {p.round_id for p in pairings if not p.is_settled}
    return [
        p
        for p in pairings
        if p.is_settled
        and not (p.is_bye and p.round_id in open_rounds and p.round.status != Round.Status.LOCKED)
    ]


def league_adjustments(campaign: Campaign) -> tuple[Adjustment, ...]:
    rows = LeagueAdjustment.objects.filter(campaign_id=campaign.pk).order_by("created_at", "pk")
    return tuple(Adjustment(a.player_id, a.points, a.reason) for a in rows)


def league_standings(campaign: Campaign, league: League | None = None) -> Standings:
    """Compute the table from settled results and adjustments: four queries at any size.

    `league` overrides the saved settings: the season page previews unsaved ones with it."""
    settings = league_settings(league if league is not None else league_of(campaign))
    players = list(league_players(campaign))
    results = [core_result(p) for p in counted(list(league_pairings(campaign)))]
    rows = compute_standings(
        [p.pk for p in players], results, settings, league_adjustments(campaign)
    )
    return Standings(rows, {p.pk: p.player_name for p in players})


def current_round(campaign: Campaign) -> Round | None:
    """Return the first round still open (being played), or else the last round."""
    rounds = Round.objects.filter(campaign_id=campaign.pk)
    return (
        rounds.filter(status=Round.Status.OPEN).order_by("number").first()
        or rounds.order_by("-number").first()
    )


def late_join_round(campaign: Campaign) -> int | None:
    """The round a player added now would join from: the first open round with no game played.

    None while the league has no rounds yet (the newcomer is then an ordinary player).
    """
    rounds = Round.objects.filter(campaign_id=campaign.pk)
    if not rounds.exists():
        return None
    untouched = rounds.filter(status=Round.Status.OPEN).exclude(pairings__winner__gt="")
    first = untouched.order_by("number").values_list("number", flat=True).first()
    return first if first is not None else (rounds.aggregate(n=Max("number"))["n"] or 0) + 1


def round_pairings(round_: Round) -> QuerySet[Pairing]:
    return round_.pairings.select_related("home__user", "away__user", "battle").order_by(
        "table", "pk"
    )


def unsettled(pairings: Iterable[Pairing]) -> list[Pairing]:
    return [p for p in pairings if not p.is_settled]


# --- history: rows that are kept, never deleted ----------------------------------------------

#: A pairing with any result written (a report, a confirmation, a dispute) is history.
PLAYED = Q(version__gt=0) | Q(confirmed_by_organiser=True) | Q(reported_by_home=True)
PLAYED |= Q(reported_by_away=True) | Q(disputed=True)


def pairing_kept_because(pairing: Pairing) -> str:
    """Say why a pairing cannot be deleted ("" when it can: nothing was played or reported)."""
    if pairing.round.status == RoundStatus.LOCKED:
        return f"round {pairing.round.number} is locked: its games are history"
    if Pairing.objects.filter(PLAYED, pk=pairing.pk).exists():
        return "a result was reported or confirmed for this game: correct it instead"
    return ""


def round_kept_because(round_: Round) -> str:
    """Say why a round cannot be deleted ("" when it can: unlocked and nothing played)."""
    if round_.status == RoundStatus.LOCKED:
        return f"round {round_.number} is locked: its results are history"
    if Pairing.objects.filter(PLAYED, round_id=round_.pk).exists():
        return f"round {round_.number} has reported games: correct them instead"
    return ""
