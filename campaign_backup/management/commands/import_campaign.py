"""Restore a `muster.campaign` JSON document written by `export_campaign` (or Download)."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign_backup.campaign import campaign_import
from campaign_backup.uploads import backup_parse


class Command(BaseCommand):
    help = (
        "Import a campaign document (all or nothing) into its club or into --club; with "
        "--slug (and --name), as a copy. Runs here and now, not on a worker."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON document")
        parser.add_argument("--club", default=None, help="club slug to import into")
        parser.add_argument("--slug", default="", help="restore as a copy with this slug")
        parser.add_argument("--name", default="", help="the copy's name (default: its slug)")

    def handle(
        self,
        *args: object,
        file: str,
        club: str | None,
        name: str,
        slug: str,
        verbosity: int,
        **options: object,
    ) -> None:
        try:
            # The same reader as the admin's upload: encodings, NaN, NUL, nesting, in words.
            document = backup_parse(Path(file).read_bytes())
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except ValidationError as exc:
            raise CommandError(f"cannot read {file}: {exc.messages[0]}") from None
        try:
            campaign = campaign_import(
                document=document,
                club_slug=club,
                name=name,
                slug=slug,
                progress=self._progress if verbosity > 1 else None,
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(f"imported campaign {campaign.pk} ({campaign}) into {campaign.club}")

    def _progress(self, step: str, done: int, total: int) -> None:
        self.stderr.write(f"{step}: {done} of {total} rows")
