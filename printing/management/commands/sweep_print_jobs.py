"""`manage.py sweep_print_jobs [--minutes N]`: re-send lost print jobs (also a Celery beat task)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandParser

from printing.services import print_jobs_sweep
from printing.tasks import stale_minutes


class Command(BaseCommand):
    help = "Re-queue QUEUED print jobs never picked up and RUNNING ones stuck past N minutes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--minutes",
            type=int,
            default=None,
            help="How old a waiting or running job must be (default: "
            "PRINT_JOBS_STALE_MINUTES, or 15).",
        )

    def handle(self, *args: object, minutes: int | None, **options: object) -> None:
        minutes = stale_minutes() if minutes is None else minutes
        if minutes < 1:
            self.stderr.write("--minutes must be at least 1")
            raise SystemExit(2)
        result = print_jobs_sweep(stale_after=timedelta(minutes=minutes))
        self.stdout.write(
            f"re-sent {len(result.queued)} queued and {len(result.stuck)} stuck "
            f"print job(s) older than {minutes} min"
        )
