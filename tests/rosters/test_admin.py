"""The admin: typed stat fields from the schema, hand edits on the record, imports."""

from __future__ import annotations

import io
import json
import re

import pytest
from django import forms

from rosters import interchange
from rosters.models import Character, EntryCause, Force
from rules.errors import ValidationError as RulesValidationError
from rules.system import all_systems, get_system
from tests.factories import CampaignFactory, CharacterFactory, ForceFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def bounded_int(system_key: str):
    return next(
        f
        for f in get_system(system_key).stats.fields
        if f.kind == "int" and f.max is not None and not f.choices
    )


def changed_stats(system_key: str, stats: dict) -> dict:
    """`stats` with one bounded number moved to another value the schema accepts."""
    schema = get_system(system_key).stats
    for field in schema.fields:
        if field.kind != "int" or field.min is None or field.max is None:
            continue
        for value in range(field.max, field.min - 1, -1):
            if value == stats[field.name]:
                continue
            try:
                return schema.validate({**stats, field.name: value})
            except RulesValidationError:
                continue
    raise AssertionError(f"{system_key}: no stat can change")


def form_data(response) -> dict:
    """Return the POST data of the admin form as rendered (inputs, selects, checkboxes)."""
    form = response.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        if isinstance(field, forms.FileField):
            continue
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = value if not isinstance(value, list) else [str(v) for v in value]
    return data


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_the_character_page_shows_typed_stat_fields_not_json(admin_client, system):
    character = CharacterFactory(force=ForceFactory(system=system))

    html = admin_client.get(f"/admin/rosters/character/{character.pk}/change/").content.decode()

    stat = get_system(system).stats.fields[0]
    assert f'name="stat_{stat.name}"' in html
    assert 'name="stats"' not in html


def test_an_int_stat_is_a_number_input_with_its_range(admin_client):
    character = CharacterFactory()
    stat = bounded_int(character.force.system)

    html = admin_client.get(f"/admin/rosters/character/{character.pk}/change/").content.decode()

    tag = re.search(rf'<input[^>]*name="stat_{stat.name}"[^>]*>', html).group(0)
    assert 'type="number"' in tag
    assert f'max="{stat.max}"' in tag


def test_an_int_stat_with_named_values_is_a_select_of_them(admin_client):
    character = CharacterFactory(force=ForceFactory(system="rencounter"))

    html = admin_client.get(f"/admin/rosters/character/{character.pk}/change/").content.decode()

    assert '<select name="stat_experience"' in html
    assert '<option value="6">6 Master</option>' in html


def test_a_hand_edit_in_the_admin_is_on_the_record_and_in_the_history(admin_client):
    character = CharacterFactory(rank="Private")
    url = f"/admin/rosters/character/{character.pk}/change/"
    data = form_data(admin_client.get(url))
    data.update(
        {"rank": "Sergeant", "service_record-TOTAL_FORMS": "0", "service_record-INITIAL_FORMS": "0"}
    )

    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = character.service_record.get()
    assert (entry.cause, entry.after, entry.user.username) == (
        EntryCause.HAND_EDIT,
        {"rank": "Sergeant"},
        "root",
    )
    assert character.history.latest().history_user.username == "root"


def test_an_out_of_range_stat_in_the_admin_is_an_error_on_that_field(admin_client):
    character = CharacterFactory()
    stat = bounded_int(character.force.system)
    url = f"/admin/rosters/character/{character.pk}/change/"
    data = form_data(admin_client.get(url))
    data.update(
        {
            f"stat_{stat.name}": stat.max + 1,
            "service_record-TOTAL_FORMS": "0",
            "service_record-INITIAL_FORMS": "0",
        }
    )

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert f"stat_{stat.name}" in response.context["adminform"].form.errors
    assert not character.service_record.exists()


def test_a_character_added_in_the_admin_gets_its_creation_entry(admin_client):
    force = ForceFactory()
    page = admin_client.get(f"/admin/rosters/character/add/?force={force.pk}")
    data = form_data(page)
    data.update(
        {
            "name": "Tom",
            "force": force.pk,
            "status": "ACTIVE",
            "service_record-TOTAL_FORMS": "0",
            "service_record-INITIAL_FORMS": "0",
        }
    )

    response = admin_client.post(f"/admin/rosters/character/add/?force={force.pk}", data)

    assert response.status_code == 302
    assert Character.objects.get(name="Tom").service_record.get().cause == EntryCause.CREATED


@pytest.mark.parametrize(
    "url",
    [
        "/admin/rosters/force/",
        "/admin/rosters/force/add/",
        "/admin/rosters/character/",
        "/admin/rosters/character/add/",
        "/admin/rosters/servicerecordentry/",
        "/admin/campaigns/campaign/",
        "/admin/campaigns/campaign/add/",
        "/admin/campaigns/club/",
        "/admin/rosters/force/import-json/",
    ],
)
def test_admin_pages_open(admin_client, url, story):
    assert admin_client.get(url).status_code == 200


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_force_and_campaign_pages_open_for_each_system(admin_client, system):
    force = ForceFactory(campaign=CampaignFactory(system=system))
    CharacterFactory(force=force)

    assert admin_client.get(f"/admin/rosters/force/{force.pk}/change/").status_code == 200
    assert (
        admin_client.get(f"/admin/campaigns/campaign/{force.campaign_id}/change/").status_code
        == 200
    )


