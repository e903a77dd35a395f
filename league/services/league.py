"""League writes: settings, adjustments, rounds (round robin, Swiss, by hand), swaps, late
joiners, drop-outs and locking. The pairing logic is the league core's; this module loads rows,
calls it and stores what it returns."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, Membership, Role
from common.users import User
from league import selectors
from league.core import (
    LeagueError,
    PairingWarning,
    SettingsError,
    StandingRow,
    check_manual_round,
    dropout_forfeits,
    join_round_robin,
    late_joiner_adjustment,
    next_swiss_round,
    round_robin,
    swap_players,
)
from league.core import Pairing as CorePairing
from league.core import Round as CoreRound
from league.errors import LeagueConflict
from league.models import League, LeagueAdjustment, Pairing, Round, RoundKind, RoundStatus, Winner
from league.services.results import result_entry_record
from league.signals import round_paired, swiss_seeding

LEAGUE_FIELDS = (
    "win_points",
    "draw_points",
    "loss_points",
    "bye_points",
    "major_victory_bonus",
    "tie_breakers",
    "max_games_per_pair",
    "late_joiner_points",
    "season_start",
    "season_end",
    "pairing_method",
    "show_rating",
    "seed_by_rating",
)


@contextmanager
def as_validation(field: str) -> Iterator[None]:
    """Turn a league-core error into a Django ValidationError (a 400, an admin message)."""
    try:
        yield
    except SettingsError as exc:
        raise ValidationError({k: [m] for k, m in exc.errors.items()}) from None
    except LeagueError as exc:
        raise ValidationError({field: [str(exc)]}) from None


# --- settings and adjustments ------------------------------------------------------------------


@transaction.atomic
def league_update(*, campaign: Campaign, **changes: Any) -> League:
    """Change a league's scoring settings and season dates, validated by the league core."""
    unknown = set(changes) - set(LEAGUE_FIELDS)
    if unknown:
        raise ValidationError({name: ["is not a league setting"] for name in sorted(unknown)})
    league = selectors.league_of(campaign)
    for name, value in changes.items():
        setattr(league, name, list(value) if name == "tie_breakers" else value)
    with as_validation("league"):
        selectors.league_settings(league)
    _check_season(league)
    league.full_clean()
    league.save()
    return league


def _check_season(league: League) -> None:
    start, end = league.season_start, league.season_end
    if start and end and end < start:
        raise ValidationError({"season_end": ["the season cannot end before it starts"]})


@transaction.atomic
def adjustment_create(
    *, player: Membership, points: int, reason: str, user: User | None = None
) -> LeagueAdjustment:
    """Give or take points by hand; the reason shows in the table and the CSV."""
    if player.role != Role.PLAYER:
        raise ValidationError({"player": [f"{player.player_name} does not play in the league"]})
    if not reason.strip():
        raise ValidationError({"reason": ["an adjustment needs a reason"]})
    if points == 0:
        raise ValidationError({"points": ["an adjustment of 0 points changes nothing"]})
    return LeagueAdjustment.objects.create(
        campaign_id=player.campaign_id,
        player=player,
        points=points,
        reason=reason.strip(),
        created_by=user,
    )


# --- generating rounds -------------------------------------------------------------------------


def _active_players(campaign: Campaign, number: int) -> list[Membership]:
    players = list(selectors.league_players(campaign))
    gone = selectors.withdrawn_by(players, number)
    return [p for p in players if p.pk not in gone]


def _store_round(campaign: Campaign, core: CoreRound, kind: str) -> Round:
    round_ = Round.objects.create(campaign=campaign, number=core.number, kind=kind)
    ordered = [*core.games, *(p for p in core.pairings if p.is_bye)]
    Pairing.objects.bulk_create(
        Pairing(round=round_, home_id=p.home, away_id=p.away, table=table)
        for table, p in enumerate(ordered, start=1)
    )
    round_paired.send(sender=Round, round_=round_)  # the notices give each player their game
    return round_


