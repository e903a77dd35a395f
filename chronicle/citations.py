"""What each kind of citation names, so every sentence can be traced to its row."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Model

from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, PostBattleRoll
from chronicle.text import Cite
from league.models import Pairing
from rosters.models import ServiceRecordEntry

MODELS: dict[str, type[Model]] = {
    "battle": Battle,
    "battle_side": BattleSide,
    "battle_figure": BattleFigure,
    "battle_event": BattleEvent,
    "post_battle_roll": PostBattleRoll,
    "service_entry": ServiceRecordEntry,
    "pairing": Pairing,
}


def missing(cites: Iterable[Cite]) -> list[Cite]:
    """Return the citations that name no row (one query per kind)."""
    wanted: dict[str, set[int]] = {}
    for kind, pk in cites:
        wanted.setdefault(kind, set()).add(pk)
    gone = []
    for kind, ids in sorted(wanted.items()):
        model = MODELS.get(kind)
        found = (
            set(model._default_manager.filter(pk__in=ids).values_list("pk", flat=True))
            if model
            else set()
        )
        gone += [(kind, pk) for pk in sorted(ids - found)]
    return gone
