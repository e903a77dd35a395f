"""The demo club: one campaign per registered rule system, two players' forces in each, with
named characters and a few service-record entries. Running it again changes nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, CampaignStatus, Club, Role
from campaigns.services import campaign_create, club_create, membership_create
from rosters.models import Force
from rosters.services import character_create, character_update, force_create, unit_create
from rosters.stats import starting_stats
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Schema
from rules.system import RuleSystem, all_systems

ADMIN = "admin"
PLAYERS = (("olivia", Role.ORGANISER), ("alice", Role.PLAYER), ("bob", Role.PLAYER))
FORCE_NAMES = {"alice": ("Gridley's Company", "Kingsmen"), "bob": ("The Grey Riders", "Rebels")}
UNIT_NAMES = ("First Section", "Second Section")
CHARACTER_NAMES = (
    ("Gridley", "Sergeant"),
    ("Tom Pike", ""),
    ("Ned Fletcher", ""),
    ("Will Cooper", "Corporal"),
    ("Harry Mason", ""),
    ("Jack Thatcher", ""),
)


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    players: tuple[str, ...]


def demo_password(path: Path | None = None) -> str:
    """Return the demo password, generating it into var/ the first time."""
    path = path or Path(settings.VAR_DIR) / "demo_admin_password"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(12) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def _user(username: str, password: str, *, staff: bool = False) -> Any:
    user, _ = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@demo.invalid"}
    )
    user.is_staff = user.is_superuser = staff
    user.set_password(password)  # a demo account: the printed password always works
    user.save()
    return user


def _varied(schema: Schema, index: int) -> dict[str, Any]:
    """Return starting stats nudged per figure, keeping only changes the schema accepts."""
    stats = starting_stats(schema)
    for field in schema.fields:
        if field.kind != "int" or field.min is None or field.max is None:
            continue
        trial = dict(stats)
        trial[field.name] = max(field.min, min(field.max, stats[field.name] + index % 3 - 1))
        try:
            stats = schema.validate(trial)
        except RulesValidationError:
            continue
    return stats


def _campaign(club: Club, system: RuleSystem, members: dict[str, Any]) -> Campaign:
    campaign = Campaign.objects.filter(club=club, slug=f"{system.key}-demo").first()
    if campaign is None:
        campaign = campaign_create(
            club=club,
            name=f"{system.name} demo campaign",
            slug=f"{system.key}-demo",
            system=system.key,
            status=CampaignStatus.ACTIVE,
        )
        for username, role in PLAYERS:
            membership_create(campaign=campaign, user=members[username], role=role)
    return campaign


def _force(campaign: Campaign, owner: Any, system: RuleSystem) -> None:
    name, faction = FORCE_NAMES[owner.username]
    if Force.objects.filter(campaign=campaign, owner=owner, name=name).exists():
        return
    force = force_create(owner=owner, name=name, campaign=campaign, faction=faction)
    for u, unit_name in enumerate(UNIT_NAMES):
        unit_stats = _varied(system.stats, u) if system.piece == "unit" else None
        unit = unit_create(force=force, name=unit_name, order=u, stats=unit_stats)
        for c, (person, rank) in enumerate(CHARACTER_NAMES[u * 3 : u * 3 + 3]):
            character = character_create(
                force=force,
                name=person,
                rank=rank,
                unit=unit,
                stats=_varied(system.stats, c),
                user=owner,
            )
            if c == 0:
                character_update(
                    character=character,
                    user=owner,
                    rank=rank or "Corporal",
                    notes="Promoted after the skirmish at the mill.",
                )


@transaction.atomic
def demo_seed() -> DemoLogin:
    """Load the demo club (idempotently) and return the login to print."""
    password = demo_password()
    admin = _user(ADMIN, password, staff=True)
    members = {name: _user(name, password) for name, _ in PLAYERS}
    club = Club.objects.filter(slug="demo").first() or club_create(
        name="Muster Demo Club", slug="demo", admins=(admin,)
    )
    for system in all_systems():
        campaign = _campaign(club, system, members)
        for owner in (members["alice"], members["bob"]):
            _force(campaign, owner, system)
    return DemoLogin(ADMIN, password, tuple(name for name, _ in PLAYERS))
