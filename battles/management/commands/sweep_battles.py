"""Re-queue battles never picked up (FINISHED) or stuck (PROCESSING past the stale limit)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandParser

from battles.services import battles_sweep


class Command(BaseCommand):
    help = "Re-queue post-battle processing for waiting or stuck battles."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale-minutes",
            type=float,
            default=None,
            help="a PROCESSING claim older than this is taken back",
        )
        parser.add_argument(
            "--grace-seconds",
            type=float,
            default=None,
            help="a FINISHED battle waiting longer than this is re-queued",
        )

    def handle(
        self,
        *args: object,
        stale_minutes: float | None,
        grace_seconds: float | None,
        **options: object,
    ) -> None:
        stale, grace = stale_minutes, grace_seconds
        queued = battles_sweep(
            stale_after=timedelta(minutes=stale) if stale is not None else None,
            grace=timedelta(seconds=grace) if grace is not None else None,
        )
        self.stdout.write(f"queued {len(queued)} battle(s): {queued}")
