"""The force page: roster by unit, status at a glance, print and export links, CSV import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from rosters.models import Character, CharacterStatus
from tests.pages.conftest import add_figures, make_muster

pytestmark = pytest.mark.django_db


def test_the_owner_sees_the_roster_by_unit_with_stat_lines(client, muster):
    client.force_login(muster.alice)

    html = client.get(f"/forces/{muster.red.pk}/").content.decode()

    assert "Red unit 1" in html and "Red unit 2" in html
    assert "Red man 1" in html
    assert "F 6 M 7" in html  # the system's own compact stat line
    assert f"/api/forces/{muster.red.pk}/labels.pdf" in html


def test_the_page_offers_every_print_and_export_document(client, muster):
    client.force_login(muster.alice)

    html = client.get(f"/forces/{muster.red.pk}/").content.decode()

    for path in ("labels.pdf", "cards.pdf", "roster.pdf", "export/", "characters-csv/"):
        assert f"/api/forces/{muster.red.pk}/{path}" in html
    assert "/api/systems/rencounter/reference.pdf?campaign=" in html


def test_the_dead_are_listed_apart_from_the_living(client, muster):
    fallen = muster.red.characters.get(name="Red man 2")
    Character.objects.filter(pk=fallen.pk).update(status=CharacterStatus.DEAD)
    client.force_login(muster.alice)

    html = client.get(f"/forces/{muster.red.pk}/").content.decode()

    roster, after = html.split('id="fallen-title"')
    assert "Red man 2" not in roster.split('id="roster-title"')[1]
    assert "Red man 2" in after


def test_another_player_reads_the_force_without_edit_controls(client, muster):
    client.force_login(muster.bob)

    response = client.get(f"/forces/{muster.red.pk}/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Red man 1" in html
    assert 'action="/forces/' not in html  # no import form
    assert "Set up a battle" not in html


def test_another_players_import_is_refused_and_changes_nothing(client, muster):
    client.force_login(muster.bob)
    before = muster.red.characters.count()
    upload = SimpleUploadedFile("r.csv", b"name\nIntruder\n", content_type="text/csv")

    response = client.post(f"/forces/{muster.red.pk}/import/", {"file": upload})

    assert response.status_code == 403
    assert muster.red.characters.count() == before


def test_a_stranger_cannot_see_the_force_at_all(client, muster):
    client.force_login(muster.charlie)

    assert client.get(f"/forces/{muster.red.pk}/").status_code == 404


def test_the_owner_imports_characters_from_a_csv_file(client, muster):
    client.force_login(muster.alice)
    upload = SimpleUploadedFile(
        "r.csv", b"name,rank\nPvt. Hobbs,Private\n", content_type="text/csv"
    )

    response = client.post(f"/forces/{muster.red.pk}/import/", {"file": upload})

    assert response.status_code == 302
    assert muster.red.characters.filter(name="Pvt. Hobbs").exists()


def test_a_bad_csv_is_refused_whole_with_each_problem_in_place(client, muster):
    client.force_login(muster.alice)
    before = muster.red.characters.count()
    upload = SimpleUploadedFile(
        "r.csv", b"name,status\nPvt. Hobbs,SLEEPING\n", content_type="text/csv"
    )

    response = client.post(f"/forces/{muster.red.pk}/import/", {"file": upload})

    html = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was imported" in html
    assert "status" in html.split('id="import-problems"')[1]
    assert muster.red.characters.count() == before


def test_the_import_form_is_protected_by_csrf(muster):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(muster.alice)
    upload = SimpleUploadedFile("r.csv", b"name\nPvt. Hobbs\n", content_type="text/csv")

    response = client.post(f"/forces/{muster.red.pk}/import/", {"file": upload})

    assert response.status_code == 403
    assert not muster.red.characters.filter(name="Pvt. Hobbs").exists()


@pytest.mark.parametrize("size", [2, 24])
def test_the_force_page_costs_the_same_queries_at_any_roster_size(
    client, django_assert_num_queries, size
):
    muster = make_muster(size=size)
    client.force_login(muster.alice)
    client.get(f"/forces/{muster.red.pk}/")  # warm the session

    with django_assert_num_queries(FORCE_PAGE_QUERIES):
        client.get(f"/forces/{muster.red.pk}/")


def test_a_bigger_roster_adds_no_query(client, django_assert_max_num_queries):
    muster = make_muster(size=2)
    add_figures(muster.red, 40, units=6)
    client.force_login(muster.alice)

    with django_assert_max_num_queries(FORCE_PAGE_QUERIES):
        client.get(f"/forces/{muster.red.pk}/")


#: session, user, force, roster, units, the user's label presets, the campaign's house-rules
#: version (its figures' stats read under it).
FORCE_PAGE_QUERIES = 7


def test_a_recovering_figure_shows_the_date_it_heals(client, muster):
    from django.utils import timezone

    from battles.models import Battle, BattleStatus, PostBattleRoll
    from battles.services import SideChoice, battle_start

    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
    )
    Battle.objects.filter(pk=battle.pk).update(
        status=BattleStatus.PROCESSED, processed_at=timezone.now()
    )
    wounded = muster.red.characters.get(name="Red man 1")
    change = {"kind": "recovers_on", "field": "recovers_on", "before": None, "after": "1777-10-11"}
    PostBattleRoll.objects.create(
        battle=battle,
        character=wounded,
        procedure="aftermath",
        index=0,
        outcome="permanent_0",
        result={"changes": [change]},
    )
    Character.objects.filter(pk=wounded.pk).update(status=CharacterStatus.RECOVERING)
    client.force_login(muster.alice)

    html = client.get(f"/forces/{muster.red.pk}/").content.decode()

    assert "Recovering until <strong>11 Oct 1777</strong>" in html
