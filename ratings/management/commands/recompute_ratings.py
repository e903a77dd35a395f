"""Rebuild every club's ratings (or one club's) from its settled league games."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from campaigns.models import Club
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute the club ratings from scratch (deterministic: same games, same ratings)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="Only this club (its slug).")

    def handle(self, *args: object, club: str | None = None, **options: object) -> None:
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                self.stderr.write(f"No club with the slug {club!r}.")
                return
        for row in clubs:
            games = ratings_recompute(club=row)
            self.stdout.write(f"{row.name}: {games} games rated.")
