"""Sealing an agreed battle and the post-battle pipeline that runs on a Celery worker.

Exactly once, by construction:
- a result becomes FINISHED only when every side agreed it (battles.services.consent), and the
  claim below re-checks that no side is waiting, so a battle queued directly by anyone is
  refused until its players agreed;
- sealing an agreed result commits FINISHED, then queues one task after the commit (a broker
  that is down is logged, not raised: the sweep queues the battle later);
- the task claims the battle with a conditional UPDATE (FINISHED -> PROCESSING with a fresh
  claim token); zero rows means someone else has it, and the task returns;
- the ledger, the character changes, their service-record entries and the flip to PROCESSED
  are ONE transaction that re-checks the claim token under a row lock, so a crash rolls all of
  it back and a late duplicate (whose claim was taken over by the sweep) changes nothing;
- the sweep hands stale PROCESSING battles back to FINISHED and re-queues them.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from battles.errors import BattleConflict
from battles.models import Battle, BattleFigure, BattleSide, BattleStatus, PostBattleRoll
from battles.selectors import battles_fought_before, careers_before
from battles.services.common import locked, require_status, system_of
from battles.services.records import dice_for, figure_status, record_from_json, record_json
from battles.services.results import (
    allowed_statuses,
    check_side_results,
    scores_victory_points,
)
from battles.signals import battle_processed
from common.queueing import send_after_commit
from common.users import User
from rosters import services as rosters
from rosters.models import Character, CharacterStatus, EntryCause
from rules import narrate
from rules.campaign import PostBattleRoll as Roll
from rules.system import RuleSystem

#: A ledger row's identity: character id, procedure, step index.
LedgerKey = tuple[int, str, int]

DEFAULT_STALE_MINUTES = 10
DEFAULT_FINISHED_GRACE_SECONDS = 60
logger = logging.getLogger("muster.battles")


def queue_processing(battle_id: int) -> None:
    """Queue the post-battle task once the current transaction commits."""
    # A broker outage leaves the battle FINISHED ("waiting for the post-battle rolls") and the
    # sweep queues it once the broker is back.
    from battles.tasks import process_battle  # the task module imports this one

    send_after_commit(process_battle, failure_event="battle.queue_failed", battle_id=battle_id)


# --- sealing an agreed result ------------------------------------------------------------


def check_results(battle: Battle, system: RuleSystem) -> None:
    """Refuse to report a result that is incomplete or contradicts itself."""
    sides = list(battle.sides.select_related("force").order_by("index"))
    check_side_results(sides, scored=scores_victory_points(system, battle.options), complete=True)
    bad = [
        f.name
        for f in battle.figures.all()
        if figure_status(system, f) not in allowed_statuses(system)
    ]
    if bad:
        raise ValidationError({"figures": [f"unknown status for {', '.join(bad)}"]})


def battle_seal(*, battle: Battle, user: User | None) -> Battle:
    """Mark a battle every side agreed FINISHED and queue its post-battle rolls (one task).

    Call inside the transaction that recorded the last agreement, with the battle locked.
    """
    if not sides_all_agreed(battle.pk):
        raise BattleConflict("not every side has agreed the result")
    system = system_of(battle)
    figures = list(battle.figures.select_related("character"))
    for figure in figures:
        figure.final_status = figure_status(system, figure)
    BattleFigure.objects.bulk_update(figures, ["final_status"])
    battle.status, battle.finished_at = BattleStatus.FINISHED, timezone.now()
    battle.save(update_fields=["status", "finished_at"])
    _record_service(battle, figures, user)
    queue_processing(battle.pk)
    return battle


def unagreed_sides(battle_id: Any) -> QuerySet[BattleSide]:  # an id, or an OuterRef
    """Return the battle's sides nobody has agreed the result for yet (a queryset)."""
    return BattleSide.objects.filter(battle_id=battle_id, agreed_at__isnull=True)


def sides_all_agreed(battle_id: int) -> bool:
    return not unagreed_sides(battle_id).exists()


def _record_service(battle: Battle, figures: Sequence[BattleFigure], user: User | None) -> None:
    """Write "Fought in" on each named figure's record, now that the battle was fought.

    Set-up and a report write nothing, so a battle abandoned (or reopened) before every side
    agreed it leaves no trace. A recovering character allowed to fight (healed by the battle's
    date) is fit again.
    """
    for figure in figures:
        character = figure.character
        if character is None:
            continue
        if character.status == CharacterStatus.RECOVERING:
            rosters.character_update(
                character=character,
                user=user,
                cause=EntryCause.BATTLE,
                battle_id=battle.pk,
                note="recovered from his wounds",
                status=CharacterStatus.ACTIVE,
            )
        rosters.character_fought(
            character=character, battle_id=battle.pk, note=f"Fought in {battle}", user=user
        )