@transaction.atomic
def round_robin_generate(*, campaign: Campaign, legs: int = 1) -> list[Round]:
    """Schedule the whole season: everyone meets everyone once per leg (circle method)."""
    Campaign.objects.select_for_update().get(pk=campaign.pk)  # one generation at a time
    if Round.objects.filter(campaign_id=campaign.pk).exists():
        raise ValidationError(
            {
                "round": [
                    "the league already has rounds: a round robin schedules a whole season from "
                    "round 1; pair further rounds by hand or as Swiss rounds"
                ]
            }
        )
    players = [p.pk for p in _active_players(campaign, 1)]
    with as_validation("round"):
        schedule = round_robin(players, legs=legs)
    return [_store_round(campaign, core, RoundKind.ROUND_ROBIN) for core in schedule]


@transaction.atomic
def swiss_round_generate(*, campaign: Campaign) -> Round:
    """Pair the next round Swiss-style from the current table (every game so far settled)."""
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    pairings = list(selectors.league_pairings(campaign))
    _require_settled(pairings, "pair the next Swiss round")
    number = max((p.round.number for p in pairings), default=0) + 1
    players = list(selectors.league_players(campaign))
    with as_validation("round"):
        core = next_swiss_round(
            _swiss_ranking(campaign, number),
            selectors.core_rounds(pairings),
            selectors.league_settings(selectors.league_of(campaign)),
            number=number,
            withdrawn=selectors.withdrawn_by(players, number),
        )
    return _store_round(campaign, core, RoundKind.SWISS)


def _swiss_ranking(campaign: Campaign, number: int) -> Sequence[StandingRow]:
    """The table Swiss pairs from; round 1 by club rating when the league seeds by rating."""
    rows = selectors.league_standings(campaign).rows
    if number == 1 and selectors.league_of(campaign).seed_by_rating:
        return _seeded(campaign, rows)
    return rows


def _seeded(campaign: Campaign, rows: Sequence[Any]) -> Sequence[Any]:
    """Ask the club rating, a rung above, for the seed order (league.signals.swiss_seeding)."""
    for _, seeded in swiss_seeding.send(sender=Campaign, campaign=campaign, rows=rows):
        if seeded is not None:
            return seeded
    raise ImproperlyConfigured("no app answers the league's seeding: is ratings installed?")


def _require_settled(pairings: Sequence[Pairing], doing: str) -> None:
    waiting = selectors.unsettled(pairings)
    if waiting:
        games = ", ".join(f"round {p.round.number} table {p.table}" for p in waiting[:6])
        more = f" and {len(waiting) - 6} more" if len(waiting) > 6 else ""
        raise ValidationError(
            {
                "round": [
                    f"cannot {doing}: {len(waiting)} game(s) have no settled result yet "
                    f"({games}{more}); confirm them first"
                ]
            }
        )


@dataclass(frozen=True)
class ManualRound:
    """A round paired by hand and the warnings it drew (rematches, second byes...)."""

    round: Round
    warnings: tuple[PairingWarning, ...]


@transaction.atomic
def round_create_manual(
    *, campaign: Campaign, pairings: Sequence[tuple[Membership, Membership | None]]
) -> ManualRound:
    """Store a hand-made round; rematches and the like are warned about, never blocked."""
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    history = list(selectors.league_pairings(campaign))
    number = max((p.round.number for p in history), default=0) + 1
    core = CoreRound(number, tuple(CorePairing(h.pk, a.pk if a else None) for h, a in pairings))
    warnings = _warnings(campaign, core, selectors.core_rounds(history))
    return ManualRound(_store_round(campaign, core, RoundKind.MANUAL), warnings)


def _warnings(
    campaign: Campaign, core: CoreRound, history: Sequence[CoreRound]
) -> tuple[PairingWarning, ...]:
    """Check a round with players named by username, so each warning reads as it shows."""
    players = list(selectors.league_players(campaign))
    names = {p.pk: p.player_name for p in players}
    with as_validation("pairings"):
        return check_manual_round(
            _by_name(core, names),
            players=set(names.values()),
            history=[_by_name(r, names) for r in history],
            settings=selectors.league_settings(selectors.league_of(campaign)),
            withdrawn={names[p] for p in selectors.withdrawn_by(players, core.number)},
        )


