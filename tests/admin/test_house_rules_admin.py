"""House rules in the admin: the campaign's "Edit house rules" opens the same typed-row editor as
the organisers' page, for any staff who run the campaign (a superuser or the club's admin who do
not organise it too); the versions are listed read-only, each as readable tables.

olivia organises Brandywine (Rencounter); oscar organises another club's campaign; root is a
superuser and clara the club's admin, neither of them an organiser of Brandywine.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from campaigns.house_rules_forms import cell_name
from campaigns.models import HouseRules, Role
from campaigns.services import membership_create
from campaigns.services.house_rules import house_rules_current, house_rules_save
from rules import house
from rules.system import get_system
from tests.factories import CampaignFactory, ClubFactory, UserFactory
from tests.pages.test_house_rules_page import (
    BASE_ROWS,
    LIMITED,
    TABLE,
    editor_data,
    fill,
    new_row,
)

pytestmark = pytest.mark.django_db

SYSTEM = get_system("rencounter")


@pytest.fixture
def brandywine():
    club = ClubFactory(name="Chester County")
    campaign = CampaignFactory(system=SYSTEM.key, name="Brandywine", club=club)
    membership_create(campaign=campaign, user=UserFactory(username="olivia"), role=Role.ORGANISER)
    return campaign


def _editor(campaign) -> str:
    return f"/admin/campaigns/campaign/{campaign.pk}/house-rules/"


@pytest.fixture
def root(client):
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.fixture
def clara(client, brandywine):
    """The club's admin: staff with the organisers' permissions, not a member of the campaign."""
    user = UserFactory(username="clara", is_staff=True)
    user.groups.add(Group.objects.get(name="Organisers"))
    brandywine.club.admins.add(user)
    client.force_login(user)
    return user


@pytest.mark.parametrize("who", ["root", "clara"])
def test_staff_who_run_the_club_edit_house_rules_without_organising_the_campaign(
    client, brandywine, who, request
):
    user = request.getfixturevalue(who)
    page = client.get(_editor(brandywine))
    data = editor_data(page)
    fill(data, len(BASE_ROWS), **new_row())
    data["note"] = ["Set in the admin"]

    response = client.post(_editor(brandywine), {**data, "save": "1"})

    assert page.status_code == 200
    assert f'name="{cell_name(TABLE.name, 0, LIMITED.name)}"' in page.content.decode()
    assert response.status_code == 302 and response["Location"] == _editor(brandywine)
    version = house_rules_current(brandywine)
    assert version.number == 1 and version.created_by == user
    assert version.note == "Set in the admin"


def test_the_admin_preview_shows_the_odds_and_writes_nothing(client, root, brandywine):
    data = editor_data(client.get(_editor(brandywine)))
    fill(data, len(BASE_ROWS), **new_row())

    response = client.post(_editor(brandywine), {**data, "preview": "1"})

    assert response.status_code == 200
    assert response.context["preview"].odds
    assert 'data-testid="odds-comparison"' in response.content.decode()
    assert not HouseRules.objects.exists()


def test_a_bad_cell_in_the_admin_comes_back_on_that_cell(client, root, brandywine):
    data = editor_data(client.get(_editor(brandywine)))
    fill(data, 1, **{LIMITED.name: int(LIMITED.max) + 1})

    response = client.post(_editor(brandywine), {**data, "save": "1"})

    assert response.status_code == 400
    assert f'id="cell-{TABLE.name}-1-{LIMITED.name}-error"' in response.content.decode()
    assert not HouseRules.objects.exists()


def test_an_organiser_of_another_campaign_cannot_open_this_ones_editor(client, brandywine):
    oscar = UserFactory(username="oscar")
    membership_create(campaign=CampaignFactory(system=SYSTEM.key), user=oscar, role=Role.ORGANISER)
    client.force_login(oscar)

    assert client.get(_editor(brandywine)).status_code == 404
    assert client.post(_editor(brandywine), {"save": "1"}).status_code == 404


def test_the_campaign_page_links_to_the_editor(client, root, brandywine):
    html = client.get(f"/admin/campaigns/campaign/{brandywine.pk}/change/").content.decode()

    assert f'href="{_editor(brandywine)}">Edit house rules</a>' in html


# --- the versions, read-only ---------------------------------------------------------------------


@pytest.fixture
def version(brandywine):
    document = house.template(SYSTEM)
    document["tables"] = {TABLE.name: [*BASE_ROWS, new_row()]}
    olivia = brandywine.memberships.get(role=Role.ORGANISER).user
    return house_rules_save(campaign=brandywine, document=document, user=olivia, note="Our gun")


def test_the_versions_list_shows_campaign_number_note_author_and_date(client, root, version):
    html = client.get("/admin/campaigns/houserules/").content.decode()

    for text in ("Brandywine", "Our gun", "olivia", "field-number", "field-created_at"):
        assert text in html


def test_a_version_reads_as_tables_and_changes_not_as_json(client, root, version):
    html = client.get(f"/admin/campaigns/houserules/{version.pk}/change/").content.decode()

    assert "muster-house-rules" not in html and "<textarea" not in html
    assert f"<h3>{TABLE.title}" in html
    assert "<td>House special</td>" in html
    assert f"{TABLE.title}: added house_special" in html
    assert _editor(version.campaign) in html


def test_a_version_cannot_be_added_changed_or_deleted_in_the_admin(client, root, version):
    url = f"/admin/campaigns/houserules/{version.pk}/"

    assert client.get("/admin/campaigns/houserules/add/").status_code == 403
    assert client.post(url + "change/", {"note": "rewritten"}).status_code == 403
    assert client.post(url + "delete/", {"post": "yes"}).status_code == 403
    version.refresh_from_db()
    assert version.note == "Our gun"


def test_an_organiser_reads_the_versions_of_their_own_campaigns_only(client, brandywine, version):
    oscar = UserFactory(username="oscar")
    theirs = CampaignFactory(system=SYSTEM.key, name="Monmouth")
    membership_create(campaign=theirs, user=oscar, role=Role.ORGANISER)
    house_rules_save(campaign=theirs, document=house.template(SYSTEM), user=oscar, note="Mine")
    client.force_login(oscar)

    listing = client.get("/admin/campaigns/houserules/").content.decode()

    assert "Monmouth" in listing and "Our gun" not in listing
    response = client.get(f"/admin/campaigns/houserules/{version.pk}/change/")
    assert response.status_code == 302 and response["Location"] == "/admin/"  # "does not exist"
