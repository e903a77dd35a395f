"""The organiser's season desk: a whole round's results in one submit (all or none), round
deadlines, and the next round paired by the league's own pairing method."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership
from common.users import User
from league.errors import LeagueConflict
from league.models import Pairing, PairingMethod, Round
from league.selectors import league_of
from league.services.league import (
    league_update,
    membership_withdraw,
    round_robin_generate,
    swiss_round_generate,
)
from league.services.results import Claim, pairing_confirm


@dataclass(frozen=True)
class RowResult:
    """One pairing's result as the organiser typed it on the round page."""

    pairing: Pairing
    claim: Claim
    expected_version: int | None = None


#: `round_results_record(deadline=...)` left out: the round keeps its deadline.
KEEP = object()


@transaction.atomic
def round_results_record(
    *,
    round_: Round,
    user: User,
    rows: Sequence[RowResult],
    deadline: datetime.date | object | None = KEEP,
) -> list[Pairing]:
    """Confirm every row's result (and set the deadline), or none: a refused row rolls the
    whole round back. The error dict is keyed by pairing id, so the page can show each
    refusal on its row.
    """
    errors: dict[str, list[str]] = {}
    saved = []
    for row in rows:
        if row.pairing.round_id != round_.pk:
            errors[str(row.pairing.pk)] = ["this game is not part of the round"]
            continue
        try:
            saved.append(
                pairing_confirm(
                    pairing=row.pairing,
                    user=user,
                    claim=row.claim,
                    expected_version=row.expected_version,
                )
            )
        except ValidationError as exc:
            errors[str(row.pairing.pk)] = exc.messages
        except LeagueConflict as exc:
            errors[str(row.pairing.pk)] = [str(exc)]
    if errors:
        raise ValidationError(errors)  # leaving the atomic block undoes the rows already saved
    if deadline is None or isinstance(deadline, datetime.date):
        round_deadline_set(round_=round_, deadline=deadline)
    elif deadline is not KEEP:
        raise TypeError(f"a round's deadline is a date or None, not {deadline!r}")
    return saved


@transaction.atomic
def round_deadline_set(*, round_: Round, deadline: datetime.date | None) -> Round:
    """Set (or clear) the last day to play and report a round's games."""
    Round.objects.filter(pk=round_.pk).update(deadline=deadline)
    round_.deadline = deadline
    return round_


def round_next_pair(*, campaign: Campaign) -> int:
    """Pair the next round by the league's pairing method; return the first new round's number."""
    method = league_of(campaign).pairing_method
    if method == PairingMethod.ROUND_ROBIN:
        return round_robin_generate(campaign=campaign)[0].number
    if method == PairingMethod.SWISS:
        return swiss_round_generate(campaign=campaign).number
    raise ValidationError("this league is paired by hand: add the round on the rounds page")


@dataclass(frozen=True)
class SeasonChanges:
    """What the season settings page changed: league settings, round deadlines, drop-outs."""

    league: dict[str, object] = field(default_factory=dict)
    deadlines: dict[int, datetime.date | None] = field(default_factory=dict)
    withdrawals: dict[int, int] = field(default_factory=dict)


@transaction.atomic
def season_update(*, campaign: Campaign, user: User, changes: SeasonChanges) -> int:
    """Apply the season page in one go (all or nothing); return the games forfeited."""
    if changes.league:
        league_update(campaign=campaign, **changes.league)
    for round_ in Round.objects.filter(campaign_id=campaign.pk, pk__in=list(changes.deadlines)):
        round_deadline_set(round_=round_, deadline=changes.deadlines[round_.pk])
    forfeited = 0
    members = Membership.objects.filter(campaign_id=campaign.pk, pk__in=list(changes.withdrawals))
    for member in members.select_related("campaign"):
        forfeited += len(
            membership_withdraw(
                membership=member, from_round=changes.withdrawals[member.pk], user=user
            )
        )
    return forfeited
