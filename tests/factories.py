"""factory_boy factories for the Django tests: users, clubs, campaigns, memberships, forces,
units, characters and service-record entries. Stats default to a valid starting block for
the force's system, so any factory-made character passes its schema."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, CampaignStatus, Club, Membership, Role
from common.stats import starting_stats
from rosters.models import Character, EntryCause, Force, ServiceRecordEntry, Unit
from rules.system import get_system

DEFAULT_SYSTEM = "rencounter"
PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password(PASSWORD)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")

    @factory.post_generation
    def admins(self, create: bool, extracted: list | None, **kwargs: object) -> None:
        if create and extracted:
            self.admins.add(*extracted)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Campaign {n}")
    slug = factory.Sequence(lambda n: f"campaign-{n}")
    system = DEFAULT_SYSTEM
    status = CampaignStatus.ACTIVE
    options = factory.LazyAttribute(lambda c: get_system(c.system).options.validate({}))


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    campaign = factory.SubFactory(CampaignFactory)
    role = Role.PLAYER


class ForceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Force

    owner = factory.SubFactory(UserFactory)
    campaign = None
    system = factory.LazyAttribute(lambda f: f.campaign.system if f.campaign else DEFAULT_SYSTEM)
    name = factory.Sequence(lambda n: f"Force {n}")
    faction = "Royalists"


def unit_stats(force: Force) -> dict:
    system = get_system(force.system)
    return starting_stats(system.stats) if system.piece == "unit" else {}


class UnitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Unit

    force = factory.SubFactory(ForceFactory)
    name = factory.Sequence(lambda n: f"Unit {n}")
    order = factory.Sequence(lambda n: n)
    stats = factory.LazyAttribute(lambda u: unit_stats(u.force))


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    force = factory.SubFactory(ForceFactory)
    unit = None
    name = factory.Sequence(lambda n: f"Trooper {n}")
    rank = ""
    stats = factory.LazyAttribute(lambda c: starting_stats(get_system(c.force.system).stats))


class ServiceRecordEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ServiceRecordEntry

    character = factory.SubFactory(CharacterFactory)
    cause = EntryCause.HAND_EDIT
    before = factory.LazyFunction(dict)
    after = factory.LazyFunction(dict)
