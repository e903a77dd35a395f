"""Quick adjustments at the table: a wound, hit or marker added or taken off by hand.

A player taps a figure's chip: the change goes into the event log like any check (who did it,
why, the state before), so it can be voided, is listed by the audit, and the figure's battle
state it changed feeds the next check's parameters. No dice are rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeGuard, get_args

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.models import Battle, BattleEvent, BattleFigure, EventKind
from battles.services.common import PLAYABLE, require_status, system_of
from battles.services.table import (
    _begin,
    _snapshot,
    _user,
    figure_in,
    log_event,
    made_by,
    mark_breakpoints,
    require_own,
    save_figures,
    seat,
)
from common.users import User
from rules.checks import Effect
from rules.system import RuleSystem
from rules.words import COMMON_STATES

Change = Literal["add", "remove"]
#: The event's check name: not a check of any system, so the audit never re-derives it.
ADJUST = "adjust"
REASON_MAX = 200


@dataclass(frozen=True)
class Marker:
    """One state key a player may adjust by hand: a count (wounds, Hits) or a flag (pinned)."""

    key: str
    label: str
    count: bool


def markers(system: RuleSystem, stats: dict[str, Any]) -> tuple[Marker, ...]:
    """The figure's adjustable keys: every count and flag of its starting state the system
    shows on a chip (its status and bookkeeping keys are not a player's to set by hand)."""
    words = {**COMMON_STATES, **system.words.states}
    found = []
    for key, value in system.initial_state(stats).items():
        word = words.get(key)
        if key == "status" or word is None or word.hidden:
            continue
        if isinstance(value, int):  # counts, and flags (a bool is an int)
            # Escarmouche's "wounds left": a player adds or takes off a wound.
            label = "wound" if key == system.harm and system.harm_counts_down else word.label
            found.append(Marker(key, label, not isinstance(value, bool)))
    return tuple(found)


def _effect(
    system: RuleSystem, figure: BattleFigure, marker: Marker, change: Change, reason: str
) -> Effect:
    state, note = figure.state, reason or "adjusted by hand"
    if not marker.count:
        on = change == "add"
        if bool(state.get(marker.key)) == on:
            raise ValidationError({"change": [f"{figure.name} is already {_flag(marker, on)}"]})
        return Effect("actor", marker.key, "set", on, note)
    # Escarmouche counts wounds left: a wound added takes one off.
    down = marker.key == system.harm and system.harm_counts_down
    step = (-1 if down else 1) * (1 if change == "add" else -1)
    start = int(system.initial_state(figure.stats).get(marker.key) or 0)
    after = int(state.get(marker.key) or 0) + step
    if after < 0 or (down and after > start):
        raise ValidationError({"change": [f"{figure.name} has no {marker.label} to take off"]})
    return Effect("actor", marker.key, "add", step, note)


def _is_change(word: str) -> TypeGuard[Change]:
    return word in get_args(Change)


def _flag(marker: Marker, on: bool) -> str:
    return marker.label if on else f"not {marker.label}"


@transaction.atomic
def battle_adjust(
    *,
    battle: Battle,
    figure: object,
    state_key: str,
    change: str,
    reason: str = "",
    user: User | None = None,
    key: str = "",
) -> BattleEvent:
    """Add or take off one wound, Hit or marker on a figure by hand, logged as an event.

    A request sent again with the same idempotency `key` returns the first one's event.
    """
    seated = seat(battle.pk, repeat=made_by(key))
    if seated.repeat is not None:
        return seated.repeat
    battle, seq = seated.battle, seated.seq
    require_status(battle, PLAYABLE, "adjust a figure")
    system = system_of(battle)
    target = figure_in(battle, figure, "figure")
    require_own(battle, user, target)
    by_key = {m.key: m for m in markers(system, target.stats)}
    if state_key not in by_key:
        known = ", ".join(sorted(by_key)) or "none"
        raise ValidationError({"state_key": [f"{state_key!r} cannot be adjusted; try {known}"]})
    if not _is_change(change):
        raise ValidationError({"change": ["say add or remove"]})
    reason = reason.strip()[:REASON_MAX]
    effect = _effect(system, target, by_key[state_key], change, reason)
    before = _snapshot([target])
    effect.apply(target.state)
    system.settle_state(target.state)
    save_figures([target], before)
    event = BattleEvent(
        battle=battle,
        seq=seq,
        kind=EventKind.ADJUSTMENT,
        actor=target,
        check_name=ADJUST,
        params={"key": state_key, "change": change},
        outcome=change,
        details={"reason": reason, "label": by_key[state_key].label},
        effects=[effect.as_json()],
        state_before={"figures": before},
        turn=battle.activation_state.get("turn"),
        created_by=_user(user),
        request_key=key,
    )
    log_event(battle, event, also=_begin(battle))
    mark_breakpoints(battle, seq)
    return event
