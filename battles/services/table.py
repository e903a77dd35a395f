"""The table assistant: resolve checks, void the last event, draw activations.

Every write locks the battle row, so two players tapping at once get consecutive event numbers.
Server dice for event N come from SeededDice(battle.seed, "event/N", battle.dice_scheme):
anyone can re-derive them once the seed is revealed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from battles.chain import GENESIS, event_hash
from battles.errors import BattleConflict
from battles.live import ring_on_commit
from battles.models import Battle, BattleEvent, BattleFigure, BattleStatus, EventKind
from battles.selectors import figure_belongs_to_other
from battles.services.breakpoints import side_is_broken
from battles.services.common import PLAYABLE, as_validation, locked, require_status, system_of
from battles.services.turns import require_own_draw, require_own_void
from common.users import User
from rules.checks import Check, Resolution, kept_per_figure
from rules.dice import Dice, GivenDice, SeededDice
from rules.errors import DiceError
from rules.errors import ValidationError as RulesValidationError
from rules.system import RuleSystem

#: Statuses that count as a kill for the figure that put the target there.
KILLED = frozenset({"dead", "out"})
FIGURE_FIELDS = ["state", "skills_used", "kills"]


def event_dice(battle: Battle, seq: int) -> SeededDice:
    """Return the server's dice for event `seq` of the battle."""
    return SeededDice(battle.seed, f"event/{seq}", battle.dice_scheme)


def next_seq(battle: Battle) -> int:
    return (battle.events.aggregate(top=Max("seq"))["top"] or 0) + 1


def log_event(battle: Battle, event: BattleEvent) -> BattleEvent:
    """Append the event to the locked battle's log: link it to the chain, ring the doorbell.

    Call with the battle row locked (`locked`), so two phones' events get consecutive numbers
    and each links to the one really before it.
    """
    event.prev_hash = battle.log_head or GENESIS
    event.save(force_insert=True)
    battle.log_head = event_hash(event, event.prev_hash)
    battle.save(update_fields=["log_head"])
    ring_on_commit(battle.pk, event.seq)
    return event


def require_own(battle: Battle, user: User | None, figure: BattleFigure | None) -> None:
    """Refuse, naming the figure and its player, an action for the opponent's figure.

    Only where each player has their own phone (not `one_phone`); the campaign's organisers
    may act for anyone, and a service called without a user (admin, tasks) is not refused.
    """
    if battle.one_phone or figure is None or user is None or not user.is_authenticated:
        return
    owner = figure_belongs_to_other(battle, figure, user)
    if owner is not None:
        raise ValidationError({"actor": [f"{figure.name} is {owner}'s figure"]})


def figure_in(battle: Battle, figure_id: object, role: str) -> BattleFigure:
    """Return the battle's figure or refuse naming the role ("actor", "target"); the id is as
    the request gave it (a number, or text)."""
    # With its player: the own-figure rule (`require_own`) names them without three reads more.
    figures = battle.figures.select_related("side__force__owner")
    text = str(figure_id)
    figure = figures.filter(pk=int(text)).first() if text.isdigit() else None
    if figure is None:
        raise ValidationError({role: [f"figure {figure_id!r} is not in this battle"]})
    return figure


def _resolve(check: Check, params: Mapping[str, Any], dice: Dice) -> Resolution:
    try:
        resolution = check.resolve(params, dice)
        if isinstance(dice, GivenDice):
            dice.ensure_all_used()
    except RulesValidationError as exc:
        raise ValidationError({"params": [f"{k}: {m}" for k, m in exc.errors.items()]}) from None
    except DiceError as exc:
        raise ValidationError({"dice": [str(exc)]}) from None
    return resolution


def _snapshot(figures: Sequence[BattleFigure]) -> dict[str, Any]:
    return {
        str(f.pk): {name: copy.deepcopy(getattr(f, name)) for name in FIGURE_FIELDS}
        for f in figures
    }


def repeated(battle: Battle, key: str) -> BattleEvent | None:
    """Return the event an earlier request with this idempotency key made, if any."""
    return battle.events.filter(request_key=key).first() if key else None


