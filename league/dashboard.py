"""What needs the organiser: per campaign they run, the current round, its results by state,
the next thing to do, battles stuck in the post-battle pipeline and print jobs that failed.

A read (a selector), in a fixed number of queries whatever the size of the leagues: the
campaigns, their rounds, the current rounds' pairings, the stuck battles, the failed print
jobs and the member counts are one query each, grouped by campaign in Python. Battles sit
below the league and are read directly; print jobs sit above it, so printing answers the
desk's question (`league.signals.desk_attention`) with its failed jobs.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from battles.models import Battle, BattleStatus
from campaigns.models import Campaign, JoinRequest, Membership, Role
from campaigns.selectors import campaigns_managed_by, system_name
from common.users import Visitor
from league.models import Pairing, PairingMethod, Round
from league.signals import desk_attention

#: Same thresholds as the pipeline's sweep (battles.services.pipeline): a battle finished a
#: minute ago and never picked up, or claimed ten minutes ago and never done, is stuck.
FINISHED_GRACE = timedelta(seconds=60)
DEFAULT_STALE_MINUTES = 10


@dataclass
class Tally:
    """A round's games by where their result stands (a bye is settled by itself)."""

    games: int = 0
    byes: int = 0
    confirmed: int = 0
    agreed: int = 0
    reported: int = 0
    disputed: int = 0
    missing: int = 0

    @property
    def settled(self) -> int:
        return self.confirmed + self.agreed


@dataclass(frozen=True)
class NextAction:
    """The one thing to do next: `kind` names the button, `pairing` the game it is about."""

    kind: str
    label: str
    pairing: Pairing | None = None


class CampaignRow(Protocol):
    """A row the desk files under its campaign (a battle, a failed print job ...)."""

    @property
    def campaign_id(self) -> int | None: ...


@dataclass
class Desk:
    """One campaign's corner of the dashboard."""

    campaign: Campaign
    method: str
    rounds: list[Round]
    current: Round | None
    tally: Tally = field(default_factory=Tally)
    disputed: list[Pairing] = field(default_factory=list)
    reported: list[Pairing] = field(default_factory=list)
    missing: list[Pairing] = field(default_factory=list)
    stuck_battles: list[Battle] = field(default_factory=list)
    battles_to_settle: list[Battle] = field(default_factory=list)
    failed_jobs: list[CampaignRow] = field(default_factory=list)
    players: int = 0
    withdrawn: int = 0
    waiting_to_join: int = 0
    overdue: bool = False
    next_action: NextAction | None = None

    @property
    def system_name(self) -> str:
        return system_name(self.campaign.system)

    @property
    def pending(self) -> int:
        """Count what waits for the organiser (the figure the admin index shows)."""
        waiting = len(self.disputed) + len(self.reported) + len(self.stuck_battles)
        waiting += len(self.battles_to_settle)
        return waiting + len(self.missing) + len(self.failed_jobs) + self.waiting_to_join


def pairing_state(pairing: Pairing) -> str:
    """Return "bye", "confirmed", "agreed", "disputed", "reported" or "missing"."""
    if pairing.is_bye:
        return "bye"
    if pairing.confirmed_by_organiser:
        return "confirmed"
    if pairing.disputed:
        return "disputed"
    if pairing.reported_by_home and pairing.reported_by_away:
        return "agreed"
    if pairing.reported_by_home or pairing.reported_by_away:
        return "reported"
    return "missing"


def organiser_dashboard(user: Visitor, *, today: datetime.date | None = None) -> list[Desk]:
    """Return a desk per campaign the user runs (active first), in six queries at any size."""
    today = today or timezone.localdate()
    campaigns = list(
        campaigns_managed_by(user)
        .exclude(status=Campaign.Status.FINISHED)
        .select_related("club", "league")
        .order_by("status", "name", "pk")
    )
    ids = [c.pk for c in campaigns]
    rounds = _rounds_by_campaign(ids)
    desks = [_desk(c, rounds.get(c.pk, [])) for c in campaigns]
    current = {d.current.pk: d for d in desks if d.current is not None}
    for pairing in _pairings(current):
        _file(current[pairing.round_id], pairing)
    _attach(desks, "stuck_battles", stuck_battles(ids))
    _attach(desks, "battles_to_settle", battles_to_settle(ids))
    for receiver, answer in desk_attention.send(sender=Desk, campaign_ids=ids):
        _attach(desks, *_desk_answer(receiver, answer))
    _count_members(desks, ids)
    for desk in desks:
        deadline = desk.current.deadline if desk.current else None
        desk.overdue = bool(deadline and deadline < today and desk.missing)
        desk.next_action = next_action(desk)
    return desks


def _desk_answer(receiver: object, answer: object) -> tuple[str, list[CampaignRow]]:
    """Read a desk_attention receiver's answer: (a desk field, its rows)."""
    match answer:
        case (str() as name, list() as rows):
            return name, rows
    raise TypeError(f"{receiver!r} answered the desk with {answer!r}, not (desk list, rows)")


def _rounds_by_campaign(ids: list[int]) -> dict[int, list[Round]]:
    found: dict[int, list[Round]] = defaultdict(list)
    for round_ in Round.objects.filter(campaign_id__in=ids).order_by("number"):
        found[round_.campaign_id].append(round_)
    return found


