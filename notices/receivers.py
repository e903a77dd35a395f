"""The notices listen to the league and the battles: what they announce, the club hears."""

from __future__ import annotations

from typing import Any

from league.models import Pairing, Round
from notices import services


def announce_result(
    sender: Any, *, pairing: Pairing, confirmed: bool, by: Any, **kwargs: Any
) -> None:
    """A result was reported or confirmed (league.signals.result_written)."""
    services.result_written(pairing=pairing, confirmed=confirmed, by=by)


def announce_round(sender: Any, *, round_: Round, **kwargs: Any) -> None:
    """A round was paired (league.signals.round_paired)."""
    services.round_paired(round_=round_)


def announce_battle(sender: Any, *, battle_id: int, **kwargs: Any) -> None:
    """A battle's aftermath is rolled (battles.signals.battle_processed)."""
    services.battle_processed(battle_id=battle_id)


def announce_battle_reported(sender: Any, *, battle_id: int, by: Any, **kwargs: Any) -> None:
    """A battle's result waits for the other side (battles.signals.battle_reported)."""
    services.battle_reported(battle_id=battle_id, by=by)


def announce_battle_disputed(sender: Any, *, battle_id: int, by: Any, **kwargs: Any) -> None:
    """A battle's result is disputed (battles.signals.battle_disputed)."""
    services.battle_disputed(battle_id=battle_id, by=by)
