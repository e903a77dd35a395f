"""Writes to battles, one module per stage: setup, the table assistant, result entry,
auto-resolve, and the post-battle pipeline (finish, process, sweep). The audit is a read that
re-derives rolls, kept beside the pipeline it checks."""

from battles.services.abandon import battle_delete
from battles.services.adjust import battle_adjust
from battles.services.audit import battle_audit
from battles.services.pipeline import (
    battle_claim,
    battle_finish,
    battle_process,
    battle_requeue,
    battles_sweep,
)
from battles.services.results import battle_record_result
from battles.services.setup import SideChoice, battle_start
from battles.services.simulate import battle_auto_resolve, simulate_batch
from battles.services.table import (
    battle_activation_draw,
    battle_activation_start,
    battle_resolve,
    battle_void_last,
)

__all__ = [
    "SideChoice",
    "battle_activation_draw",
    "battle_activation_start",
    "battle_adjust",
    "battle_audit",
    "battle_auto_resolve",
    "battle_claim",
    "battle_delete",
    "battle_finish",
    "battle_process",
    "battle_record_result",
    "battle_requeue",
    "battle_resolve",
    "battle_start",
    "battle_void_last",
    "battles_sweep",
    "simulate_batch",
]