def check_sides(check: Check, actor: BattleFigure, target: BattleFigure | None) -> bool:
    """Refuse a target on the wrong side for the check; return True for friendly fire.

    A check aimed at foes takes a target on the actor's own side only where the rules allow
    friendly fire (firing into a melee, an area effect), and is then marked as such; a check
    aimed at friends (a leader's direct order) takes only the actor's own side.
    """
    if target is None or check.aims_at == "any":
        return False
    own_side = target.side_id == actor.side_id
    what = check.title.split(":")[0].lower()
    if check.aims_at == "friend" and not own_side:
        raise ValidationError(
            {"target": [f"{target.name} is not on {actor.name}'s side; {what} is for his own men"]}
        )
    if check.aims_at == "foe" and own_side and not check.friendly_fire:
        raise ValidationError(
            {"target": [f"{target.name} is on {actor.name}'s own side; {what} cannot hit a friend"]}
        )
    return own_side and check.aims_at == "foe"


def _apply(
    system: RuleSystem,
    resolution: Resolution,
    actor: BattleFigure,
    target: BattleFigure | None,
    skill: str | None,
    *,
    friendly: bool = False,
) -> None:
    if target is None and any(e.who == "target" for e in resolution.effects):
        raise ValidationError({"target": [f"{resolution.check} affects a target: name one"]})
    figures = [f for f in (actor, target) if f is not None]
    was_down = {f.pk: f.state.get("status") in KILLED for f in figures}
    for effect in resolution.effects:
        effect.apply((actor if effect.who == "actor" else target).state)  # type: ignore[union-attr]  # a target effect without a target is refused above
    for figure in figures:
        system.settle_state(figure.state)
    if skill and skill not in actor.skills_used:
        actor.skills_used = [*actor.skills_used, skill]
    if target is not None and not friendly:
        credit_kill(actor, target, was_down[target.pk])
        credit_kill(target, actor, was_down[actor.pk])


def credit_kill(killer: BattleFigure, fallen: BattleFigure, was_down: bool) -> None:
    """Credit `killer` when `fallen` went down in this check, whichever side of the check each
    was on: a man killed while attacking in hand to hand is the defender's kill. Friendly fire,
    or any man of one's own side brought down, never counts as a kill."""
    if fallen.side_id != killer.side_id and not was_down and fallen.state.get("status") in KILLED:
        killer.kills += 1


def mark_breakpoints(battle: Battle, seq: int) -> None:
    """Note the event after which each side crossed its breakpoint (cleared if voided back)."""
    figures = list(battle.figures.all())
    for side in battle.sides.all():
        broken = side_is_broken(
            battle.system, [f for f in figures if f.side_id == side.pk], battle.options
        )
        mark = (side.broke_at_seq or seq) if broken else None
        if mark != side.broke_at_seq:
            side.broke_at_seq = mark
            side.save(update_fields=["broke_at_seq"])


def _begin(battle: Battle) -> None:
    if battle.status == BattleStatus.SETUP:
        battle.status = BattleStatus.IN_PROGRESS
        battle.save(update_fields=["status"])


@transaction.atomic
def battle_resolve(
    *,
    battle: Battle,
    check: str,
    actor: object,
    target: object = None,
    params: Mapping[str, Any] | None = None,
    dice: Sequence[int] | None = None,
    user: User | None = None,
    key: str = "",
) -> BattleEvent:
    """Resolve a check for `actor` (against `target`), rolling or with the dice given.

    A request sent again with the same idempotency `key` returns the first one's event.
    """
    battle = locked(battle.pk)
    if (done := repeated(battle, key)) is not None:
        return done
    require_status(battle, PLAYABLE, "resolve a check")
    system = system_of(battle)
    with as_validation("check"):
        checker = system.check(check)
    acting = figure_in(battle, actor, "actor")
    # A check that concerns the actor alone takes no target, whatever the form still held.
    require_own(battle, user, acting)
    aimed = checker.takes_target and target not in (None, "")
    targeted = figure_in(battle, target, "target") if aimed else None
    friendly = check_sides(checker, acting, targeted)
    seq = next_seq(battle)
    source: Dice = GivenDice(dice) if dice is not None else event_dice(battle, seq)
    resolution = _resolve(checker, params or {}, source)
    touched = [f for f in (acting, targeted) if f is not None]
    before = _snapshot(touched)
    _apply(system, resolution, acting, targeted, checker.skill, friendly=friendly)
    BattleFigure.objects.bulk_update(touched, FIGURE_FIELDS)
    _remember_choices(acting, checker, resolution.params)
    event = _check_event(
        battle,
        seq,
        resolution,
        acting,
        targeted,
        before,
        user,
        given=dice is not None,
        key=key,
        friendly=friendly,
    )
    _begin(battle)
    mark_breakpoints(battle, seq)
    return event


