"""What a battle page says about agreeing its result: who must still agree, by when, and which
buttons (confirm, dispute, settle, reopen) the person looking at it gets."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from battles.models import Battle, BattleSide, BattleStatus
from battles.selectors import battle_is_playable_by
from battles.services import battle_answer_by, battle_waiting_for
from campaigns.selectors import campaigns_managed_by
from common.users import Visitor

WAITING = (BattleStatus.REPORTED, BattleStatus.DISPUTED)


def consent_context(battle: Battle, user: Visitor) -> dict[str, object]:
    """What the after page shows about agreeing the result, and which buttons the user gets."""
    if battle.status not in WAITING:
        return {"consent": None}
    sides = list(battle.sides.select_related("force__owner", "agreed_by").order_by("index"))
    waiting = [s for s in sides if s.agreed_at is None]
    mine = [s for s in waiting if s.force.owner_id == user.pk]
    answer_by = battle_answer_by(battle)
    reported = battle.status == BattleStatus.REPORTED
    time_over = answer_by is not None and timezone.localdate() > answer_by
    organiser = _organises(waiting, user)
    return {
        "consent": {
            "sides": sides,
            "waiting_for": battle_waiting_for(battle),
            "answer_by": answer_by,
            "disputed": battle.status == BattleStatus.DISPUTED,
            "can_answer": reported and bool(mine),
            "can_settle": organiser and (not reported or time_over),
            "organiser": organiser,
            "can_reopen": battle_is_playable_by(battle, user),
        }
    }


def _organises(sides: list[BattleSide], user: Visitor) -> bool:
    """Say whether the user organises the campaign of every side still waiting."""
    if not sides or not user.is_authenticated:
        return False
    ids = {s.force.campaign_id for s in sides}
    if None in ids:
        return False
    managed = campaigns_managed_by(user).filter(Q(pk__in=ids))
    return managed.count() == len(ids)
