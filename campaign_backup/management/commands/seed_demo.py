"""`manage.py seed_demo`: load the demo club and print the admin login (idempotent)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from battles.demo import demo_battles_seed, demo_waiting_battle_seed
from campaigns.models import Campaign
from campaigns.services import invitation_standing
from league.demo_season import demo_season_seed
from rosters.demo import demo_seed


class Command(BaseCommand):
    help = "Load a demo club: one campaign per rule system, forces, characters and battles."

    def handle(self, *args: object, **options: object) -> None:
        login = demo_seed()
        # Battles come after the rosters commit: finishing one queues its post-battle task.
        fought = demo_battles_seed(campaigns=list(Campaign.objects.filter(club__slug="demo")))
        # Consent on show: a battle alice reported that her opponent has still to confirm.
        for campaign in Campaign.objects.filter(club__slug="demo", system="rencounter").order_by(
            "pk"
        )[:1]:
            demo_waiting_battle_seed(campaign=campaign)
        # A league in progress in the Rencounter campaign: round 1 played, round 2 paired.
        demo_season_seed(club_slug="demo", organiser="olivia", password=login.password)
        self.stdout.write(self.style.SUCCESS(f"Demo data is loaded ({fought} new battle(s))."))
        self.stdout.write(
            f"Admin login: http://127.0.0.1:8000/admin/  "
            f"user {login.username}  password {login.password}"
        )
        self.stdout.write(f"Players {', '.join(login.players)} use the same password.")
        self._invitation(login.username)

    def _invitation(self, organiser: str) -> None:
        """Print a sign-up invitation link to the demo's Rencounter campaign."""
        campaign = Campaign.objects.filter(club__slug="demo", system="rencounter").first()
        if campaign is None:
            return
        user = get_user_model().objects.get(username=organiser)
        invitation = invitation_standing(campaign=campaign, user=user)
        self.stdout.write(
            f"New players sign up and join {campaign.name} with the invitation link "
            f"http://127.0.0.1:8000/campaigns/{campaign.pk}/join/{invitation.code}/"
        )
        self.stdout.write(
            "E-mail (sign-up confirmation, password reset) is printed on this console."
        )
