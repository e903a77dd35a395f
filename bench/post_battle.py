"""Benchmark the post-battle pipeline and auto-resolve; print the figures as JSON.

1. finish -> PROCESSED (median of 5) for a 100-figure Rencounter battle (50 a side, named
   characters with wounds and skills), processed by a real `celery -A config worker`
   process on Redis and PostgreSQL: one task for the whole battle. Budget: <= 1 s.
2. auto-resolve batch throughput: 1,000 simulated 10-against-10 Rencounter battles.
   Budget: <= 5 s.

Defaults to the machine's services (PostgreSQL database `muster_bench`, Redis db 14); set
DATABASE_URL / REDIS_URL to point elsewhere. Part 1 reports `skipped` if they are missing.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from battles.models import Battle
    from campaigns.models import Campaign
    from rosters.models import Force

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/muster_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

FIGURES_A_SIDE = 50
PIPELINE_RUNS = 5
SIM_RUNS, SIM_SIZE = 1000, 10
BUDGETS = {"finish_to_processed_s": 1.0, "simulate_1000_battles_s": 5.0}
SOLDIER = {
    "experience": 4,
    "fire": 7,
    "melee": 7,
    "armour": 1,
    "weapons": ["flintlock_musket", "sword"],
}


def _ensure_database() -> None:
    import psycopg

    url = os.environ["DATABASE_URL"]
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not found:
            conn.execute(f'CREATE DATABASE "{name}"')


def _setup() -> None:
    if os.environ["DATABASE_URL"].startswith("postgres"):
        _ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _cast(stamp: str) -> tuple[Campaign, list[Force]]:
    from django.contrib.auth import get_user_model

    from campaigns.services import campaign_create, club_create
    from rosters.services import character_create, force_create

    user = get_user_model().objects.create(username=f"bench-{stamp}")
    club = club_create(name=f"Bench {stamp}")
    campaign = campaign_create(club=club, name="Bench", system="rencounter")
    forces = [force_create(owner=user, name=f"Side {i} {stamp}", campaign=campaign) for i in (1, 2)]
    for force in forces:
        for n in range(FIGURES_A_SIDE):
            character_create(force=force, name=f"Man {n}", stats={**SOLDIER, "fire": 5 + n % 6})
    return campaign, forces


def _fought(campaign: Campaign, forces: list[Force]) -> Battle:
    from battles import services

    battle = services.battle_start(
        sides=[services.SideChoice(force=f) for f in forces], campaign=campaign
    )
    figures = [
        {
            "figure": f.pk,
            "wounds": i % 4,
            "status": "wounded" if i % 4 else "unhurt",
            "skills_used": ["fire", "melee", "experience"][: 1 + i % 3],
        }
        for i, f in enumerate(battle.figures.order_by("pk"))
    ]
    sides = [
        {"side": s.pk, "result": r}
        for s, r in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    return services.battle_record_result(battle=battle, figures=figures, sides=sides)


def _worker() -> subprocess.Popen[bytes]:
    log = open(ROOT / "var" / "bench-worker.log", "wb")  # noqa: SIM115 - lives with the worker
    process = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/celery"),
            "-A",
            "config",
            "worker",
            "-P",
            "solo",
            "-l",
            "info",
            "-n",
            f"bench-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while "ready." not in (ROOT / "var" / "bench-worker.log").read_text():
        if time.monotonic() > deadline or process.poll() is not None:
            _stop(process)
            raise RuntimeError("the bench worker did not start; see var/bench-worker.log")
        time.sleep(0.05)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def _wait_processed(battle_id: int, limit: float = 60.0) -> float:
    from battles.models import Battle, BattleStatus

    start = time.perf_counter()
    while Battle.objects.filter(pk=battle_id).values_list("status", flat=True)[0] != (
        BattleStatus.PROCESSED
    ):
        if time.perf_counter() - start > limit:
            raise TimeoutError(f"battle {battle_id} not processed within {limit}s")
        time.sleep(0.005)
    return time.perf_counter() - start


def _one_battle() -> tuple[float, Battle]:
    from battles import services
    from battles.models import Battle

    campaign, forces = _cast(str(time.time_ns()))
    battle = _fought(campaign, forces)
    start = time.perf_counter()
    # Reported by one player and confirmed by the other: the last agreement commits, then
    # queues the task (on commit).
    services.battle_finish(battle=battle, user=forces[0].owner)
    services.battle_confirm(battle=battle, user=forces[1].owner)
    _wait_processed(battle.pk)
    return time.perf_counter() - start, Battle.objects.get(pk=battle.pk)


def _task_seconds(battle: Battle) -> float:
    """How long the worker's task took: from its claim to the battle processed."""
    if battle.processed_at is None or battle.claimed_at is None:
        raise RuntimeError(f"battle {battle.pk} was not processed by a worker")
    return (battle.processed_at - battle.claimed_at).total_seconds()


def bench_pipeline() -> dict[str, object]:
    """Time finish -> PROCESSED through a worker process; one task per 100-figure battle."""
    worker = _worker()
    try:
        runs = [_one_battle() for _ in range(PIPELINE_RUNS)]
    finally:
        _stop(worker)
    times = sorted(elapsed for elapsed, _ in runs)
    last = runs[-1][1]
    return {
        "figures": last.figures.count(),
        "ledger_rows": last.ledger.count(),
        "tasks": 1,
        "runs": PIPELINE_RUNS,
        "finish_to_processed_s": round(statistics.median(times), 4),
        "finish_to_processed_all_s": [round(t, 4) for t in times],
        "task_s": [round(_task_seconds(b), 4) for _, b in runs],
        "database": "postgresql" if "postgres" in os.environ["DATABASE_URL"] else "other",
    }


def bench_simulate() -> dict[str, float | int]:
    """Time 1,000 simulated 10-against-10 battles (nothing saved)."""
    from battles.services import simulate_batch
    from rules.simulate import SimFigure
    from rules.system import get_system

    system = get_system("rencounter")
    stats = system.stats.validate(SOLDIER)
    sides = [
        [
            SimFigure(f"{s}/{i}", f"Man {i}", stats, f"{s + 1}:Unit {i // 5}")
            for i in range(SIM_SIZE)
        ]
        for s in range(2)
    ]
    start = time.perf_counter()
    summary = simulate_batch(
        system=system, sides=sides, options=system.options.validate({}), runs=SIM_RUNS, seed="bench"
    )
    elapsed = time.perf_counter() - start
    return {
        "runs": SIM_RUNS,
        "figures_a_side": SIM_SIZE,
        "simulate_1000_battles_s": round(elapsed, 3),
        "battles_per_s": round(SIM_RUNS / elapsed, 1),
        "mean_turns": summary.mean_turns,
    }


def main() -> None:
    _setup()
    pipeline: dict[str, object]
    try:
        pipeline = bench_pipeline()
    except Exception as exc:  # a missing service is a skipped figure, not a crash
        pipeline = {"skipped": f"{type(exc).__name__}: {exc}"}
    simulate = bench_simulate()
    pipeline_s = pipeline.get("finish_to_processed_s")
    report = {
        "bench": "post_battle",
        "budgets": BUDGETS,
        "pipeline": pipeline,
        "simulate": simulate,
        "within_budget": {
            "finish_to_processed_s": isinstance(pipeline_s, float) and pipeline_s <= 1.0,
            "simulate_1000_battles_s": simulate["simulate_1000_battles_s"] <= 5.0,
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
