"""Whose turn it is to draw the next activation, where each player has their own phone.

An activation draw acts for no figure, but it moves the battle on, so on their own phones it
belongs to a side: the player whose unit the last draw activated turns the next card (or
rolls the next activation dice) once their activation is done. After a start, or a draw that
ended the turn or named no side Muster can tell, either player may draw. The rule reads only
what is already in the log, so a refusal tells nothing about the hidden next card, and a
refused draw rolls nothing (its dice are not drawn).

One phone taps for both sides; the campaign's organisers referee and may draw for anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError

from battles.models import Battle, BattleEvent, EventKind
from battles.selectors import sides_played_by
from common.orm import prefetched
from common.users import Visitor

DRAW = "activation.draw"


def _names(details: Mapping[str, Any]) -> Iterable[str]:
    """The unit (or side) names a draw's result activated, whatever the method calls them."""
    for key in ("unit", "side"):
        if isinstance(details.get(key), str):
            yield details[key]
    for key in ("units", "may_act"):
        value = details.get(key)
        if isinstance(value, list):
            yield from (name for name in value if isinstance(name, str))


def drawn_sides(details: Mapping[str, Any]) -> frozenset[int]:
    """Return the side indexes a draw activated: units are named "<side number>:<unit>"."""
    numbers = (name.partition(":")[0] for name in _names(details))
    return frozenset(int(n) - 1 for n in numbers if n.isdigit() and int(n) > 0)


def last_activation(battle: Battle) -> BattleEvent | None:
    """Return the latest activation event still standing (a start or a draw)."""
    standing = battle.events.filter(kind=EventKind.ACTIVATION, voided=False)
    return standing.order_by("-seq").first()


def drawing_sides(battle: Battle, last: BattleEvent | None = None) -> frozenset[int] | None:
    """Return the sides whose player draws next; None when either player may. `last`: the
    latest activation still standing, when the caller holds it (else it is read)."""
    if battle.one_phone:
        return None
    last = last if last is not None else last_activation(battle)
    if last is None or last.check_name != DRAW or last.details.get("turn_ends"):
        return None
    sides = drawn_sides(last.details)
    known = {s.index for s in battle.sides.all()}
    return sides if sides and sides <= known else None


def drawers_named(battle: Battle, drawers: frozenset[int]) -> str:
    """Say whose turn to draw it is, naming the players of the drawing sides."""
    if prefetched(battle, "sides"):  # a seated battle's
        sides = [side for side in battle.sides.all() if side.index in drawers]
    else:
        sides = list(battle.sides.select_related("force__owner").filter(index__in=drawers))
    who = " and ".join(sorted({side.force.owner.get_username() for side in sides}))
    return f"{who}'s unit activated last, so {who} draws the next activation"


def draw_turn(battle: Battle, last: BattleEvent | None = None) -> tuple[frozenset[int] | None, str]:
    """Return the sides that draw next (None: either) and the sentence the others are shown.

    The same for every viewer, so the live stream renders it once per event
    (`pages.live`) and each phone compares it with the sides it plays. `last` as for
    `drawing_sides`.
    """
    drawers = drawing_sides(battle, last)
    return drawers, drawers_named(battle, drawers) if drawers is not None else ""


def draw_refusal(battle: Battle, user: Visitor | None) -> str:
    """Say why the user may not draw the next activation now ("" when they may)."""
    if user is None or not user.is_authenticated:
        return ""  # the admin and tasks are not refused
    drawers = drawing_sides(battle)
    if drawers is None or drawers & own_sides(battle, user):
        return ""  # either may draw, or it is their turn: no need to ask who referees
    played = sides_played_by(battle, user)
    if played is None or drawers & played:
        return ""
    return drawers_named(battle, drawers)


def own_sides(battle: Battle, user: Visitor) -> frozenset[int]:
    """Return the indexes of the sides the user's own forces fight on (read from the sides
    the battle holds): who else they may act for (`sides_played_by`) costs a query more."""
    return frozenset(s.index for s in battle.sides.all() if s.force.owner_id == user.pk)


def require_own_draw(battle: Battle, user: Visitor | None) -> None:
    """Refuse, naming the player whose turn it is, a draw by the other player."""
    if refusal := draw_refusal(battle, user):
        raise ValidationError({"activation": [refusal]})


def void_refusal(battle: Battle, event: BattleEvent, user: Visitor | None) -> str:
    """Say why the user may not void the activation event ("" when they may).

    A start or draw acts for no figure, so it belongs to the player who made it (its
    `created_by`): on their own phones the other player may not void it, or they could
    draw again until the card suited them. The organiser may; so may anyone where its
    maker plays no side (the organiser's own draw) or is no longer known.
    """
    if event.kind != EventKind.ACTIVATION or event.created_by is None:
        return ""
    if user is None or not user.is_authenticated or battle.one_phone:
        return ""
    # Their maker plays no side of their own, or the user plays one with them: allowed
    # without asking who referees.
    made_for = own_sides(battle, event.created_by)
    if not made_for or made_for & own_sides(battle, user):
        return ""
    played = sides_played_by(battle, user)
    drawn_for = sides_played_by(battle, event.created_by)
    if played is None or not drawn_for or drawn_for & played:
        return ""
    who = event.created_by.get_username()
    made = "drew" if event.check_name == DRAW else "started"
    return f"{who} {made} this activation, so only {who} or an organiser may void it"


def require_own_void(battle: Battle, event: BattleEvent, user: Visitor | None) -> None:
    """Refuse, naming its maker, a void of the other player's activation start or draw."""
    if refusal := void_refusal(battle, event, user):
        raise ValidationError({"event": [refusal]})
