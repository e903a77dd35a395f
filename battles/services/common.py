"""Helpers shared by the battle services: locking, state guards and rules errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import ValidationError

from battles.errors import BattleConflict
from battles.models import Battle, BattleStatus
from battles.selectors import rules_for_battle
from rules.errors import RulesError, UnknownSystem
from rules.errors import ValidationError as RulesValidationError
from rules.system import RuleSystem

PLAYABLE = (BattleStatus.SETUP, BattleStatus.IN_PROGRESS)


def system_of(battle: Battle) -> RuleSystem:
    """Return the battle's rule system, under the house rules it was set up under."""
    return rules_for_battle(battle)


def locked(battle_id: int) -> Battle:
    """Return the battle row locked for update (call inside a transaction)."""
    return Battle.objects.select_for_update().get(pk=battle_id)


def require_status(battle: Battle, allowed: tuple[str, ...], doing: str) -> None:
    """Refuse with a 409 when the battle is not in one of `allowed`."""
    if battle.status not in allowed:
        raise BattleConflict(
            f"cannot {doing}: the battle is {battle.get_status_display().lower()} ({battle.status})"
        )


@contextmanager
def as_validation(field: str) -> Iterator[None]:
    """Turn a rules-engine error into a Django ValidationError on `field` (a 400)."""
    try:
        yield
    except RulesValidationError as exc:
        raise ValidationError({field: [f"{k}: {m}" for k, m in exc.errors.items()]}) from None
    except (UnknownSystem, RulesError) as exc:
        raise ValidationError({field: [str(exc)]}) from None
