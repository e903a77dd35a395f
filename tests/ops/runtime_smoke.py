"""Smoke run for an install without the dev extras (`make test-runtime`; not a pytest module).

The production image installs `requirements.lock` only, so anything runtime code imports from a
dev-only package (pypdf once was) fails there and nowhere in `make test`. This script runs, on
such an install and a scratch SQLite database, what touches the most runtime dependencies: the
demo club with its post-battle tasks, a print job through Celery, a game-night packet through the
API, the API docs page and its static files. It exits non-zero with one line on the first failure.

Run from the project root: `python tests/ops/runtime_smoke.py` with MUSTER_VAR_DIR set to a
scratch folder.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

#: Dev-only packages: this run must not find them (or it proves nothing).
DEV_ONLY = ("pytest", "factory", "hypothesis", "pdfplumber", "playwright", "schemathesis")


class SmokeFailure(Exception):
    """One line saying what did not work."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


def no_dev_packages() -> None:
    found = [name for name in DEV_ONLY if importlib.util.find_spec(name) is not None]
    check(not found, f"dev-only packages are installed, so this run proves nothing: {found}")


def demo_club() -> None:
    """Migrate, seed the demo club; its battles' post-battle tasks run (eager) on the way."""
    from django.core.management import call_command

    from battles.models import Battle, BattleStatus, PostBattleRoll

    call_command("migrate", verbosity=0, interactive=False)
    call_command("seed_demo", verbosity=0)
    battles = Battle.objects.filter(campaign__club__slug="demo")
    check(battles.exists(), "seed_demo made no battle")
    # The demo leaves one result reported and waiting for the opponent's confirmation (consent):
    # every battle both sides agreed is processed.
    agreed = battles.exclude(status=BattleStatus.REPORTED)
    left = agreed.exclude(status=BattleStatus.PROCESSED).count()
    check(left == 0, f"{left} agreed demo battle(s) were not processed by the post-battle task")
    check(PostBattleRoll.objects.exists(), "no post-battle roll was written")


def _demo_battle():
    from battles.models import Battle

    return Battle.objects.filter(campaign__club__slug="demo").order_by("pk").first()


def print_job() -> None:
    """Queue a packet print job (eager Celery renders it) and check the stored PDF."""
    from printing.inputs import PacketInput
    from printing.models import PrintJob, PrintJobStatus
    from printing.selectors import battle_forces, packet_version
    from printing.services import print_job_request

    battle = _demo_battle()
    user = battle.created_by
    options = PacketInput(data={}, context={"user": user})
    check(options.is_valid(), f"packet options refused: {options.errors}")
    params = dict(options.validated_data)
    params.update(
        battle=battle.pk, system=battle.system, version=packet_version(battle_forces(battle))
    )
    job = print_job_request(kind=PrintJob.Kind.PACKET, parameters=params, user=user)
    job.refresh_from_db()
    check(job.status == PrintJobStatus.DONE, f"print job ended {job.status}: {job.error}")
    check(job.pages_done > 0, "the print job's PDF has no page")


def packet_over_http() -> None:
    """GET the battle's game-night packet as its first player would."""
    from django.test import Client

    battle = _demo_battle()
    owner = battle.sides.order_by("index").first().force.owner
    client = Client()
    client.force_login(owner)
    response = client.get(f"/api/battles/{battle.pk}/packet.pdf")
    check(response.status_code == 200, f"packet answered {response.status_code}")
    check(response.content.startswith(b"%PDF"), "the packet is not a PDF")


def api_docs() -> None:
    """The interactive docs page and the Swagger UI it loads come from this site."""
    from django.contrib.staticfiles import finders
    from django.test import Client

    for url in ("/api/docs/", "/api/redoc/"):
        response = Client().get(url)
        check(response.status_code == 200, f"{url} answered {response.status_code}")
        outside = re.findall(rb'(?:src|href)="(https?:[^"]*)"', response.content)
        check(not outside, f"{url} loads from another site: {outside}")
    bundle = finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    check(bundle is not None, "Swagger UI's bundle is not among the static files")


STEPS = (no_dev_packages, demo_club, print_job, packet_over_http, api_docs)


def main() -> int:
    import django

    django.setup()
    for step in STEPS:
        try:
            step()
        except SmokeFailure as failure:
            print(f"runtime smoke: {step.__name__}: {failure}", file=sys.stderr)
            return 1
        print(f"runtime smoke: {step.__name__} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
