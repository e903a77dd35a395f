"""Write a whole campaign as a `muster.campaign` JSON document (see docs/deploy.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign_backup.campaign import campaign_export
from campaigns.models import Campaign


class Command(BaseCommand):
    help = "Export a campaign (members, forces, service records, battles, league) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", type=int, help="the campaign's id")
        parser.add_argument("--output", "-o", default="-", help="file to write; - for stdout")

    def handle(self, *args: object, campaign: int, output: str, **options: object) -> None:
        found = Campaign.objects.select_related("club").filter(pk=campaign).first()
        if found is None:
            raise CommandError(f"no campaign with id {campaign}")
        text = json.dumps(campaign_export(campaign=found), indent=1, ensure_ascii=False)
        if output == "-":
            sys.stdout.write(text + "\n")
        else:
            Path(output).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"wrote {found} to {output}")