def _remember_choices(figure: BattleFigure, check: Check, params: Mapping[str, Any]) -> None:
    """Keep the player's calls for the figure's next check of this kind."""
    kept = {name: params[name] for name in kept_per_figure(check) if name in params}
    if kept and figure.table_choices.get(check.name) != kept:
        figure.table_choices = {**figure.table_choices, check.name: kept}
        figure.save(update_fields=["table_choices"])


def _check_event(
    battle: Battle,
    seq: int,
    resolution: Resolution,
    actor: BattleFigure,
    target: BattleFigure | None,
    before: dict[str, Any],
    user: User | None,
    *,
    given: bool,
    key: str,
    friendly: bool,
) -> BattleEvent:
    details = dict(resolution.details)
    if friendly:
        details["friendly_fire"] = True
    event = BattleEvent(
        battle=battle,
        seq=seq,
        kind=EventKind.CHECK,
        actor=actor,
        target=target,
        check_name=resolution.check,
        params=dict(resolution.params),
        dice=[r.as_json() for r in resolution.dice],
        dice_given=given,
        outcome=resolution.outcome,
        details=details,
        effects=[e.as_json() for e in resolution.effects],
        state_before={"figures": before},
        turn=battle.activation_state.get("turn"),
        created_by=_user(user),
        request_key=key,
    )
    return log_event(battle, event)