def _by_name(core: CoreRound, names: Mapping[int, str]) -> CoreRound:
    def name(player: Any) -> Any:
        return None if player is None else names.get(player, f"#{player}")

    return CoreRound(
        core.number, tuple(CorePairing(name(p.home), name(p.away)) for p in core.pairings)
    )


def round_check(*, round_: Round) -> tuple[PairingWarning, ...]:
    """Return the warnings a round's current pairings draw against the rounds before it."""
    pairings = list(selectors.league_pairings(round_.campaign))
    rounds = selectors.core_rounds(pairings)
    this = next((r for r in rounds if r.number == round_.number), CoreRound(round_.number, ()))
    return _warnings(round_.campaign, this, [r for r in rounds if r.number < round_.number])


@transaction.atomic
def round_swap_players(
    *, round_: Round, first: Membership, second: Membership
) -> tuple[PairingWarning, ...]:
    """Swap two players' places in an open round (games not yet reported); return warnings."""
    round_ = _open_round(round_.pk, "swap players")
    rows = list(selectors.round_pairings(round_))
    core = CoreRound(round_.number, tuple(CorePairing(p.home_id, p.away_id) for p in rows))
    with as_validation("pairings"):
        swapped = swap_players(core, first.pk, second.pk)
    touched = [
        (row, new)
        for row, new in zip(rows, swapped.pairings, strict=True)
        if (row.home_id, row.away_id) != (new.home, new.away)
    ]
    _require_unreported([row for row, _ in touched], "swap players")
    # Delete and re-add: moving players row by row would break "once per round" midway.
    Pairing.objects.filter(pk__in=[row.pk for row, _ in touched]).delete()
    Pairing.objects.bulk_create(
        Pairing(round=round_, home_id=new.home, away_id=new.away, table=row.table)
        for row, new in touched
    )
    return round_check(round_=round_)


def _open_round(round_id: int, doing: str) -> Round:
    round_ = Round.objects.select_for_update().select_related("campaign").get(pk=round_id)
    if round_.status != RoundStatus.OPEN:
        raise LeagueConflict(f"cannot {doing}: round {round_.number} is locked")
    return round_


def _require_unreported(pairings: Sequence[Pairing], doing: str) -> None:
    played = [p for p in pairings if p.version > 0]
    if played:
        tables = ", ".join(str(p.table) for p in played)
        raise ValidationError(
            {"pairings": [f"cannot {doing}: a result was already reported at table {tables}"]}
        )


@transaction.atomic
def round_lock(*, round_: Round) -> Round:
    """Lock a round once every game in it is settled: pairings and reports are then final."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == RoundStatus.LOCKED:
        raise LeagueConflict(f"round {round_.number} is already locked")
    pairings = list(round_.pairings.select_related("round"))
    _require_settled(pairings, f"lock round {round_.number}")
    round_.status, round_.locked_at = RoundStatus.LOCKED, timezone.now()
    round_.save(update_fields=["status", "locked_at"])
    return round_


# --- late joiners and drop-outs ------------------------------------------------------------------


@dataclass(frozen=True)
class LateJoin:
    """A late joiner's membership and the catch-up games the organiser still has to arrange."""

    membership: Membership
    catch_up: tuple[tuple[int, int], ...]


@transaction.atomic
def league_join(
    *, campaign: Campaign, user: User, from_round: int, by: User | None = None
) -> LateJoin:
    """Add a player after the season started: seated in the open round-robin rounds, given
    the league's starting score as an adjustment."""
    from campaigns.services.clubs import membership_create

    Campaign.objects.select_for_update().get(pk=campaign.pk)
    membership = membership_create(campaign=campaign, user=user, role=Role.PLAYER)
    pairings = list(selectors.league_pairings(campaign))
    catch_up: tuple[tuple[int, int], ...] = ()
    if any(p.round.kind == RoundKind.ROUND_ROBIN for p in pairings):
        catch_up = _seat_in_round_robin(campaign, pairings, membership, from_round)
    settings = selectors.league_settings(selectors.league_of(campaign))
    with as_validation("points"):
        start = late_joiner_adjustment(membership.pk, first_round=from_round, settings=settings)
    if start is not None:
        adjustment_create(player=membership, points=start.points, reason=start.reason, user=by)
    return LateJoin(membership, catch_up)


