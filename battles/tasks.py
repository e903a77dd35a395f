"""Celery tasks: keyword ids in, one service call each (octoenergy conventions)."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_process_init, worker_ready

from battles.services import pipeline
from rules.system import all_systems


@worker_ready.connect
@worker_process_init.connect
def load_rule_systems(**kwargs: object) -> None:
    """Import every rule system when a worker starts, not during the first battle's task."""
    all_systems()


@shared_task(name="battles.process_battle", acks_late=True)
def process_battle(*, battle_id: int, **kwargs: object) -> bool:
    """Run one finished battle's post-battle rolls (a no-op if someone else has it)."""
    # acks_late: a worker killed mid-task leaves the message to be redelivered; the claim makes
    # the redelivery harmless, and the sweep covers brokers that redeliver late.
    return pipeline.battle_process(battle_id=battle_id)


@shared_task(name="battles.sweep_battles")
def sweep_battles(**kwargs: object) -> list[int]:
    """Re-queue battles waiting too long in FINISHED or stuck in PROCESSING."""
    return pipeline.battles_sweep()
