"""Import and export through the API: JSON documents and CSV files."""

from __future__ import annotations

import io

import pytest

from rosters import interchange
from rosters.models import Character, Force
from rules.system import get_system
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


def bounded_int(system_key: str):
    return next(
        f for f in get_system(system_key).stats.fields if f.kind == "int" and f.max is not None
    )


def test_a_force_exported_and_imported_through_the_api_is_the_same(story, as_user):
    client = as_user(story.alice)
    document = client.get(f"/api/forces/{story.force.pk}/export/").json()
    document["force"]["name"] = "Gridley's Company (copy)"

    response = client.post(
        "/api/forces/import/", {"document": document, "campaign": story.campaign.pk}, format="json"
    )

    assert response.status_code == 201, response.content
    copy = Force.objects.get(pk=response.json()["id"])
    assert (copy.owner, copy.campaign) == (story.alice, story.campaign)
    assert interchange.force_export_json(force=copy) == document


def test_a_bad_json_import_is_a_400_listing_each_problem(story, as_user):
    stat = bounded_int(story.force.system)
    document = interchange.force_export_json(force=story.force)
    document["force"]["characters"][0]["stats"][stat.name] = stat.max + 1
    forces = Force.objects.count()

    response = as_user(story.alice).post(
        "/api/forces/import/", {"document": document}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["problems"][0]["path"] == f"force.characters[0].stats.{stat.name}"
    assert Force.objects.count() == forces


def test_csv_export_has_one_row_per_character(story, as_user):
    CharacterFactory(force=story.force, name="Tom")

    response = as_user(story.bob).get(f"/api/forces/{story.force.pk}/characters-csv/")

    assert response["Content-Type"].startswith("text/csv")
    assert len(response.content.decode().splitlines()) == 3


def test_a_bad_csv_upload_is_a_400_naming_row_and_column_and_imports_nothing(story, as_user):
    stat = bounded_int(story.force.system)
    upload = io.BytesIO(f"name,{stat.name}\nTom,{stat.min}\nDick,{stat.max + 1}\n".encode())
    upload.name = "roster.csv"

    response = as_user(story.alice).post(
        f"/api/forces/{story.force.pk}/characters-csv/", {"file": upload}, format="multipart"
    )

    assert response.status_code == 400
    assert response.json()["problems"] == [
        {
            "row": 3,
            "column": stat.name,
            "message": f"must be at most {stat.max}, not {stat.max + 1}",
        }
    ]
    assert not Character.objects.filter(name__in=["Tom", "Dick"]).exists()


def test_a_good_csv_upload_answers_with_the_new_characters(story, as_user):
    upload = io.BytesIO(b"name,rank,unit\nTom,Drummer,Musketeers\n")
    upload.name = "roster.csv"

    response = as_user(story.olivia).post(
        f"/api/forces/{story.force.pk}/characters-csv/", {"file": upload}, format="multipart"
    )

    assert response.status_code == 201
    assert response.json()[0]["unit"]["id"] == story.unit.pk
