"""Writes to battles, one module per stage: setup, the table assistant, result entry,
auto-resolve, consent (report, confirm, dispute, settle, reopen) and the post-battle pipeline
(seal, process, sweep). The audit is a read that
re-derives rolls, kept beside the pipeline it checks."""

from battles.services.abandon import battle_delete
from battles.services.adjust import battle_adjust
from battles.services.audit import battle_audit
from battles.services.consent import (
    battle_answer_by,
    battle_confirm,
    battle_dispute,
    battle_finish,
    battle_reopen,
    battle_settle,
    battle_waiting_for,
)
from battles.services.pipeline import (
    battle_claim,
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
    "battle_answer_by",
    "battle_audit",
    "battle_auto_resolve",
    "battle_claim",
    "battle_confirm",
    "battle_delete",
    "battle_dispute",
    "battle_finish",
    "battle_process",
    "battle_record_result",
    "battle_reopen",
    "battle_requeue",
    "battle_resolve",
    "battle_settle",
    "battle_start",
    "battle_void_last",
    "battle_waiting_for",
    "battles_sweep",
    "simulate_batch",
]