def _seat_in_round_robin(
    campaign: Campaign, pairings: Sequence[Pairing], newcomer: Membership, from_round: int
) -> tuple[tuple[int, int], ...]:
    rounds = {p.round.number: p.round for p in pairings if p.round.kind == RoundKind.ROUND_ROBIN}
    robin = [p for p in pairings if p.round.number in rounds]
    with as_validation("round"):
        schedule, catch_up = join_round_robin(
            selectors.core_rounds(robin), newcomer.pk, from_round=from_round
        )
    for core in schedule:
        if core.number >= from_round and rounds[core.number].status == RoundStatus.OPEN:
            _seat_newcomer(rounds[core.number], core, newcomer, robin)
    return tuple(_members_of(game) for game in catch_up)


def _members_of(game: CorePairing) -> tuple[int, int]:
    """A catch-up game as its two players' membership ids (the league's player ids)."""
    if not isinstance(game.home, int) or not isinstance(game.away, int):
        raise TypeError(f"a catch-up game is between two members, not {game}")
    return game.home, game.away


def _seat_newcomer(
    round_: Round, core: CoreRound, newcomer: Membership, pairings: Sequence[Pairing]
) -> None:
    game = next(p for p in core.pairings if newcomer.pk in p.players)
    if game.away is None:
        table = 1 + max((p.table for p in pairings if p.round_id == round_.pk), default=0)
        Pairing.objects.create(round=round_, home=newcomer, table=table)
        return
    bye = next(p for p in pairings if p.round_id == round_.pk and p.home_id == game.home)
    bye.away = newcomer
    bye.save(update_fields=["away", "updated_at"])


@transaction.atomic
def membership_withdraw(
    *, membership: Membership, from_round: int, user: User | None = None
) -> list[Pairing]:
    """Withdraw a player from `from_round` on: their open games become forfeits (the opponent
    wins), their byes lapse; Swiss rounds leave them out. Returns the forfeited pairings."""
    Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    membership.withdrawn_from_round = from_round
    membership.save(update_fields=["withdrawn_from_round"])
    pairings = [
        p
        for p in selectors.league_pairings(membership.campaign)
        if p.round.number >= from_round and p.round.status == RoundStatus.OPEN
    ]
    Pairing.objects.filter(
        pk__in=[p.pk for p in pairings if p.is_bye and p.home_id == membership.pk]
    ).delete()
    forfeits = dropout_forfeits(
        selectors.core_rounds(pairings), membership.pk, from_round=from_round
    )
    return [_forfeit(pairings, f.round_number, membership, user) for f in forfeits]


def _forfeit(
    pairings: Sequence[Pairing], number: int, withdrawn: Membership, user: User | None
) -> Pairing:
    pairing = next(
        p
        for p in pairings
        if p.round.number == number and not p.is_bye and withdrawn.pk in (p.home_id, p.away_id)
    )
    home_gone = pairing.home_id == withdrawn.pk
    Pairing.objects.filter(pk=pairing.pk).update(
        winner=Winner.AWAY if home_gone else Winner.HOME,
        home_vp=0,
        away_vp=0,
        home_figures_lost=0,
        away_figures_lost=0,
        major_victory=False,
        home_no_show=home_gone,
        away_no_show=not home_gone,
        confirmed_by_organiser=True,
        confirmed_by=user,
        disputed=False,
        disputed_claim={},
        version=pairing.version + 1,
        updated_at=timezone.now(),
    )
    pairing.refresh_from_db()
    result_entry_record(pairing, user)
    return pairing
