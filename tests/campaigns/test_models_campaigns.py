"""Campaign models and services: systems from the registry, options from its schema."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaigns import services
from campaigns.models import Campaign, Membership, Role
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from rules.system import all_systems, get_system
from tests.factories import CampaignFactory, ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_a_campaign_gets_the_default_options_of_its_system(system):
    campaign = services.campaign_create(club=ClubFactory(), name="Autumn", system=system.key)

    assert campaign.options == system.options.validate({})


def test_the_organiser_joins_the_campaign_they_create():
    olivia = UserFactory()

    campaign = services.campaign_create(
        club=ClubFactory(), name="Autumn", system="rencounter", organiser=olivia
    )

    assert campaign.memberships.get().role == Role.ORGANISER


def test_an_unknown_system_is_refused():
    with pytest.raises(ValidationError) as caught:
        services.campaign_create(club=ClubFactory(), name="Autumn", system="chess")

    assert "system" in caught.value.message_dict


def test_an_unknown_option_is_refused_naming_it():
    with pytest.raises(ValidationError) as caught:
        services.campaign_create(
            club=ClubFactory(), name="Autumn", system="rencounter", options={"free_beer": True}
        )

    assert caught.value.field_errors == {"free_beer": caught.value.field_errors["free_beer"]}


def test_a_campaign_keeps_its_system():
    campaign = CampaignFactory()

    with pytest.raises(ValidationError):
        services.campaign_update(campaign=campaign, system="escarmouche")


def test_options_are_revalidated_on_update():
    campaign = CampaignFactory(system="rencounter")
    option = next(f for f in get_system("rencounter").options.fields if f.kind == "bool")

    services.campaign_update(campaign=campaign, options={option.name: "yes"})

    campaign.refresh_from_db()
    assert campaign.options[option.name] is True


def test_a_user_joins_a_campaign_once():
    membership = MembershipFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=membership.user, campaign=membership.campaign)


def test_a_role_outside_the_list_is_refused_by_the_database():
    membership = MembershipFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(pk=membership.pk).update(role="OVERLORD")


def test_a_status_outside_the_list_is_refused_by_the_database():
    campaign = CampaignFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(status="ABANDONED")


def test_campaign_slugs_are_unique_within_a_club():
    campaign = CampaignFactory(slug="autumn")

    with pytest.raises(ValidationError):
        services.campaign_create(
            club=campaign.club, name="Autumn", slug="autumn", system="rencounter"
        )


def test_club_admins_see_and_manage_every_campaign_of_their_club():
    admin = UserFactory()
    campaign = CampaignFactory(club=ClubFactory(admins=[admin]))

    assert list(campaigns_visible_to(admin)) == [campaign]
    assert list(campaigns_managed_by(admin)) == [campaign]


def test_players_read_but_do_not_manage_their_campaign():
    membership = MembershipFactory(role=Role.PLAYER)

    assert list(campaigns_visible_to(membership.user)) == [membership.campaign]
    assert not campaigns_managed_by(membership.user).exists()
