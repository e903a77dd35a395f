"""The table assistant: resolve checks, void the last event, draw activations.

Every write locks the battle row, so two players tapping at once get consecutive event numbers.
Server dice for event N come from SeededDice(battle.seed, "event/N", battle.dice_scheme):
anyone can re-derive them once the seed is revealed.

An action reads the battle once (`seat`): the row locked, then its sides and figures, and
the log's last event number with them. Everything after (the actor, the target, the owner
rules, the breakpoints, the caller's answer) reads those objects, updated in place as the
action writes, so an action costs few queries (bench/live_costs.py).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Prefetch, Q, Subquery, prefetch_related_objects
from django.utils import timezone

from battles.chain import GENESIS, event_hash
from battles.errors import BattleConflict
from battles.live import ring_on_commit
from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, BattleStatus, EventKind
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


@dataclass(frozen=True)
class Seat:
    """A battle locked for one action, read once: what the action and its answer read.

    `battle` holds its sides (each with its force and player) and, unless the action needs
    none, its figures (each with its side): `battle.sides.all()` and `battle.figures.all()`
    read them without a query, and the action changes them in place.
    """

    battle: Battle
    #: The number the action's event takes: one after the log's last.
    seq: int
    #: The event an earlier request with the action's idempotency key made (or voided).
    repeat: BattleEvent | None


def seat(battle_id: int, *, repeat: Q | None = None, figures: bool = True) -> Seat:
    """Lock the battle, then read its sides, figures and log top (2-3 queries).

    The reads run after the lock is held, each a statement of its own, so they see what the
    last writer committed (PostgreSQL's READ COMMITTED takes a snapshot per statement; the
    locking read's own snapshot is older than its wait). That is also why the log's top and
    an earlier request's event ride on the sides' read, not on the lock's: no other writer
    can add an event until this transaction ends, so the number stays free and the key
    unused until then. `repeat` names that earlier event (by its request or void key).
    """
    battle = locked(battle_id)
    events = BattleEvent.objects.filter(battle_id=battle_id)
    sides = BattleSide.objects.select_related("force__owner").order_by("index")
    sides = sides.annotate(log_top=Subquery(events.order_by("-seq").values("seq")[:1]))
    if repeat is not None:
        sides = sides.annotate(repeat_pk=Subquery(events.filter(repeat).values("pk")[:1]))
    lookups: list[Prefetch[Any, Any, Any]] = [Prefetch("sides", sides)]
    if figures:
        lookups.append(Prefetch("figures", BattleFigure.objects.order_by("side_id", "pk")))
    prefetch_related_objects([battle], *lookups)
    sides_read = list(battle.sides.all())
    if figures:
        _seat_figures(sides_read, battle.figures.all())
    if not sides_read:  # never so (a battle has two sides or more), but the log still counts
        return Seat(battle, next_seq(battle), _repeat(battle, repeat))
    top, repeat_pk = (_noted(sides_read[0], name) for name in ("log_top", "repeat_pk"))
    done = _event_of(battle, repeat_pk) if repeat_pk is not None else None
    return Seat(battle, (top or 0) + 1, done)


def _noted(side: BattleSide, name: str) -> int | None:
    """A value the seat's read noted on the side (the ORM keeps an annotation so)."""
    value = getattr(side, name, None)
    return int(value) if value is not None else None


def _seat_figures(sides: Iterable[BattleSide], figures: Iterable[BattleFigure]) -> None:
    """Give each figure its side as read, with its force and player (the own-figure rule)."""
    by_pk = {side.pk: side for side in sides}
    for figure in figures:
        if figure.side_id in by_pk:
            figure.side = by_pk[figure.side_id]


def _event_of(battle: Battle, pk: int) -> BattleEvent:
    event = BattleEvent.objects.get(pk=pk)
    event.battle = battle
    return event


def _repeat(battle: Battle, repeat: Q | None) -> BattleEvent | None:
    return battle.events.filter(repeat).first() if repeat is not None else None


def made_by(key: str) -> Q | None:
    """The event a request with idempotency `key` made (None: no key, nothing to look for)."""
    return Q(request_key=key) if key else None


def log_event(battle: Battle, event: BattleEvent, also: Sequence[str] = ()) -> BattleEvent:
    """Append the event to the locked battle's log: link it to the chain, ring the doorbell.

    Call with the battle row locked (`seat`), so two phones' events get consecutive numbers
    and each links to the one really before it. `also`: the battle's fields the action
    changed, saved with the chain's head in one write.
    """
    event.prev_hash = battle.log_head or GENESIS
    event.save(force_insert=True)
    battle.log_head = event_hash(event, event.prev_hash)
    battle.save(update_fields=["log_head", *also])
    ring_on_commit(battle.pk, event.seq, event)
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
    the request gave it (a number, or text). Read from the seated battle's figures, each with
    its player: the own-figure rule (`require_own`) names them without a read more."""
    text = str(figure_id)
    pk = int(text) if text.isdigit() else None
    figure = next((f for f in battle.figures.all() if f.pk == pk), None)
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


def save_figures(
    figures: Sequence[BattleFigure], before: Mapping[str, Any], chose: BattleFigure | None = None
) -> None:
    """Write what the action changed of the figures (`before`: their `_snapshot`), in one
    UPDATE: only the figures and fields that changed, and the figure whose table choices
    changed (`chose`). A figure left as it was is not written (a Django bulk update builds
    a CASE per field and figure: most of a check's CPU in the database layer)."""
    changes = {
        f.pk: [name for name in FIGURE_FIELDS if getattr(f, name) != before[str(f.pk)][name]]
        for f in figures
    }
    if chose is not None:
        changes[chose.pk].append("table_choices")
    changed = [f for f in figures if changes[f.pk]]
    fields = sorted({name for f in changed for name in changes[f.pk]})
    if len(changed) == 1:
        changed[0].save(update_fields=fields)
    elif changed:
        BattleFigure.objects.bulk_update(changed, fields)


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
    """Note the event after which each side crossed its breakpoint (cleared if voided back).

    Reads the figures and sides the battle holds (a seated battle's, as the action left them).
    """
    figures = list(battle.figures.all())
    for side in battle.sides.all():
        broken = side_is_broken(
            battle.system, [f for f in figures if f.side_id == side.pk], battle.options
        )
        mark = (side.broke_at_seq or seq) if broken else None
        if mark != side.broke_at_seq:
            side.broke_at_seq = mark
            side.save(update_fields=["broke_at_seq"])


def _begin(battle: Battle) -> list[str]:
    """Mark a battle still being set up as begun; return the fields to save (with the log's
    head, `log_event`)."""
    if battle.status != BattleStatus.SETUP:
        return []
    battle.status = BattleStatus.IN_PROGRESS
    return ["status"]


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
    seated = seat(battle.pk, repeat=made_by(key))
    if seated.repeat is not None:
        return seated.repeat
    battle, seq = seated.battle, seated.seq
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
    source: Dice = GivenDice(dice) if dice is not None else event_dice(battle, seq)
    resolution = _resolve(checker, params or {}, source)
    touched = [f for f in (acting, targeted) if f is not None]
    before = _snapshot(touched)
    _apply(system, resolution, acting, targeted, checker.skill, friendly=friendly)
    chose = _remember_choices(acting, checker, resolution.params)
    save_figures(touched, before, chose=acting if chose else None)
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
    mark_breakpoints(battle, seq)
    return event


def _remember_choices(figure: BattleFigure, check: Check, params: Mapping[str, Any]) -> bool:
    """Keep the player's calls for the figure's next check of this kind (saved with its
    state, `save_figures`); return whether they changed."""
    kept = {name: params[name] for name in kept_per_figure(check) if name in params}
    if not kept or figure.table_choices.get(check.name) == kept:
        return False
    figure.table_choices = {**figure.table_choices, check.name: kept}
    return True


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
    return log_event(battle, event, also=_begin(battle))


def _user(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _restore(battle: Battle, event: BattleEvent) -> list[str]:
    """Put back what the event changed; return the battle's fields to save (with the log's
    head: the void's own event follows)."""
    saved = event.state_before.get("figures", {})
    figures = [f for f in battle.figures.all() if str(f.pk) in saved]
    before = _snapshot(figures)
    for figure in figures:
        for name in FIGURE_FIELDS:
            setattr(figure, name, saved[str(figure.pk)][name])
    save_figures(figures, before)
    if "activation" not in event.state_before:
        return []
    battle.activation_method = event.state_before["activation"]["method"]
    battle.activation_state = event.state_before["activation"]["state"]
    return ["activation_method", "activation_state"]


@transaction.atomic
def battle_void_last(*, battle: Battle, user: User | None = None, key: str = "") -> BattleEvent:
    """Void the latest standing event: its effects are reversed, the event stays in the log.

    The void is logged as an event of its own, after it, so the phones following the log
    learn of it. A void sent again with the same idempotency `key` voids nothing more.
    """
    seated = seat(battle.pk, repeat=Q(void_key=key) if key else None)
    if seated.repeat is not None:
        return seated.repeat
    battle = seated.battle
    require_status(battle, PLAYABLE, "void an event")
    if battle.auto_resolved:
        raise BattleConflict("an auto-resolved battle's events cannot be voided one by one")
    event = voidable(battle)
    if event is None:
        raise ValidationError({"event": ["there is no event to void"]})
    require_own(battle, user, event.actor)
    require_own_void(battle, event, user)
    changed = _restore(battle, event)
    event.voided, event.voided_at, event.void_key = True, timezone.now(), key
    event.save(update_fields=["voided", "voided_at", "void_key"])
    _void_event(battle, seated.seq, event, user, changed)
    mark_breakpoints(battle, event.seq)
    return event


def voidable(battle: Battle) -> BattleEvent | None:
    """Return the latest event still standing (a void itself is never voided), its actor the
    seated battle's figure (with its player)."""
    standing = battle.events.filter(voided=False).exclude(kind=EventKind.VOID)
    event = standing.select_related("created_by").order_by("-seq").first()
    if event is not None:
        event.battle = battle
        if event.actor_id is not None:
            event.actor = figure_in(battle, event.actor_id, "event")
        if event.target_id is not None:
            event.target = figure_in(battle, event.target_id, "event")
    return event


def _void_event(
    battle: Battle, seq: int, voided: BattleEvent, user: User | None, changed: Sequence[str]
) -> None:
    log_event(
        battle,
        BattleEvent(
            battle=battle,
            seq=seq,
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
        also=changed,
    )


def default_units(battle: Battle) -> list[str]:
    """Name each unit "side:unit" (a figure without a unit is a unit of its own), from the
    seated battle's figures."""
    names: list[str] = []
    figures = sorted(battle.figures.all(), key=lambda f: (f.side.index, f.pk))
    for figure in figures:
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
    changed: Sequence[str] = (),
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
    return log_event(battle, event, also=changed)


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
    seated = seat(battle.pk, repeat=made_by(key), figures=units is None)
    if seated.repeat is not None:
        return seated.repeat
    battle, seq = seated.battle, seated.seq
    require_status(battle, PLAYABLE, "start activation")
    methods = system_of(battle).activation
    if method not in methods:
        known = ", ".join(sorted(methods)) or "none"
        raise ValidationError(
            {"method": [f"{battle.system} has no method {method!r}; it has {known}"]}
        )
    before = _activation_before(battle)
    dice, names = event_dice(battle, seq), list(units or default_units(battle))
    with as_validation("units"):
        battle.activation_state = methods[method].start(names, battle.options, dice)
    battle.activation_method = method
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
        ["activation_method", "activation_state", *_begin(battle)],
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
    seated = seat(battle.pk, repeat=made_by(key), figures=False)
    if seated.repeat is not None:
        return seated.repeat
    battle, seq = seated.battle, seated.seq
    require_status(battle, PLAYABLE, "draw an activation")
    if not battle.activation_method:
        raise ValidationError({"method": ["start an activation method first"]})
    require_own_draw(battle, user)
    method = system_of(battle).activation[battle.activation_method]
    before = _activation_before(battle)
    dice = event_dice(battle, seq)
    with as_validation("activation"):
        drawn = method.draw(battle.activation_state, dice)
    battle.activation_state = drawn.state
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
        ["activation_state"],
    )
