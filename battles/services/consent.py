"""Consent: a battle's aftermath touches a side's figures only once that side agreed the result.

As league results already work (league.services.results): one player reports (finishing the
battle agrees for every side they answer for), the other confirms or disputes. A side is
answered for by its force's owner, or by an organiser of the force's campaign. A dispute goes
to the organisers, who settle it; a report nobody answered can be settled by an organiser once
the time to answer has passed (the league round's deadline for a league game, else
`BATTLES_CONFIRM_DAYS` after the report). A battle where one player owns every side, or that
an organiser reports, is agreed at once. Any player of the battle may reopen a result that is
not agreed yet, to correct it at the table; every agreement then starts again.

Only when every side agreed does `battle_seal` mark the battle FINISHED and queue the rolls;
the task's claim re-checks it (battles.services.pipeline.battle_claim).
"""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from battles.errors import BattleConflict
from battles.models import Battle, BattleFigure, BattleSide, BattleStatus
from battles.selectors import battle_is_playable_by
from battles.services.common import PLAYABLE, locked, require_status, system_of
from battles.services.pipeline import battle_seal, check_results, unagreed_sides
from battles.services.records import figure_status
from battles.signals import battle_answer_day, battle_disputed, battle_reported
from campaigns.models import display_name
from campaigns.selectors import campaigns_managed_by
from common.users import User

DEFAULT_CONFIRM_DAYS = 7
WAITING = (BattleStatus.REPORTED, BattleStatus.DISPUTED)


# --- who answers for which side -------------------------------------------------------------


def sides_owned_by(battle: Battle, user: User) -> QuerySet[BattleSide]:
    """Return the battle's sides whose force the user owns."""
    return BattleSide.objects.filter(battle_id=battle.pk, force__owner_id=user.pk)


def sides_organised_by(battle: Battle, user: User) -> QuerySet[BattleSide]:
    """Return the battle's sides whose force's campaign the user organises (or administers)."""
    managed = campaigns_managed_by(user).values("pk")
    return BattleSide.objects.filter(battle_id=battle.pk, force__campaign__in=managed)


def sides_answered_by(battle: Battle, user: User) -> QuerySet[BattleSide]:
    """Return the sides the user may agree a result for: owned, or organised."""
    if not user.is_authenticated:
        return BattleSide.objects.none()
    owned = sides_owned_by(battle, user).values("pk")
    organised = sides_organised_by(battle, user).values("pk")
    return BattleSide.objects.filter(Q(pk__in=owned) | Q(pk__in=organised))


def _agree(sides: QuerySet[BattleSide], user: User) -> int:
    return sides.filter(agreed_at__isnull=True).update(agreed_at=timezone.now(), agreed_by=user)


def battle_waiting_for(battle: Battle) -> str:
    """Name whose agreement is missing, as the pages say it: "alice (The Saxons)"."""
    sides = unagreed_sides(battle.pk).select_related("force__owner").order_by("index")
    return ", ".join(f"{display_name(s.force.owner)} ({s.force.name})" for s in sides)


# --- when an organiser may settle an unanswered report --------------------------------------


def battle_answer_by(battle: Battle) -> date | None:
    """Return the last day the other side has to answer a report (None: nothing reported).

    A league game answers by its round's deadline; any other battle within
    `BATTLES_CONFIRM_DAYS` (7 unless set) of the report.
    """
    if battle.reported_at is None:
        return None
    for _, day in battle_answer_day.send(sender=Battle, battle_id=battle.pk):
        if isinstance(day, date):
            return day  # set by an app above (a league game: its round's deadline)
    days = int(getattr(settings, "BATTLES_CONFIRM_DAYS", DEFAULT_CONFIRM_DAYS))
    return timezone.localdate(battle.reported_at) + timedelta(days=days)


def _answer_time_over(battle: Battle) -> bool:
    last_day = battle_answer_by(battle)
    return last_day is not None and timezone.localdate() > last_day


# --- reporting -----------------------------------------------------------------------------


@transaction.atomic
def battle_finish(*, battle: Battle, user: User, key: str = "") -> Battle:
    """Report the result: it is frozen, agreed for every side the user answers for, and the
    other sides are asked to confirm. Once every side agreed, the rolls are queued.

    The same report sent again with its idempotency `key` is answered as done.
    """
    battle = locked(battle.pk)
    if key and battle.finish_key == key:
        return battle
    if battle.status not in PLAYABLE:
        raise BattleConflict(f"the battle is already finished ({battle.status})")
    answered = sides_answered_by(battle, user)
    if not answered.exists():
        raise ValidationError({"battle": ["you answer for no side of this battle"]})
    check_results(battle, system_of(battle))
    _freeze(battle, key)
    _agree(answered, user)
    if not unagreed_sides(battle.pk).exists():
        return battle_seal(battle=battle, user=user)
    battle_reported.send(sender=Battle, battle_id=battle.pk, by=user)
    return battle