def _desk(campaign: Campaign, rounds: list[Round]) -> Desk:
    league = getattr(campaign, "league", None)
    method = league.pairing_method if league is not None else PairingMethod.SWISS
    open_rounds = [r for r in rounds if r.status == Round.Status.OPEN]
    current = open_rounds[0] if open_rounds else (rounds[-1] if rounds else None)
    return Desk(campaign, method, rounds, current)


def _pairings(current: dict[int, Desk]) -> Iterable[Pairing]:
    return (
        Pairing.objects.filter(round_id__in=list(current))
        .select_related("round", "home__user", "away__user", "battle")
        .order_by("table", "pk")
    )


def _file(desk: Desk, pairing: Pairing) -> None:
    state = pairing_state(pairing)
    if state == "bye":
        desk.tally.byes += 1
        return
    desk.tally.games += 1
    setattr(desk.tally, state, getattr(desk.tally, state) + 1)
    if state in ("disputed", "reported", "missing"):
        getattr(desk, state).append(pairing)


def stuck_battles(campaign_ids: list[int]) -> list[Battle]:
    """Return the battles whose post-battle rolls never ran, or stopped half way."""
    now = timezone.now()
    stale = timedelta(minutes=getattr(settings, "BATTLES_STALE_MINUTES", DEFAULT_STALE_MINUTES))
    return list(
        Battle.objects.filter(campaign_id__in=campaign_ids)
        .filter(
            Q(status=BattleStatus.FINISHED, finished_at__lt=now - FINISHED_GRACE)
            | Q(status=BattleStatus.PROCESSING, claimed_at__lt=now - stale)
        )
        .order_by("finished_at", "pk")
    )


def battles_to_settle(campaign_ids: list[int]) -> list[Battle]:
    """Return the battles whose result waits for an organiser: disputed, or reported and left
    unanswered longer than the time to answer (`BATTLES_CONFIRM_DAYS`; a league game's round
    deadline is checked when the organiser settles it on the battle's page)."""
    days = int(getattr(settings, "BATTLES_CONFIRM_DAYS", 7))
    since = timezone.now() - timedelta(days=days)
    unanswered = Q(status=BattleStatus.REPORTED, reported_at__lt=since)
    return list(
        Battle.objects.filter(campaign_id__in=campaign_ids)
        .filter(Q(status=BattleStatus.DISPUTED) | unanswered)
        .select_related("disputed_by")
        .order_by("reported_at", "pk")
    )


def _attach(desks: list[Desk], name: str, rows: Sequence[CampaignRow]) -> None:
    by_campaign: dict[int | None, Desk] = {d.campaign.pk: d for d in desks}
    for row in rows:
        desk = by_campaign.get(row.campaign_id)
        if desk is not None:
            getattr(desk, name).append(row)


def _count_members(desks: list[Desk], ids: list[int]) -> None:
    """Count players, drop-outs and players waiting for approval (two queries at any size)."""
    counts = (
        Membership.objects.filter(campaign_id__in=ids, role=Role.PLAYER)
        .values("campaign_id")
        .annotate(
            players=Count("pk"),
            withdrawn=Count("pk", filter=Q(withdrawn_from_round__isnull=False)),
        )
    )
    players = {row["campaign_id"]: (row["players"], row["withdrawn"]) for row in counts}
    for desk in desks:
        desk.players, desk.withdrawn = players.get(desk.campaign.pk, (0, 0))
    waiting = (
        JoinRequest.objects.filter(campaign_id__in=ids)
        .values("campaign_id")
        .annotate(n=Count("pk"))
    )
    by_campaign = {row["campaign_id"]: row["n"] for row in waiting}
    for desk in desks:
        desk.waiting_to_join = by_campaign.get(desk.campaign.pk, 0)


def next_action(desk: Desk) -> NextAction | None:
    """Say what the organiser should do next, in the order a club night needs it."""
    round_ = desk.current
    if round_ is None or round_.status == Round.Status.LOCKED:
        return _pair_action(desk)
    if desk.disputed:
        first = desk.disputed[0]
        return NextAction("resolve", f"Resolve the dispute at table {first.table}", first)
    if desk.missing and desk.overdue:
        first = desk.missing[0]
        return NextAction("auto_resolve", f"Auto-resolve the no-show at table {first.table}", first)
    if desk.reported:
        first = desk.reported[0]
        return NextAction("confirm", f"Confirm the result reported at table {first.table}", first)
    if desk.missing:
        return NextAction("results", f"Enter round {round_.number}'s results")
    return NextAction("lock", f"Lock round {round_.number}")


def _pair_action(desk: Desk) -> NextAction | None:
    number = (desk.rounds[-1].number if desk.rounds else 0) + 1
    if desk.method == PairingMethod.MANUAL:
        return NextAction("add_round", f"Pair round {number} by hand")
    if desk.method == PairingMethod.ROUND_ROBIN:
        return NextAction("pair", "Schedule the round robin") if not desk.rounds else None
    return NextAction("pair", f"Pair round {number}")
