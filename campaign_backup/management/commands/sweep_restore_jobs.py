"""`manage.py sweep_restore_jobs [--minutes N]`: send again restore jobs that waited or ran
too long (a lost message, a worker that died); also the Celery task `sweep_restore_jobs`."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign_backup.services import restore_jobs_sweep
from campaign_backup.tasks import stale_minutes


class Command(BaseCommand):
    help = "Send again QUEUED or RUNNING restore jobs older than N minutes (safe to repeat)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--minutes",
            type=int,
            default=None,
            help="How old a waiting or running job must be (default: "
            "RESTORE_JOBS_STALE_MINUTES, or 15; 0: every live job).",
        )

    def handle(self, *args: object, minutes: int | None, **options: object) -> None:
        minutes = stale_minutes() if minutes is None else minutes
        if minutes < 0:
            raise CommandError("--minutes must be 0 or more")
        sent = restore_jobs_sweep(stale_after=timedelta(minutes=minutes))
        self.stdout.write(f"re-sent {len(sent)} restore job(s) older than {minutes} min")
