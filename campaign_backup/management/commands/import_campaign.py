"""Restore a `muster.campaign` JSON document written by `export_campaign`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign_backup.campaign import campaign_import


class Command(BaseCommand):
    help = "Import a campaign document (all or nothing) into its club or into --club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON document")
        parser.add_argument("--club", default=None, help="club slug to import into")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # missing, not UTF-8, not JSON
            raise CommandError(f"cannot read {options['file']}: {exc}") from None
        except RecursionError:
            raise CommandError(f"cannot read {options['file']}: nested too deep") from None
        try:
            campaign = campaign_import(document=document, club_slug=options["club"])
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(f"imported campaign {campaign.pk} ({campaign}) into {campaign.club}")
