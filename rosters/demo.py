"""The demo club: one campaign per registered rule system, two players' forces in each, with
named characters and a few service-record entries. Running it again changes nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, CampaignStatus, Club, Role
from campaigns.services import campaign_create, club_create, membership_create
from common.stats import starting_stats
from common.users import User
from rosters.models import Force
from rosters.services import character_create, character_update, force_create, unit_create
from rules.errors import ValidationError as RulesValidationError
from rules.schema import Schema
from rules.system import RuleSystem, all_systems

ADMIN = "admin"
PLAYERS = (("olivia", Role.ORGANISER), ("alice", Role.PLAYER), ("bob", Role.PLAYER))
UNIT_NAMES = ("First Section", "Second Section")


@dataclass(frozen=True)
class DemoForce:
    name: str
    faction: str
    #: Six (name, rank) pairs: three in each unit, the first of each unit promoted by hand.
    characters: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DemoCampaign:
    """A demo campaign's current date and the two forces that fight in it."""

    calendar_date: date
    forces: dict[str, DemoForce]


#: Each system's campaign is set in its own period, with forces and figures of their own.
DEMO_CAMPAIGNS = {
    "rencounter": DemoCampaign(
        date(1643, 5, 14),
        {
            "alice": DemoForce(
                "Gridley's Company",
                "Kingsmen",
                (
                    ("Gridley", "Sergeant"),
                    ("Tom Pike", ""),
                    ("Ned Fletcher", ""),
                    ("Will Cooper", "Corporal"),
                    ("Harry Mason", ""),
                    ("Jack Thatcher", ""),
                ),
            ),
            "bob": DemoForce(
                "The Grey Riders",
                "Rebels",
                (
                    ("Nathaniel Ash", "Cornet"),
                    ("Obadiah Crane", ""),
                    ("Josiah Reeve", ""),
                    ("Gideon Hart", "Corporal"),
                    ("Ezra Vane", ""),
                    ("Silas Brook", ""),
                ),
            ),
        },
    ),
    "grits_and_glory": DemoCampaign(
        date(1878, 7, 4),
        {
            "alice": DemoForce(
                "The Dalton Posse",
                "Lawmen",
                (
                    ("Ben Dalton", "Marshal"),
                    ("Wes Harper", ""),
                    ("Eli Crane", ""),
                    ("Sam Tully", "Deputy"),
                    ("Doc Ferris", ""),
                    ("Jed Mercer", ""),
                ),
            ),
            "bob": DemoForce(
                "The Red Canyon Gang",
                "Outlaws",
                (
                    ("Jack Keogh", "Boss"),
                    ("Luis Ortega", ""),
                    ("Clem Dawes", ""),
                    ("Ike Farrow", "Lieutenant"),
                    ("Billy Shaw", ""),
                    ("Hank Pruitt", ""),
                ),
            ),
        },
    ),
    "escarmouche": DemoCampaign(
        date(1636, 8, 15),
        {
            "alice": DemoForce(
                "Compagnie de Vaubecourt",
                "French",
                (
                    ("Louis de Vaubecourt", "Capitaine"),
                    ("Jean Ravel", ""),
                    ("Pierre Lenoir", ""),
                    ("Michel Aubry", "Sergent"),
                    ("Luc Fabre", ""),
                    ("Henri Roux", ""),
                ),
            ),
            "bob": DemoForce(
                "Tercio de Soto",
                "Spanish",
                (
                    ("Diego de Soto", "Capitán"),
                    ("Andrés Vega", ""),
                    ("Tomás Ruiz", ""),
                    ("Mateo Cano", "Sargento"),
                    ("Pedro Gil", ""),
                    ("Juan Ibarra", ""),
                ),
            ),
        },
    ),
    "game_the_90": DemoCampaign(
        date(878, 5, 10),
        {
            "alice": DemoForce(
                "Alfred's Fyrd",
                "West Saxons",
                (
                    ("Odda's hearth-troop", "Ealdorman"),
                    ("Wulfhere's spears", ""),
                    ("Osric's bowmen", ""),
                    ("Eadwig's thegns", "Thegn"),
                    ("Beorn's levy", ""),
                    ("Cuthred's skirmishers", ""),
                ),
            ),
            "bob": DemoForce(
                "Guthrum's Host",
                "Danes",
                (
                    ("Guthrum's huscarls", "Jarl"),
                    ("Halfdan's crew", ""),
                    ("Ubba's archers", ""),
                    ("Sigurd's riders", "Hersir"),
                    ("Ketil's bondsmen", ""),
                    ("Orm's raiders", ""),
                ),
            ),
        },
    ),
    "d12_skirmish": DemoCampaign(
        date(1811, 5, 16),
        {
            "alice": DemoForce(
                "Hale's Rifle Picket",
                "British",
                (
                    ("Thomas Hale", "Lieutenant"),
                    ("Dan Cartwright", ""),
                    ("Will Tuck", ""),
                    ("Joe Barnes", "Sergeant"),
                    ("Sam Pell", ""),
                    ("Ned Kemp", ""),
                ),
            ),
            "bob": DemoForce(
                "Marchand's Voltigeurs",
                "French",
                (
                    ("Lucien Marchand", "Capitaine"),
                    ("Émile Brun", ""),
                    ("Jules Perrin", ""),
                    ("Paul Girard", "Sergent"),
                    ("Victor Caron", ""),
                    ("Louis Bastide", ""),
                ),
            ),
        },
    ),
}
#: A system registered after the demo was written still gets a campaign: it borrows these.
FALLBACK = DEMO_CAMPAIGNS["rencounter"]


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


