"""Forces to and from JSON, characters to and from CSV; a bad file is refused whole."""

from __future__ import annotations

import csv
import io

import pytest

from common.stats import starting_stats
from rosters import interchange, services
from rosters.models import Character, EntryCause, Force
from rules.system import all_systems, get_system
from tests.factories import ForceFactory, UserFactory

pytestmark = pytest.mark.django_db


def bounded_int(system_key: str):
    return next(
        f for f in get_system(system_key).stats.fields if f.kind == "int" and f.max is not None
    )


def a_full_force(system_key: str) -> Force:
    force = ForceFactory(system=system_key, name="Gridley's Company", notes="raised 1631")
    unit = services.unit_create(
        force=force, name="Musketeers", order=1, stats=_unit_stats(system_key)
    )
    leader = services.character_create(
        force=force, name="Sgt. Gridley", unit=unit, rank="Sergeant", permanent_wounds=["left arm"]
    )
    services.unit_update(unit=unit, leader=leader)
    services.character_create(force=force, name="Tom", status="RECOVERING", notes="limps")
    return force


def _unit_stats(system_key: str) -> dict:
    system = get_system(system_key)
    return starting_stats(system.stats) if system.piece == "unit" else {}


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_a_json_round_trip_is_lossless(system):
    document = interchange.force_export_json(force=a_full_force(system))

    copy = interchange.force_import_json(document=document, owner=UserFactory())

    assert interchange.force_export_json(force=copy) == document


def test_imported_characters_say_so_in_their_record():
    document = interchange.force_export_json(force=a_full_force("rencounter"))

    copy = interchange.force_import_json(document=document, owner=UserFactory())

    causes = {e.cause for c in copy.characters.all() for e in c.service_record.all()}
    assert causes == {EntryCause.IMPORT}


def test_a_bad_json_document_is_refused_whole_with_each_place_named():
    document = interchange.force_export_json(force=a_full_force("rencounter"))
    stat = bounded_int("rencounter")
    document["force"]["characters"][1]["stats"][stat.name] = stat.max + 1
    document["force"]["characters"][0]["unit"] = "Nobody's Regiment"
    before = Force.objects.count()

    with pytest.raises(interchange.ImportRejected) as caught:
        interchange.force_import_json(document=document, owner=UserFactory())

    paths = {p["path"] for p in caught.value.problems}
    assert paths == {f"force.characters[1].stats.{stat.name}", "force.characters[0].unit"}
    assert Force.objects.count() == before


def test_a_document_of_another_format_is_refused():
    with pytest.raises(interchange.ImportRejected):
        interchange.force_import_json(document={"format": "warband"}, owner=UserFactory())


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_a_csv_round_trip_keeps_every_character(system):
    source = a_full_force(system)
    text = interchange.force_export_csv(force=source)
    target = ForceFactory(system=system)

    interchange.force_import_csv(force=target, text=text)

    assert interchange.force_export_csv(force=target) == text


def test_the_csv_header_is_the_fixed_columns_then_the_stats():
    text = interchange.force_export_csv(force=ForceFactory(system="rencounter"))

    header = next(csv.reader(io.StringIO(text)))

    stats = get_system("rencounter").stats.names
    assert header == [*interchange.CSV_COLUMNS, *map(interchange.stat_column, stats)]


def test_a_bad_csv_row_is_reported_by_row_and_column_and_nothing_is_imported():
    force = ForceFactory(system="rencounter")
    stat = bounded_int("rencounter")
    text = (
        f"name,status,{stat.name}\n"
        f"Tom,ACTIVE,{stat.min}\n"
        f"Dick,ACTIVE,{stat.max + 1}\n"
        f"Harry,ASLEEP,{stat.min}\n"
    )

    with pytest.raises(interchange.ImportRejected) as caught:
        interchange.force_import_csv(force=force, text=text)

    assert caught.value.problems == [
        {
            "row": 3,
            "column": stat.name,
            "message": f"must be at most {stat.max}, not {stat.max + 1}",
        },
        {"row": 4, "column": "status", "message": caught.value.problems[1]["message"]},
    ]
    assert not Character.objects.exists()


def test_a_csv_name_already_in_the_force_is_refused():
    force = ForceFactory()
    services.character_create(force=force, name="Tom")

    with pytest.raises(interchange.ImportRejected) as caught:
        interchange.force_import_csv(force=force, text="name\nTom\n")

    assert caught.value.problems[0] == {
        "row": 2,
        "column": "name",
        "message": "'Tom' is already in the force or the file",
    }


def test_an_unknown_csv_column_is_reported_in_the_header_row():
    with pytest.raises(interchange.ImportRejected) as caught:
        interchange.force_import_csv(force=ForceFactory(), text="name,charisma\nTom,18\n")

    assert caught.value.problems == [
        {"row": 1, "column": "charisma", "message": "is not a column of this system"}
    ]


def test_a_stat_named_like_a_fixed_column_gets_a_stat_prefix():
    assert interchange.stat_column("notes") == "stat_notes"
    assert interchange.stat_column("fire") == "fire"


def test_csv_creates_units_it_names_and_reads_lists():
    force = ForceFactory(system="rencounter")
    text = 'name,unit,permanent_wounds\nTom,Pikes,"left arm; limp, bad"\n'

    (tom,) = interchange.force_import_csv(force=force, text=text)

    assert tom.unit.name == "Pikes"
    assert tom.permanent_wounds == ["left arm", "limp, bad"]