def test_character_list_filters_by_system(admin_client):
    CharacterFactory(name="Luc", force=ForceFactory(system="escarmouche"))
    CharacterFactory(name="Tom")

    response = admin_client.get("/admin/rosters/character/?system=escarmouche")

    assert [c.name for c in response.context["cl"].result_list] == ["Luc"]


def test_the_csv_import_action_imports_a_good_file(admin_client):
    force = ForceFactory()
    upload = io.BytesIO(b"name,rank\nTom,Drummer\n")
    upload.name = "roster.csv"

    admin_client.post(
        "/admin/rosters/force/",
        {"action": "import_csv", "_selected_action": [force.pk], "apply": "1", "file": upload},
    )

    assert force.characters.get().rank == "Drummer"


def test_the_csv_import_action_lists_bad_rows_and_imports_nothing(admin_client):
    force = ForceFactory()
    stat = bounded_int(force.system)
    upload = io.BytesIO(f"name,{stat.name}\nTom,{stat.max + 1}\n".encode())
    upload.name = "roster.csv"

    response = admin_client.post(
        "/admin/rosters/force/",
        {"action": "import_csv", "_selected_action": [force.pk], "apply": "1", "file": upload},
    )

    assert response.context["problems"][0]["row"] == 2
    assert response.context["problems"][0]["column"] == stat.name
    assert not force.characters.exists()


def test_the_json_export_action_downloads_the_document(admin_client):
    force = ForceFactory(name="Gridley's Company")

    response = admin_client.post(
        "/admin/rosters/force/", {"action": "export_json", "_selected_action": [force.pk]}
    )

    assert json.loads(response.content) == interchange.force_export_json(force=force)


def test_the_json_import_page_creates_the_force(admin_client):
    document = interchange.force_export_json(force=ForceFactory(name="Original"))
    document["force"]["name"] = "Copy"
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "force.json"
    owner = UserFactory()

    response = admin_client.post(
        "/admin/rosters/force/import-json/", {"file": upload, "owner": owner.pk}
    )

    assert response.status_code == 302
    assert Force.objects.get(name="Copy").owner == owner


def page_data(response) -> dict:
    """Return POST data for an admin change page: the main form plus every inline formset."""
    data = form_data(response)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[formset.management_form.add_prefix(name)] = formset.management_form[name].value()
        for form in formset.forms:
            for name, field in form.fields.items():
                value = form[name].value()
                if isinstance(field, forms.FileField) or value in (None, False):
                    continue
                data[form.add_prefix(name)] = (
                    [str(v) for v in value] if isinstance(value, list) else value
                )
    return data


def test_inline_character_edits_on_the_force_page_go_on_the_record(admin_client):
    force = ForceFactory()
    character = CharacterFactory(force=force, rank="Private")
    stat = bounded_int(force.system)
    url = f"/admin/rosters/force/{force.pk}/change/"
    data = page_data(admin_client.get(url))
    data.update({"characters-0-rank": "Corporal", f"characters-0-stat_{stat.name}": stat.min})

    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context and response.context["errors"]
    entry = character.service_record.get()
    assert entry.cause == EntryCause.HAND_EDIT
    assert entry.after["rank"] == "Corporal"


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_renaming_a_figure_inline_keeps_every_stat(admin_client, system):
    """The inline's stat fields are sent prefixed ("characters-0-stat_fire"); a form that did
    not find them took the system's starting stats, so a rename put an improved figure back to
    its defaults."""
    force = ForceFactory(system=system)
    character = CharacterFactory(force=force, name="Ezra Vane")
    raised = changed_stats(system, character.stats)
    Character.objects.filter(pk=character.pk).update(stats=raised)
    url = f"/admin/rosters/force/{force.pk}/change/"
    data = page_data(admin_client.get(url))
    data["characters-0-name"] = "Ezra Vane the Elder"

    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context and response.context["errors"]
    character.refresh_from_db()
    assert character.name == "Ezra Vane the Elder"
    assert character.stats == raised


def test_a_unit_added_inline_on_the_force_page_is_created(admin_client):
    force = ForceFactory()
    url = f"/admin/rosters/force/{force.pk}/change/"
    data = page_data(admin_client.get(url))
    data.update({"units-TOTAL_FORMS": "1", "units-0-name": "Dragoons", "units-0-order": "2"})

    response = admin_client.post(url, data)

    assert response.status_code == 302
    assert force.units.get().name == "Dragoons"


def test_a_campaigns_house_rules_are_typed_fields(admin_client):
    campaign = CampaignFactory(system="rencounter")
    option = next(f for f in get_system("rencounter").options.fields if f.kind == "bool")
    url = f"/admin/campaigns/campaign/{campaign.pk}/change/"
    data = page_data(admin_client.get(url))
    data[f"option_{option.name}"] = "on" if not campaign.options[option.name] else ""

    response = admin_client.post(url, {k: v for k, v in data.items() if v != ""})

    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.options[option.name] is (
        not get_system("rencounter").options.validate({})[option.name]
    )