def _freeze(battle: Battle, key: str) -> None:
    system = system_of(battle)
    figures = list(battle.figures.all())
    for figure in figures:
        figure.final_status = figure_status(system, figure)
    BattleFigure.objects.bulk_update(figures, ["final_status"])
    battle.status, battle.reported_at, battle.finish_key = (
        BattleStatus.REPORTED,
        timezone.now(),
        key,
    )
    battle.save(update_fields=["status", "reported_at", "finish_key"])


# --- the other side answers ----------------------------------------------------------------


@transaction.atomic
def battle_confirm(*, battle: Battle, user: User) -> Battle:
    """Agree a reported result for the user's own sides; the last agreement queues the rolls.

    Confirming twice (a double tap) is answered as done.
    """
    battle = locked(battle.pk)
    owned = sides_owned_by(battle, user)
    if not owned.exists():
        raise ValidationError({"battle": ["only the players whose forces fought confirm a result"]})
    if battle.status not in WAITING and not owned.filter(agreed_at__isnull=True).exists():
        return battle  # already agreed (and perhaps rolled): nothing to do
    require_status(battle, (BattleStatus.REPORTED,), "confirm the result")
    if not _agree(owned, user):
        return battle
    if not unagreed_sides(battle.pk).exists():
        return battle_seal(battle=battle, user=user)
    return battle


@transaction.atomic
def battle_dispute(*, battle: Battle, user: User, note: str = "") -> Battle:
    """Say the reported result is wrong: the battle waits for an organiser to settle it."""
    battle = locked(battle.pk)
    require_status(battle, (BattleStatus.REPORTED,), "dispute the result")
    if not sides_owned_by(battle, user).filter(agreed_at__isnull=True).exists():
        raise ValidationError(
            {"battle": ["only a player who has not agreed the result can dispute it"]}
        )
    battle.status, battle.disputed_by = BattleStatus.DISPUTED, user
    battle.dispute_note = note.strip()[:1000]
    battle.save(update_fields=["status", "disputed_by", "dispute_note"])
    battle_disputed.send(sender=Battle, battle_id=battle.pk, by=user)
    return battle


# --- organisers settle; players reopen ------------------------------------------------------


@transaction.atomic
def battle_settle(*, battle: Battle, user: User) -> Battle:
    """Agree the result for the sides still waiting, as their campaign's organiser: a disputed
    result at any time, an unanswered one once the time to answer has passed."""
    battle = locked(battle.pk)
    require_status(battle, WAITING, "settle the result")
    waiting = unagreed_sides(battle.pk)
    organised = set(sides_organised_by(battle, user).values_list("pk", flat=True))
    outside = [s for s in waiting.select_related("force") if s.pk not in organised]
    if outside:
        names = ", ".join(s.force.name for s in outside)
        raise ValidationError(
            {"battle": [f"only an organiser of their campaign settles for {names}"]}
        )
    if battle.status == BattleStatus.REPORTED and not _answer_time_over(battle):
        raise ValidationError(
            {
                "battle": [
                    f"{battle_waiting_for(battle)} may answer until "
                    f"{battle_answer_by(battle):%-d %b %Y}; settle it after that"
                ]
            }
        )
    _agree(waiting, user)
    return battle_seal(battle=battle, user=user)


@transaction.atomic
def battle_reopen(*, battle: Battle, user: User) -> Battle:
    """Take a result nobody has finished agreeing back to the table, to correct it: every
    agreement is withdrawn, and the corrected result is reported and agreed anew."""
    battle = locked(battle.pk)
    require_status(battle, WAITING, "reopen the result")
    if not battle_is_playable_by(battle, user):
        raise ValidationError({"battle": ["only its players and organisers reopen a battle"]})
    BattleSide.objects.filter(battle_id=battle.pk).update(agreed_at=None, agreed_by=None)
    battle.status, battle.reported_at, battle.finish_key = BattleStatus.IN_PROGRESS, None, ""
    battle.disputed_by, battle.dispute_note = None, ""
    battle.save(
        update_fields=["status", "reported_at", "finish_key", "disputed_by", "dispute_note"]
    )
    return battle
