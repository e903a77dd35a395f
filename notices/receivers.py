"""The notices listen to the league and the battles: what they announce, the club hears."""

from __future__ import annotations

from common.users import User
from league.models import Pairing, Round
from notices import services


def announce_result(
    sender: object, *, pairing: Pairing, confirmed: bool, by: User, **kwargs: object
) -> None:
    """A result was reported or confirmed (league.signals.result_written)."""
    services.result_written(pairing=pairing, confirmed=confirmed, by=by)


def announce_round(sender: object, *, round_: Round, **kwargs: object) -> None:
    """A round was paired (league.signals.round_paired)."""
    services.round_paired(round_=round_)


def announce_battle(sender: object, *, battle_id: int, **kwargs: object) -> None:
    """A battle's aftermath is rolled (battles.signals.battle_processed)."""
    services.battle_processed(battle_id=battle_id)


def announce_battle_reported(sender: object, *, battle_id: int, by: User, **kwargs: object) -> None:
    """A battle's result waits for the other side (battles.signals.battle_reported)."""
    services.battle_reported(battle_id=battle_id, by=by)


def announce_battle_disputed(sender: object, *, battle_id: int, by: User, **kwargs: object) -> None:
    """A battle's result is disputed (battles.signals.battle_disputed)."""
    services.battle_disputed(battle_id=battle_id, by=by)
