"""One place for each stat: where the unit is the playing piece, its stats live on the unit.

Game the 90%: the Saxons are a Foot Knights band; Sir Hugh is a figure of it whose own stats
still say Serjeants (the defaults). The battle, the table and his forms all go by the unit.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from battles.services import SideChoice, battle_start
from rosters.models import Unit
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

FOOT_KNIGHTS = {"type": "foot_knights", "missiles": "none", "hits": 0, "out_of_missiles": False}
SERJEANTS = {"type": "serjeants", "missiles": "none", "hits": 0, "out_of_missiles": False}


@pytest.fixture
def saxons(db):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(system="game_the_90", name="Hastings")
    for user in (alice, bob):
        MembershipFactory(user=user, campaign=campaign)
    saxons = ForceFactory(campaign=campaign, owner=alice, name="The Saxons")
    band = UnitFactory(force=saxons, name="Huscarls", stats=FOOT_KNIGHTS)
    CharacterFactory(force=saxons, unit=band, name="Sir Hugh", stats=SERJEANTS)
    normans = ForceFactory(campaign=campaign, owner=bob, name="The Normans")
    archers = UnitFactory(force=normans, name="Archers", stats={**SERJEANTS, "type": "bowmen"})
    CharacterFactory(force=normans, unit=archers, name="Robert", stats=SERJEANTS)
    return campaign, saxons, normans, alice


def test_a_foot_knights_band_fights_as_foot_knights(client, saxons):
    campaign, ours, theirs, alice = saxons
    battle = battle_start(
        sides=[SideChoice(force=ours), SideChoice(force=theirs)], campaign=campaign, user=alice
    )
    hugh, robert = battle.figures.get(name="Sir Hugh"), battle.figures.get(name="Robert")
    client.force_login(alice)

    html = client.get(
        f"/battles/{battle.pk}/form/",
        {"actor": hugh.pk, "check": "melee", "against": robert.pk},
    ).content.decode()

    assert hugh.stats["type"] == "foot_knights"
    assert '<option value="foot_knights" selected>' in html
    assert "type Foot Knights — Sir Hugh" in html


def test_the_figures_form_shows_the_units_stats_and_does_not_edit_them(client, saxons):
    _, ours, _, alice = saxons
    hugh = ours.characters.get(name="Sir Hugh")
    client.force_login(alice)

    html = client.get(f"/characters/{hugh.pk}/edit/").content.decode()
    response = client.post(
        f"/characters/{hugh.pk}/edit/",
        {
            "name": "Sir Hugh",
            "rank": "",
            "unit": hugh.unit_id,
            "notes": "",
            "permanent_wounds": "",
            "stat_type": "knights",
            "stat_missiles": "none",
            "stat_hits": "3",
        },
    )

    assert "the unit is the playing piece: Sir Hugh plays with Huscarls&#x27;s stats" in html
    assert 'data-testid="piece-note"' in html
    assert response.status_code == 302
    hugh.refresh_from_db()
    assert hugh.stats == SERJEANTS  # nothing written to the figure
    assert Unit.objects.get(name="Huscarls").stats == FOOT_KNIGHTS


def test_a_new_figures_form_says_where_its_stats_live(client, saxons):
    _, ours, _, alice = saxons
    client.force_login(alice)

    html = client.get(f"/forces/{ours.pk}/characters/new/").content.decode()

    assert "In Game the 90% the unit is the playing piece" in html


def test_the_migration_moves_figures_stats_onto_a_unit_left_at_the_defaults(saxons):
    _, ours, _, _ = saxons
    band = UnitFactory(force=ours, name="Fyrd", stats=SERJEANTS)
    CharacterFactory(force=ours, unit=band, name="Wulf", stats=FOOT_KNIGHTS)
    migration = importlib.import_module("rosters.migrations.0005_unit_piece_stats_on_unit")

    migration.stats_onto_units(apps, None)

    assert Unit.objects.get(name="Fyrd").stats == FOOT_KNIGHTS
    assert Unit.objects.get(name="Huscarls").stats == FOOT_KNIGHTS  # its own: kept