# --- processing -----------------------------------------------------------------------------


def battle_claim(*, battle_id: int) -> str | None:
    """Claim a FINISHED battle every side agreed; return the claim token, or None if someone
    else has it (or a side never agreed: consent is part of the claim, not only of the status).
    """
    token = uuid.uuid4().hex
    waiting = Exists(unagreed_sides(OuterRef("pk")))
    claimable = Battle.objects.filter(~waiting, pk=battle_id, status=BattleStatus.FINISHED)
    claimed = claimable.update(
        status=BattleStatus.PROCESSING, claimed_at=timezone.now(), claim_token=token
    )
    return token if claimed else None


def _pause_after_claim() -> None:
    # Test-only: lets the integration tests SIGKILL a worker between claim and commit.
    pause = float(getattr(settings, "BATTLES_PAUSE_AFTER_CLAIM", 0) or 0)
    if pause:
        time.sleep(pause)


def battle_process(*, battle_id: int) -> bool:
    """Run a finished battle's post-battle rolls; return False if it was not ours to run."""
    started = time.perf_counter()
    token = battle_claim(battle_id=battle_id)
    if token is None:
        logger.info("battle.skipped", extra={"battle": battle_id, "reason": "not claimable"})
        return False
    _pause_after_claim()
    done = _process_claimed(battle_id, token)
    _log_processed(battle_id, done, time.perf_counter() - started)
    if done:
        # The notices tell the club, with the battle's report (battles.signals).
        battle_processed.send(sender=Battle, battle_id=battle_id)
    return done


def _log_processed(battle_id: int, done: bool, seconds: float) -> None:
    """Log one structured line per battle: who was rolled for, how many rolls, how long."""
    if not done:
        logger.info("battle.skipped", extra={"battle": battle_id, "reason": "claim taken over"})
        return
    figures = BattleFigure.objects.filter(battle_id=battle_id, character__isnull=False)
    characters = sorted(figures.values_list("character_id", flat=True))
    rolls = PostBattleRoll.objects.filter(battle_id=battle_id)
    logger.info(
        "battle.processed",
        extra={
            "battle": battle_id,
            "characters": characters,
            "rolls": rolls.count(),
            "duration_ms": round(seconds * 1000, 1),
        },
    )


@transaction.atomic
def _process_claimed(battle_id: int, token: str) -> bool:
    battle = locked(battle_id)
    if battle.status != BattleStatus.PROCESSING or battle.claim_token != token:
        return False  # the sweep gave our claim to another worker, which has it now
    if not sides_all_agreed(battle.pk):
        return False  # consent withdrawn after the claim (reopened): the sweep hands it back
    system = system_of(battle)
    results = {side.pk: side.result for side in battle.sides.all()}
    figures = list(battle.figures.filter(character__isnull=False).select_related("character"))
    existing = {(r.character_id, r.procedure, r.index): r for r in battle.ledger.all()}
    characters = _locked_characters(figures)
    ids = [f.character_pk for f in figures]
    careers, fought = careers_before(battle, ids), battles_fought_before(battle, ids)
    new: list[PostBattleRoll] = []
    for figure in figures:
        figure.record = record_json(
            system,
            battle,
            figure,
            side_result=results[figure.side_id],
            career=careers[figure.character_pk],
            battles_before=fought[figure.character_pk],
        )
        rows = _ledger_rows(battle, figure, system, existing)
        new += [row for row in rows if row.pk is None]
        _apply(battle, figure, characters[figure.character_pk], rows)
    PostBattleRoll.objects.bulk_create(new)  # one INSERT for the whole battle's ledger
    BattleFigure.objects.bulk_update(figures, ["record"])
    battle.status, battle.processed_at = BattleStatus.PROCESSED, timezone.now()
    battle.save(update_fields=["status", "processed_at"])
    return True


def _locked_characters(figures: Sequence[BattleFigure]) -> dict[int, Character]:
    ids = [f.character_id for f in figures]
    rows = (
        Character.objects.select_for_update(of=("self",))
        .select_related("force", "unit")
        .filter(pk__in=ids)
    )
    return {c.pk: c for c in rows}


def derive_rolls(system: RuleSystem, battle: Battle, figure: BattleFigure) -> tuple[Roll, ...]:
    """Run the system's procedure on the figure's stored record with the battle's seed."""
    record = record_from_json(figure.record or {})
    return system.post_battle(
        record, battle.options, dice_for(battle.seed, figure.dice_key, battle.dice_scheme)
    )


