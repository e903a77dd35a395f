"""`manage.py seed_demo`: load the demo club and print the admin login (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from battles.demo import demo_battles_seed
from campaigns.demo_season import demo_season_seed
from campaigns.models import Campaign
from rosters.demo import demo_seed


class Command(BaseCommand):
    help = "Load a demo club: one campaign per rule system, forces, characters and battles."

    def handle(self, *args: Any, **options: Any) -> None:
        login = demo_seed()
        # Battles come after the rosters commit: finishing one queues its post-battle task.
        fought = demo_battles_seed(campaigns=list(Campaign.objects.filter(club__slug="demo")))
        # A league in progress in the Rencounter campaign: round 1 played, round 2 paired.
        demo_season_seed(club_slug="demo", organiser="olivia", password=login.password)
        self.stdout.write(self.style.SUCCESS(f"Demo data is loaded ({fought} new battle(s))."))
        self.stdout.write(
            f"Admin login: http://127.0.0.1:8000/admin/  "
            f"user {login.username}  password {login.password}"
        )
        self.stdout.write(f"Players {', '.join(login.players)} use the same password.")
