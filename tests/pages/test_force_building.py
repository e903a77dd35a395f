"""Creating and keeping a force on the site: new, edit, archive, delete, and its units."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSide
from campaigns.models import Campaign
from rosters.models import Force, Unit
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UnitFactory
from tests.pages.conftest import make_muster

pytestmark = pytest.mark.django_db


def test_a_member_creates_a_force_that_plays_the_campaigns_system(client, muster):
    client.force_login(muster.alice)

    response = client.post(
        "/forces/new/",
        {"campaign": muster.campaign.pk, "name": "Green Jackets", "faction": "Loyalists"},
    )

    force = Force.objects.get(name="Green Jackets")
    assert response.status_code == 302 and response["Location"] == f"/forces/{force.pk}/edit/"
    assert (force.owner, force.campaign, force.system) == (
        muster.alice,
        muster.campaign,
        muster.campaign.system,
    )


def test_the_new_force_form_offers_only_campaigns_the_player_belongs_to(client, muster):
    elsewhere = CampaignFactory(name="Saratoga")
    client.force_login(muster.alice)

    html = client.get(f"/forces/new/?campaign={muster.campaign.pk}").content.decode()

    assert "Brandywine" in html and "Saratoga" not in html
    response = client.post("/forces/new/", {"campaign": elsewhere.pk, "name": "Sneaky"})
    assert response.status_code == 400
    assert not Force.objects.filter(name="Sneaky").exists()


def test_a_force_without_a_name_is_refused_beside_the_field_and_nothing_is_saved(client, muster):
    client.force_login(muster.alice)
    before = Force.objects.count()

    response = client.post("/forces/new/", {"campaign": muster.campaign.pk, "name": ""})

    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_name_error"' in html and "This field is required." in html
    assert 'aria-invalid="true"' in html
    assert Force.objects.count() == before


def test_a_force_on_its_own_needs_a_rule_system(client, muster):
    client.force_login(muster.charlie)

    refused = client.post("/forces/new/", {"name": "Lone Wolves"})
    made = client.post("/forces/new/", {"name": "Lone Wolves", "system": "d12_skirmish"})

    assert refused.status_code == 400 and "Choose a campaign" in refused.content.decode()
    assert made.status_code == 302
    assert Force.objects.get(name="Lone Wolves").system == "d12_skirmish"


def test_the_owner_renames_the_force_and_changes_faction_and_notes(client, muster):
    client.force_login(muster.alice)

    response = client.post(
        f"/forces/{muster.red.pk}/edit/",
        {"name": "Crimson", "faction": "Crown", "notes": "Veterans of Long Island"},
    )

    muster.red.refresh_from_db()
    assert response.status_code == 302
    assert (muster.red.name, muster.red.faction, muster.red.notes) == (
        "Crimson",
        "Crown",
        "Veterans of Long Island",
    )


def test_renaming_a_force_to_nothing_is_refused_and_changes_nothing(client, muster):
    client.force_login(muster.alice)

    response = client.post(f"/forces/{muster.red.pk}/edit/", {"name": "", "faction": "X"})

    muster.red.refresh_from_db()
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert (muster.red.name, muster.red.faction) == ("Red", "Royalists")


def test_a_force_that_never_fought_is_deleted_after_confirmation(client, muster):
    client.force_login(muster.alice)

    page = client.get(f"/forces/{muster.red.pk}/delete/").content.decode()
    response = client.post(f"/forces/{muster.red.pk}/delete/")

    assert "never fought" in page
    assert response.status_code == 302
    assert not Force.objects.filter(pk=muster.red.pk).exists()


def test_a_force_that_fought_is_not_deleted_but_offered_the_archive(client, muster):
    battle = Battle.objects.create(campaign=muster.campaign, system="rencounter")
    BattleSide.objects.create(battle=battle, index=0, force=muster.red)
    client.force_login(muster.alice)

    response = client.post(f"/forces/{muster.red.pk}/delete/")
    archived = client.post(f"/forces/{muster.red.pk}/archive/")

    assert response.status_code == 409 and "archive it instead" in response.content.decode()
    assert archived.status_code == 302
    assert Force.objects.get(pk=muster.red.pk).archived_at is not None
    assert "Archived" in client.get(f"/forces/{muster.red.pk}/").content.decode()


def test_an_archived_force_can_be_brought_back(client, muster):
    client.force_login(muster.alice)
    client.post(f"/forces/{muster.red.pk}/archive/")

    client.post(f"/forces/{muster.red.pk}/archive/", {"restore": "1"})

    assert Force.objects.get(pk=muster.red.pk).archived_at is None


# --- units --------------------------------------------------------------------------------


def test_the_owner_adds_a_unit_at_the_end_of_the_roster(client, muster):
    client.force_login(muster.alice)

    response = client.post(f"/forces/{muster.red.pk}/units/new/", {"unit-name": "Light Bobs"})

    assert response.status_code == 302
    names = list(muster.red.units.order_by("order").values_list("name", flat=True))
    assert names[-1] == "Light Bobs"


def test_a_unit_with_a_name_already_used_is_refused_beside_the_field(client, muster):
    client.force_login(muster.alice)

    response = client.post(f"/forces/{muster.red.pk}/units/new/", {"unit-name": "Red unit 1"})

    assert response.status_code == 400
    assert 'id="id_unit-name_error"' in response.content.decode()
    assert "already has a unit called Red unit 1" in response.content.decode()
    assert muster.red.units.count() == 2


def test_the_owner_renames_a_unit_and_chooses_its_leader(client, muster):
    unit = muster.red.units.order_by("order").first()
    leader = unit.characters.first()
    client.force_login(muster.alice)

    response = client.post(f"/units/{unit.pk}/edit/", {"name": "Grenadiers", "leader": leader.pk})

    unit.refresh_from_db()
    assert response.status_code == 302
    assert (unit.name, unit.leader) == ("Grenadiers", leader)


def test_a_leader_from_another_unit_is_refused(client, muster):
    first, second = muster.red.units.order_by("order")
    stranger = second.characters.first()
    client.force_login(muster.alice)

    response = client.post(f"/units/{first.pk}/edit/", {"name": first.name, "leader": stranger.pk})

    first.refresh_from_db()
    assert response.status_code == 400
    assert first.leader is None


def test_moving_a_unit_up_puts_it_first(client, muster):
    first, second = muster.red.units.order_by("order")
    client.force_login(muster.alice)

    client.post(f"/units/{second.pk}/shift/", {"direction": "up"})

    assert list(muster.red.units.order_by("order")) == [second, first]


def test_only_an_empty_unit_can_be_deleted(client, muster):
    full = muster.red.units.order_by("order").first()
    empty = UnitFactory(force=muster.red, name="Empty")
    client.force_login(muster.alice)

    client.post(f"/units/{full.pk}/delete/")
    client.post(f"/units/{empty.pk}/delete/")

    assert Unit.objects.filter(pk=full.pk).exists()
    assert not Unit.objects.filter(pk=empty.pk).exists()


def test_where_the_unit_is_the_piece_its_stats_are_typed_fields_on_the_unit(client):
    campaign = CampaignFactory(system="grits_and_glory")
    muster = make_muster()
    MembershipFactory(user=muster.alice, campaign=campaign)
    force = Force.objects.create(
        owner=muster.alice, campaign=campaign, system="grits_and_glory", name="Posse"
    )
    unit = UnitFactory(force=force, name="Deputies")
    client.force_login(muster.alice)

    page = client.get(f"/units/{unit.pk}/edit/").content.decode()
    bad = client.post(f"/units/{unit.pk}/edit/", {"name": "Deputies", "stat_pace": "99"})
    good = client.post(
        f"/units/{unit.pk}/edit/",
        {"name": "Deputies", "stat_pace": "8", "stat_figures": "4", "stat_fighting": "8"},
    )

    assert 'name="stat_pace"' in page and 'max="24"' in page
    assert bad.status_code == 400 and 'id="id_stat_pace_error"' in bad.content.decode()
    assert good.status_code == 302
    unit.refresh_from_db()
    assert (unit.stats["pace"], unit.stats["figures"], unit.stats["fighting"]) == (8, 4, 8)


def test_a_system_whose_piece_is_the_figure_shows_no_unit_stats(client, muster):
    client.force_login(muster.alice)

    html = client.get(f"/units/{muster.red.units.first().pk}/edit/").content.decode()

    assert "stat_" not in html


def test_the_force_edit_page_lists_units_with_head_counts(client, muster):
    client.force_login(muster.alice)
    CharacterFactory(force=muster.red, unit=muster.red.units.first(), name="Extra man")

    html = client.get(f"/forces/{muster.red.pk}/edit/").content.decode()

    assert "Red unit 1" in html and "3 figures" in html
    assert Campaign.objects.count() == 1


def test_the_owner_rolls_a_whole_squad_with_the_squad_creator(client, muster):
    client.force_login(muster.alice)

    page = client.get(f"/forces/{muster.red.pk}/edit/").content.decode()
    response = client.post(f"/forces/{muster.red.pk}/units/squad/", {"squad-name": "Forlorn Hope"})

    unit = muster.red.units.get(name="Forlorn Hope")
    assert "Roll the squad" in page
    assert response.status_code == 302
    assert 5 <= unit.characters.count() <= 10  # a d6 + 4
    assert unit.leader.name == "Forlorn Hope 1"


def test_a_squad_needs_a_name_and_nothing_is_rolled_without_one(client, muster):
    client.force_login(muster.alice)

    response = client.post(f"/forces/{muster.red.pk}/units/squad/", {"squad-name": ""})

    assert response.status_code == 400
    assert 'id="id_squad-name_error"' in response.content.decode()
    assert muster.red.units.count() == 2


def test_an_archived_force_is_not_offered_for_a_new_battle(client, muster):
    client.force_login(muster.alice)
    client.post(f"/forces/{muster.red.pk}/archive/")

    html = client.get(f"/battles/new/?campaign={muster.campaign.pk}").content.decode()

    assert f'<option value="{muster.blue.pk}"' in html
    assert f'<option value="{muster.red.pk}"' not in html


def test_the_roster_offers_the_owner_an_add_figure_link_per_unit_and_others_none(client, muster):
    unit = muster.red.units.order_by("order").first()
    link = f"/forces/{muster.red.pk}/characters/new/?unit={unit.pk}"

    client.force_login(muster.alice)
    mine = client.get(f"/forces/{muster.red.pk}/").content.decode()
    client.force_login(muster.bob)
    theirs = client.get(f"/forces/{muster.red.pk}/").content.decode()
    client.force_login(muster.alice)
    form = client.get(link).content.decode()

    assert link in mine and link not in theirs
    assert f'<option value="{unit.pk}" selected>' in form