def _user(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _restore(battle: Battle, event: BattleEvent) -> None:
    saved = event.state_before.get("figures", {})
    figures = list(battle.figures.filter(pk__in=[int(pk) for pk in saved]))
    for figure in figures:
        for name in FIGURE_FIELDS:
            setattr(figure, name, saved[str(figure.pk)][name])
    BattleFigure.objects.bulk_update(figures, FIGURE_FIELDS)
    if "activation" in event.state_before:
        battle.activation_method = event.state_before["activation"]["method"]
        battle.activation_state = event.state_before["activation"]["state"]
        battle.save(update_fields=["activation_method", "activation_state"])


@transaction.atomic
def battle_void_last(*, battle: Battle, user: User | None = None, key: str = "") -> BattleEvent:
    """Void the latest standing event: its effects are reversed, the event stays in the log.

    The void is logged as an event of its own, after it, so the phones following the log
    learn of it. A void sent again with the same idempotency `key` voids nothing more.
    """
    battle = locked(battle.pk)
    if key and (done := battle.events.filter(void_key=key).first()) is not None:
        return done
    require_status(battle, PLAYABLE, "void an event")
    if battle.auto_resolved:
        raise BattleConflict("an auto-resolved battle's events cannot be voided one by one")
    event = voidable(battle)
    if event is None:
        raise ValidationError({"event": ["there is no event to void"]})
    require_own(battle, user, event.actor)
    require_own_void(battle, event, user)
    _restore(battle, event)
    event.voided, event.voided_at, event.void_key = True, timezone.now(), key
    event.save(update_fields=["voided", "voided_at", "void_key"])
    _void_event(battle, event, user)
    mark_breakpoints(battle, event.seq)
    return event


def voidable(battle: Battle) -> BattleEvent | None:
    """Return the latest event still standing (a void itself is never voided)."""
    standing = battle.events.filter(voided=False).exclude(kind=EventKind.VOID)
    return standing.select_related("actor", "created_by").order_by("-seq").first()


def _void_event(battle: Battle, voided: BattleEvent, user: User | None) -> None:
    log_event(
        battle,
        BattleEvent(
            battle=battle,
            seq=next_seq(battle),
            kind=EventKind.VOID,
            check_name="void",
            outcome="voided",
            details={
                "voids": voided.seq,
                "figures": sorted(voided.state_before.get("figures", {})),
            },
            turn=battle.activation_state.get("turn"),
            created_by=_user(user),
        ),
    )


def default_units(battle: Battle) -> list[str]:
    """Name each unit "side:unit" (a figure without a unit is a unit of its own)."""
    names: list[str] = []
    for figure in battle.figures.select_related("side").order_by("side__index", "pk"):
        name = f"{figure.side.index + 1}:{figure.unit_name or figure.name}"
        if name not in names:
            names.append(name)
    return names


def _activation_event(
    battle: Battle,
    seq: int,
    name: str,
    params: dict[str, Any],
    dice: Dice,
    result: Mapping[str, Any],
    before: dict[str, Any],
    user: User | None,
    key: str = "",
) -> BattleEvent:
    event = BattleEvent(
        battle=battle,
        seq=seq,
        kind=EventKind.ACTIVATION,
        request_key=key,
        check_name=name,
        params=params,
        dice=[r.as_json() for r in dice.rolls],
        outcome=str(result.get("unit", ""))[:40],
        details=dict(result),
        state_before={"figures": {}, "activation": before},
        turn=battle.activation_state.get("turn"),
        created_by=_user(user),
    )
    return log_event(battle, event)


@transaction.atomic
def battle_activation_start(
    *,
    battle: Battle,
    method: str,
    units: Sequence[str] | None = None,
    user: User | None = None,
    key: str = "",
) -> BattleEvent:
    """Start (or restart) the system's activation method, its state kept on the battle."""
    battle = locked(battle.pk)
    if (done := repeated(battle, key)) is not None:
        return done
    require_status(battle, PLAYABLE, "start activation")
    methods = system_of(battle).activation
    if method not in methods:
        known = ", ".join(sorted(methods)) or "none"
        raise ValidationError(
            {"method": [f"{battle.system} has no method {method!r}; it has {known}"]}
        )
    seq, before = next_seq(battle), _activation_before(battle)
    dice, names = event_dice(battle, seq), list(units or default_units(battle))
    with as_validation("units"):
        battle.activation_state = methods[method].start(names, battle.options, dice)
    battle.activation_method = method
    battle.save(update_fields=["activation_method", "activation_state"])
    _begin(battle)
    return _activation_event(
        battle,
        seq,
        "activation.start",
        {"method": method, "units": names},
        dice,
        {"turn": battle.activation_state.get("turn")},
        before,
        user,
        key,
    )


def _activation_before(battle: Battle) -> dict[str, Any]:
    return {"method": battle.activation_method, "state": copy.deepcopy(battle.activation_state)}


@transaction.atomic
def battle_activation_draw(
    *, battle: Battle, user: User | None = None, key: str = ""
) -> BattleEvent:
    """Draw the next activation (card or dice) and keep the new state on the battle.

    On their own phones the player whose unit activated last draws (`turns`).
    """
    battle = locked(battle.pk)
    if (done := repeated(battle, key)) is not None:
        return done
    require_status(battle, PLAYABLE, "draw an activation")
    if not battle.activation_method:
        raise ValidationError({"method": ["start an activation method first"]})
    require_own_draw(battle, user)
    method = system_of(battle).activation[battle.activation_method]
    seq, before = next_seq(battle), _activation_before(battle)
    dice = event_dice(battle, seq)
    with as_validation("activation"):
        drawn = method.draw(battle.activation_state, dice)
    battle.activation_state = drawn.state
    battle.save(update_fields=["activation_state"])
    return _activation_event(
        battle,
        seq,
        "activation.draw",
        {"method": method.name},
        dice,
        drawn.result,
        before,
        user,
        key,
    )
