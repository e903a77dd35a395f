"""What the league asks of the apps above it, without importing them.

A league game can be settled by a battle, a no-show fought by the rules engine's abstract
simulation, a stuck battle's post-battle rolls queued again from the organiser's desk, and round
1 of a Swiss league seeded by club rating. Those answers live in the battles and ratings apps,
which sit above campaigns on the ladder (tests/test_import_graph.py). Each app installs its
part here when it loads (its `AppConfig.ready`); the league calls through this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class LeagueBattles:
    """How the battles app settles league games (installed by battles.apps)."""

    #: (pairing, battle) -> the Claim the battle's result makes for the pairing; a
    #: ValidationError if the battle cannot settle it.
    claim_from_battle: Callable[[Any, Any], Any]
    #: (pairing, user) -> a battle between the two players' forces, fought by the abstract
    #: simulation and finished; a ValidationError if a player has no force to fight with.
    fight: Callable[[Any, Any], Any]
    #: (battle) -> None: queue a stuck battle's post-battle rolls again; LeagueConflict if the
    #: battle is in no state to be queued.
    requeue: Callable[[Any], None]


#: (campaign, standings rows) -> the rows as Swiss entrants, best club rating first.
Seeding = Callable[[Any, Sequence[Any]], Sequence[Any]]

_installed: dict[str, Any] = {}


def install_battles(port: LeagueBattles) -> None:
    _installed["battles"] = port


def install_seeding(seeding: Seeding) -> None:
    _installed["seeding"] = seeding


def battles() -> LeagueBattles:
    """Return what the battles app installed."""
    return _require("battles")


def seeding() -> Seeding:
    """Return the club rating's seeding (installed by ratings.apps)."""
    return _require("seeding")


def _require(name: str) -> Any:
    try:
        return _installed[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"no app installed the league's {name!r} port: is it in INSTALLED_APPS?"
        ) from None