def _user(username: str, password: str, *, staff: bool = False) -> User:
    user, _ = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@demo.invalid"}
    )
    user.is_staff = user.is_superuser = staff
    user.set_password(password)  # a demo account: the printed password always works
    user.save()
    return user


def _varied(schema: Schema, index: int) -> dict[str, object]:
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


#: What each demo figure carries, by its place in its unit (kits cycle): the cards, rosters and
#: table assistant then show real weapons, as a player's own force would.
DEMO_KITS: dict[str, tuple[dict[str, object], ...]] = {
    "rencounter": (
        {"weapons": ["matchlock_musket", "sword"], "armour": 1},
        {"weapons": ["pike"], "armour": 1},
        {"weapons": ["matchlock_musket", "knife"]},
    ),
    "grits_and_glory": (
        {"weapons": ["six_shooter", "knife"]},
        {"weapons": ["rifle", "knife"]},
        {"weapons": ["shotgun", "club"]},
    ),
    "escarmouche": (
        {"weapons": ["musket"]},
        {"weapons": ["carbine"]},
        {"weapons": ["musket"]},
    ),
    "d12_skirmish": (
        {"weapons": ["pistol", "sword"]},
        {"weapons": ["rifled_musket", "bayonet"]},
        {"weapons": ["rifled_musket", "bayonet"]},
    ),
    "game_the_90": ({"missiles": "none"}, {"missiles": "bows"}, {"missiles": "javelins"}),
}


def _armed(system: RuleSystem, stats: dict[str, object], index: int) -> dict[str, object]:
    """Return the stats with the figure's demo kit, if the system accepts it as it is."""
    kits = DEMO_KITS.get(system.key)
    if not kits:
        return stats
    try:
        return system.stats.validate({**stats, **kits[index % len(kits)]})
    except RulesValidationError:
        return stats


def _demo(system: RuleSystem) -> DemoCampaign:
    return DEMO_CAMPAIGNS.get(system.key, FALLBACK)


def _campaign(club: Club, system: RuleSystem, members: dict[str, User]) -> Campaign:
    demo = _demo(system)
    campaign = Campaign.objects.filter(club=club, slug=f"{system.key}-demo").first()
    if campaign is None:
        campaign = campaign_create(
            club=club,
            name=f"{system.name} demo campaign",
            slug=f"{system.key}-demo",
            system=system.key,
            status=CampaignStatus.ACTIVE,
            calendar_date=demo.calendar_date,
        )
        for username, role in PLAYERS:
            membership_create(campaign=campaign, user=members[username], role=role)
    elif campaign.calendar_date is None:  # a demo club loaded before campaigns had a date
        Campaign.objects.filter(pk=campaign.pk).update(calendar_date=demo.calendar_date)
    return campaign


def _force(campaign: Campaign, owner: User, system: RuleSystem) -> None:
    # One demo force per player per campaign, whatever it was called when it was loaded.
    if Force.objects.filter(campaign=campaign, owner=owner).exists():
        return
    demo = _demo(system).forces[owner.username]
    force = force_create(owner=owner, name=demo.name, campaign=campaign, faction=demo.faction)
    for u, unit_name in enumerate(UNIT_NAMES):
        unit_stats = _varied(system.stats, u) if system.piece == "unit" else None
        if unit_stats is not None:
            unit_stats = _armed(system, unit_stats, u)
        unit = unit_create(force=force, name=unit_name, order=u, stats=unit_stats)
        for c, (person, rank) in enumerate(demo.characters[u * 3 : u * 3 + 3]):
            character = character_create(
                force=force,
                name=person,
                rank=rank,
                unit=unit,
                stats=_armed(system, _varied(system.stats, c), c),
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