def _ledger_rows(
    battle: Battle,
    figure: BattleFigure,
    system: RuleSystem,
    existing: dict[LedgerKey, PostBattleRoll],
) -> list[PostBattleRoll]:
    """Return the figure's ledger rows: those a previous attempt left, else new (unsaved) ones."""
    rows = []
    for roll in derive_rolls(system, battle, figure):
        row = existing.get((figure.character_pk, roll.procedure, roll.index))
        if row is None:
            row = PostBattleRoll(
                battle=battle,
                character_id=figure.character_pk,
                procedure=roll.procedure,
                index=roll.index,
                subject=roll.subject[:120],
                outcome=roll.outcome,
                dice=[d.as_json() for d in roll.dice],
                result=roll.as_json(),
                house_rule=roll.house_rule,
            )
        rows.append(row)
    return rows


# --- applying the changes ------------------------------------------------------------------


def _fold(character: Character, changes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Turn the rolls' changes into character fields (career values stay in the ledger)."""
    fields: dict[str, Any] = {}
    stats = dict(character.stats)
    wounds = list(character.permanent_wounds)
    for change in changes:
        kind = change["kind"]
        if kind == "stat":
            stats[change["field"]] = change["after"]
        elif kind == "permanent_wound":
            wounds.append(str(change["after"]))
        elif kind == "status":
            fields["status"] = change["after"]
        elif kind == "recovers_on" and fields.get("status") != CharacterStatus.DEAD:
            fields.setdefault("status", CharacterStatus.RECOVERING)
    if wounds != list(character.permanent_wounds):
        fields["permanent_wounds"] = wounds
    if stats != character.stats:
        fields["stats"] = stats
    return fields


def _battle_fate(figure: BattleFigure) -> str | None:
    status = figure.final_status
    if status == "dead":
        return CharacterStatus.DEAD
    return CharacterStatus.CAPTURED if status == "captured" else None


def _apply(
    battle: Battle, figure: BattleFigure, character: Character, rows: Sequence[PostBattleRoll]
) -> None:
    fate = _battle_fate(figure)
    if fate:
        rosters.character_update(
            character=character,
            cause=EntryCause.BATTLE,
            battle_id=battle.pk,
            note=f"{fate.lower()} in {battle}",
            status=fate,
        )
    changes = [c for row in rows for c in row.result.get("changes", ())]
    fields = _fold(character, changes)
    if fields:
        note = " ".join(_roll_words(battle.system, row, character.name) for row in rows)
        rosters.character_update(
            character=character, cause=EntryCause.ROLL, battle_id=battle.pk, note=note, **fields
        )


def _roll_words(system_key: str, row: PostBattleRoll, name: str) -> str:
    """Return a ledger row as the sentence the service record keeps."""
    roll = {**row.result, "procedure": row.procedure, "subject": row.subject}
    return narrate.roll_sentence(system_key, {**roll, "house_rule": row.house_rule}, name)


# --- the sweep and requeue ----------------------------------------------------------------


def _release(battle_id: int, cutoff: datetime) -> bool:
    return bool(
        Battle.objects.filter(
            pk=battle_id, status=BattleStatus.PROCESSING, claimed_at__lt=cutoff
        ).update(status=BattleStatus.FINISHED, claim_token="")
    )


def battles_sweep(
    *, stale_after: timedelta | None = None, grace: timedelta | None = None
) -> list[int]:
    """Re-queue FINISHED battles never picked up and PROCESSING ones whose claim went stale."""
    now = timezone.now()
    stale_after = (
        stale_after
        if stale_after is not None
        else timedelta(minutes=getattr(settings, "BATTLES_STALE_MINUTES", DEFAULT_STALE_MINUTES))
    )
    grace = grace if grace is not None else timedelta(seconds=DEFAULT_FINISHED_GRACE_SECONDS)
    stale = Battle.objects.filter(
        status=BattleStatus.PROCESSING, claimed_at__lt=now - stale_after
    ).values_list("pk", flat=True)
    released = [pk for pk in stale if _release(pk, now - stale_after)]
    waiting = Battle.objects.filter(
        ~Exists(unagreed_sides(OuterRef("pk"))),
        status=BattleStatus.FINISHED,
        finished_at__lt=now - grace,
    )
    queued = sorted(set(waiting.values_list("pk", flat=True)) | set(released))
    for pk in queued:
        queue_processing(pk)
    return queued


@transaction.atomic
def battle_requeue(*, battle: Battle) -> Battle:
    """Queue processing again by hand; a PROCESSING claim is taken back first (admin action)."""
    battle = locked(battle.pk)
    require_status(battle, (BattleStatus.FINISHED, BattleStatus.PROCESSING), "queue processing")
    if battle.status == BattleStatus.PROCESSING:
        battle.status, battle.claim_token = BattleStatus.FINISHED, ""
        battle.save(update_fields=["status", "claim_token"])
    queue_processing(battle.pk)
    return battle
