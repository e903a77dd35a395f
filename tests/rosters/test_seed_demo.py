"""`seed_demo` loads the demo club once, however often it runs, and prints a working login."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaigns.models import Campaign
from rosters.models import Character, ServiceRecordEntry
from rules.system import all_systems

pytestmark = pytest.mark.django_db


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_seeding_makes_a_campaign_per_system_with_characters_and_records(var_dir):
    seed()

    assert sorted(Campaign.objects.values_list("system", flat=True)) == sorted(
        s.key for s in all_systems()
    )
    assert Character.objects.count() == 12 * len(all_systems())
    assert ServiceRecordEntry.objects.filter(cause="HAND_EDIT").exists()


def test_seeding_twice_changes_nothing(var_dir):
    seed()
    counts = (
        Campaign.objects.count(),
        Character.objects.count(),
        ServiceRecordEntry.objects.count(),
    )

    seed()

    assert (
        Campaign.objects.count(),
        Character.objects.count(),
        ServiceRecordEntry.objects.count(),
    ) == counts


def test_the_printed_admin_password_works_and_is_the_same_each_run(var_dir):
    first, second = seed(), seed()

    password = (var_dir / "demo_admin_password").read_text().strip()
    assert f"password {password}" in first
    assert f"password {password}" in second
    assert authenticate(username="admin", password=password).is_superuser


@pytest.mark.django_db(transaction=True)
def test_seeding_fights_one_processed_battle_per_campaign_once(var_dir):
    from battles.models import Battle, BattleStatus, PostBattleRoll

    seed()
    seed()

    statuses = sorted(Battle.objects.values_list("system", "status"))
    processed = [(s.key, BattleStatus.PROCESSED) for s in all_systems()]
    # ... and one Rencounter battle reported by one player, waiting for the other's consent.
    assert statuses == sorted([*processed, ("rencounter", BattleStatus.REPORTED)])
    assert PostBattleRoll.objects.exists()


def test_every_demo_force_has_its_own_name_and_figures(var_dir):
    from rosters.models import Force

    seed()

    forces = list(Force.objects.filter(campaign__club__slug="demo"))
    assert len({f.name for f in forces}) == len(forces) == 2 * len(all_systems())
    rosters = [tuple(sorted(f.characters.values_list("name", flat=True))) for f in forces]
    assert len(set(rosters)) == len(forces)


def test_every_demo_campaign_has_a_current_date_and_its_battle_was_fought_on_it(var_dir):
    from battles.models import Battle

    seed()

    campaigns = Campaign.objects.filter(club__slug="demo")
    assert all(c.calendar_date is not None for c in campaigns)
    for battle in Battle.objects.select_related("campaign"):
        assert battle.campaign_date == battle.campaign.calendar_date


def test_a_demo_club_loaded_without_campaign_dates_gets_them_on_the_next_run(var_dir):
    seed()
    Campaign.objects.update(calendar_date=None)
    characters = Character.objects.count()

    seed()

    assert not Campaign.objects.filter(calendar_date__isnull=True).exists()
    assert Character.objects.count() == characters


def test_every_demo_figure_of_a_system_with_weapons_carries_one(var_dir):
    seed()

    for system in all_systems():
        if "weapons" not in {f.name for f in system.stats.fields}:
            continue
        unarmed = Character.objects.filter(force__system=system.key, stats__weapons=[])
        assert not unarmed.exists(), f"{system.key}: {list(unarmed.values_list('name', flat=True))}"
